import { z } from "@hono/zod-openapi";
import { byCreatedOrName } from "../../db/queries/catalogue";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { Tag, tagScopes } from "../../lib/schemas/catalogue";
import { listTags } from "../../services/tags/read";

const TagList = listResponse(Tag, "TagList");

const route = operation({
  operationId: "listTags",
  method: "get",
  path: "/gallery/tags",
  tags: ["Tags"],
  summary: "List tags",
  description:
    "The gallery's tags, newest first by default; `sort=name` orders by name (`dir=asc` for A to Z). `scope` keeps the tags of one scope.",
  auth: { scopes: ["tags:read"] },
  list: byCreatedOrName,
  request: {
    query: z.strictObject({
      ...paginationQuery(byCreatedOrName),
      scope: z.enum(tagScopes).optional().openapi({ description: "Keeps the tags of this scope." }),
    }),
  },
  responses: {
    200: {
      description: "A page of tags.",
      content: { "application/json": { schema: TagList } },
    },
  },
});

export function registerTagsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof TagList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listTags(ctx, filters, page),
    );
  });
}
