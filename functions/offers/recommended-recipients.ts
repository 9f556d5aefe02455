import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { intParam } from "../../lib/params";
import {
  MAX_RECOMMENDED,
  OfferIdParams,
  RECOMMENDATION_FLOOR,
  RecommendedRecipientList,
} from "../../lib/schemas/offers";
import { recommendOfferRecipients } from "../../services/offers/read";

const DEFAULT_RECOMMENDED = 20;

const route = operation({
  operationId: "listRecommendedOfferRecipients",
  method: "get",
  path: "/gallery/offers/{id}/recommended-recipients",
  tags: ["Offers"],
  summary: "Recommend recipients for an offer",
  description: `The contacts the engine would add: anyone whose stored match on one of the offer's works clears the visible floor (probability ≥ ${RECOMMENDATION_FLOOR}, match \`active\` and not hidden), best first (\`probability\`, the contact's best match on the offer's works; ties by contact id). Each comes with the offer's works it matches (\`artworks\`, best first) and \`top_reason\`, the label of the strongest evidence of its best match. Left out: contacts already on the offer, archived contacts (off the roster) and do-not-email contacts (an offer is a mailing they opted out of). Empty until the offer's works are judged, and for an offer without items. \`limit\` is 1 to ${MAX_RECOMMENDED} (default ${DEFAULT_RECOMMENDED}); one page, no \`next_cursor\`.`,
  auth: { scopes: ["offers:read", "contacts:read", "artworks:read"] },
  pathIds: { id: "offer" },
  request: {
    params: OfferIdParams,
    query: z.strictObject({
      limit: intParam({ min: 1, max: MAX_RECOMMENDED, description: `How many, 1 to ${MAX_RECOMMENDED}.` })
        .optional()
        .openapi({ default: DEFAULT_RECOMMENDED }),
    }),
  },
  responses: {
    200: {
      description: "The recommended recipients, best first.",
      content: { "application/json": { schema: RecommendedRecipientList } },
    },
  },
});

export function registerOffersRecommendedRecipients(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { limit } = c.req.valid("query");
    const text = await recommendOfferRecipients(serviceContext(c), id, limit ?? DEFAULT_RECOMMENDED);
    return sendJson<z.infer<typeof RecommendedRecipientList>, 200>(c, text, 200);
  });
}
