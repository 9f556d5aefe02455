import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Sale, SaleIdParams } from "../../lib/schemas/sales";
import { getSale } from "../../services/sales/read";

const route = operation({
  operationId: "getSale",
  method: "get",
  path: "/gallery/sales/{id}",
  tags: ["Sales"],
  summary: "Retrieve a sale",
  description: "The sale with its works, amounts and status.",
  auth: { scopes: ["sales:read"] },
  pathIds: { id: "sale" },
  request: { params: SaleIdParams },
  responses: {
    200: { description: "The sale.", content: { "application/json": { schema: Sale } } },
  },
});

export function registerSalesGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getSale(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Sale>, 200>(c, text, 200);
  });
}
