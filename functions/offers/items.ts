import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { MAX_OFFER_ITEMS, OfferIdParams, OfferItemList, OfferItemsReplace } from "../../lib/schemas/offers";
import { replaceOfferItems } from "../../services/offers/items";

const route = operation({
  operationId: "replaceOfferItems",
  method: "patch",
  path: "/gallery/offers/{id}/items",
  tags: ["Offers"],
  summary: "Set an offer's items",
  description: `Replaces the whole set of works of a \`draft\` or \`scheduled\` offer (the compose surface's save); on a sent or cancelled offer it is 409 \`conflict\` with \`details.status\`. \`items\` holds 0 to ${MAX_OFFER_ITEMS} distinct works of the gallery (a work listed twice, or one that is not the gallery's, is 400 naming \`items.<n>.artwork_id\`); each item's \`position\` is its index. \`caption_override\` replaces the work's caption in the offer; \`price_shown_cents\` is the price the offer shows (null, the default, for none) in \`currency\` (the offer's by default); \`price_visible\` (default true) says whether recipients see it. A work that stays keeps its \`created_at\`. Emits \`offer.items_replaced\` with the offer and its works in order. Answers the items in position order.`,
  auth: { scopes: ["offers:update"] },
  idempotent: true,
  pathIds: { id: "offer" },
  exampleBody: { items: [] },
  request: {
    params: OfferIdParams,
    body: { required: true, content: { "application/json": { schema: OfferItemsReplace } } },
  },
  responses: {
    200: {
      description: "The offer's items, in position order.",
      content: { "application/json": { schema: OfferItemList } },
    },
  },
});

export function registerOffersReplaceItems(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await replaceOfferItems(serviceContext(c), id, c.req.valid("json")));
  });
}
