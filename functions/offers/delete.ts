import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { DryRunBody } from "../../lib/schemas/dry-run";
import { OfferDeleteEffect, OfferIdParams } from "../../lib/schemas/offers";
import { deleteOffer } from "../../services/offers/delete";

const route = operation({
  operationId: "deleteOffer",
  method: "delete",
  path: "/gallery/offers/{id}",
  tags: ["Offers"],
  summary: "Delete an offer",
  description:
    "Deletes the offer, in any status, with its items and recipients. Emits `offer.deleted` whose `data.object` is the offer's last state. A dry run's `effect` is the offer (`id`, `title`, `status`) and the number of its `items` and `recipients` that would go with it.",
  auth: { scopes: ["offers:delete"] },
  idempotent: true,
  dryRun: { effect: OfferDeleteEffect },
  pathIds: { id: "offer" },
  request: { params: OfferIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerOffersDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const written = await deleteOffer(serviceContext(c), id);
    return respond<z.infer<typeof DeleteResult> | DryRunBody, 200>(c, written);
  });
}
