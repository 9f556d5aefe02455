import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Sale, SaleIdParams, SaleUpdate } from "../../lib/schemas/sales";
import { updateSale } from "../../services/sales/update";

const route = operation({
  operationId: "updateSale",
  method: "patch",
  path: "/gallery/sales/{id}",
  tags: ["Sales"],
  summary: "Update a sale",
  description:
    "Changes the status (any status may follow any other), amounts, `sold_at`, buyer (`contact_id`), works (`artwork_ids` replaces the list) or metadata. When `amount_cents` or `currency` changes without `base_amount_cents`, the base amount follows the amount, which needs the sale to be in the gallery's default currency (else 400 naming `base_amount_cents`). The buyers' spend follows in the same transaction: a completed sale that is refunded or cancelled leaves it, one moved to another contact moves with it. Emits `sale.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["sales:update"] },
  idempotent: true,
  pathIds: { id: "sale" },
  exampleBody: { status: "refunded" },
  request: {
    params: SaleIdParams,
    body: { required: true, content: { "application/json": { schema: SaleUpdate } } },
  },
  responses: {
    200: { description: "The updated sale.", content: { "application/json": { schema: Sale } } },
  },
});

export function registerSalesUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateSale(serviceContext(c), id, c.req.valid("json")));
  });
}
