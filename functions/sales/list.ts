import { z } from "@hono/zod-openapi";
import { saleList } from "../../db/queries/sales";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { idString } from "../../lib/params";
import { Sale, saleStatuses } from "../../lib/schemas/sales";
import { UtcTimestamp } from "../../lib/time";
import { listSales } from "../../services/sales/read";

const SaleList = listResponse(Sale, "SaleList");

const route = operation({
  operationId: "listSales",
  method: "get",
  path: "/gallery/sales",
  tags: ["Sales"],
  summary: "List sales",
  description:
    "The gallery's sales, newest first by default; `sort=sold` orders by `sold_at`. Filters combine: `contact_id` (the buyer), `artwork_id` (sales that include the work), `status`, and `sold_after` (at or after) / `sold_before` (strictly before), so consecutive windows never count a sale twice.",
  auth: { scopes: ["sales:read"] },
  list: saleList,
  request: {
    query: z.strictObject({
      ...paginationQuery(saleList),
      contact_id: idString("con").optional().openapi({ description: "Sales to this contact." }),
      artwork_id: idString("art").optional().openapi({ description: "Sales that include this artwork." }),
      status: z.enum(saleStatuses).optional().openapi({ description: "Sales in this status." }),
      sold_after: UtcTimestamp.optional().openapi({
        description: "sold_at at or after this instant (UTC, ends in Z).",
      }),
      sold_before: UtcTimestamp.optional().openapi({
        description: "sold_at strictly before this instant (UTC, ends in Z).",
      }),
    }),
  },
  responses: {
    200: { description: "A page of sales.", content: { "application/json": { schema: SaleList } } },
  },
});

export function registerSalesList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof SaleList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listSales(ctx, filters, page),
    );
  });
}
