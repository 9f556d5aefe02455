import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Offer, OfferCreate } from "../../lib/schemas/offers";
import { createOffer } from "../../services/offers/create";

const route = operation({
  operationId: "createOffer",
  method: "post",
  path: "/gallery/offers",
  tags: ["Offers"],
  summary: "Create an offer",
  description:
    "Creates a `draft` offer: a title (1 to 200 characters after trimming), an optional message and a currency (the gallery's default currency unless given). Works are set with `PATCH /gallery/offers/{id}/items` and contacts added with `POST /gallery/offers/{id}/recipients`. `created_by` is the signed-in member, or null for a secret key. Emits `offer.created`.",
  auth: { scopes: ["offers:create"] },
  idempotent: true,
  exampleBody: { title: "New works for the spring" },
  request: {
    body: { required: true, content: { "application/json": { schema: OfferCreate } } },
  },
  responses: {
    201: { description: "The new offer.", content: { "application/json": { schema: Offer } } },
  },
});

export function registerOffersCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createOffer(serviceContext(c), c.req.valid("json"))));
}
