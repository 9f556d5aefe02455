import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Offer, OfferIdParams } from "../../lib/schemas/offers";
import { getOffer } from "../../services/offers/read";

const route = operation({
  operationId: "getOffer",
  method: "get",
  path: "/gallery/offers/{id}",
  tags: ["Offers"],
  summary: "Retrieve an offer",
  description: "The offer with its status, schedule and the number of its items and recipients.",
  auth: { scopes: ["offers:read"] },
  pathIds: { id: "offer" },
  request: { params: OfferIdParams },
  responses: {
    200: { description: "The offer.", content: { "application/json": { schema: Offer } } },
  },
});

export function registerOffersGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getOffer(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Offer>, 200>(c, text, 200);
  });
}
