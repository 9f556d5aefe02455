import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Sale, SaleCreate } from "../../lib/schemas/sales";
import { createSale } from "../../services/sales/create";

const route = operation({
  operationId: "createSale",
  method: "post",
  path: "/gallery/sales",
  tags: ["Sales"],
  summary: "Record a sale",
  description:
    "Records that a contact (`contact_id`, one of this gallery's) acquired 1 to 50 of the gallery's works (`artwork_ids`, distinct, kept in order; `works_count` is their number) for `amount_cents` in `currency` (the gallery's default currency unless given). `base_amount_cents` is the amount in the gallery's default currency: left out, it equals `amount_cents`, which needs the sale to be in that currency (else 400 naming it); given with the default currency, it must equal `amount_cents`. `status` is `completed` by default and `sold_at` now. A completed sale adds `base_amount_cents` and `works_count` to the buyer's `total_spend_cents` and `works_acquired` in the same transaction. Emits `sale.created`.",
  auth: { scopes: ["sales:create"] },
  idempotent: true,
  exampleBody: {
    contact_id: "con_01jd4xk9v2c7h8m3n5p6q7r8s9",
    artwork_ids: ["art_01jd4xk9v2c7h8m3n5p6q7r8s9"],
    amount_cents: 1250000,
    currency: "USD",
  },
  request: {
    body: { required: true, content: { "application/json": { schema: SaleCreate } } },
  },
  responses: {
    201: { description: "The recorded sale.", content: { "application/json": { schema: Sale } } },
  },
});

export function registerSalesCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createSale(serviceContext(c), c.req.valid("json"))));
}
