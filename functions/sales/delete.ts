import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { SaleIdParams } from "../../lib/schemas/sales";
import { deleteSale } from "../../services/sales/delete";

const route = operation({
  operationId: "deleteSale",
  method: "delete",
  path: "/gallery/sales/{id}",
  tags: ["Sales"],
  summary: "Delete a sale",
  description:
    "Deletes the sale; a completed sale's amount and works leave the buyer's spend in the same transaction. Emits `sale.deleted` whose `data.object` is the sale's last state.",
  auth: { scopes: ["sales:delete"] },
  idempotent: true,
  pathIds: { id: "sale" },
  request: { params: SaleIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerSalesDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await deleteSale(serviceContext(c), id));
  });
}
