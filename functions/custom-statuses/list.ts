import { z } from "@hono/zod-openapi";
import { customStatusList } from "../../db/queries/catalogue";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { CustomStatus } from "../../lib/schemas/catalogue";
import { listCustomStatuses } from "../../services/custom-statuses/read";

const CustomStatusList = listResponse(CustomStatus, "CustomStatusList");

const route = operation({
  operationId: "listCustomStatuses",
  method: "get",
  path: "/gallery/custom-statuses",
  tags: ["Custom statuses"],
  summary: "List custom statuses",
  description:
    "The gallery's custom statuses, newest first by default; `sort=position&dir=asc` is the order a picker shows them in, `sort=name` orders by name.",
  auth: { scopes: ["custom_statuses:read"] },
  list: customStatusList,
  request: {
    query: z.strictObject({
      ...paginationQuery(customStatusList),
    }),
  },
  responses: {
    200: {
      description: "A page of custom statuses.",
      content: { "application/json": { schema: CustomStatusList } },
    },
  },
});

export function registerCustomStatusesList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof CustomStatusList>>(c, route, c.req.valid("query"), (page) =>
      listCustomStatuses(ctx, page),
    );
  });
}
