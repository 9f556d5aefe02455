import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { byCreated, listResponse, paginationQuery } from "../../lib/pagination";
import { ApiKey } from "../../lib/schemas/api-keys";
import { listApiKeys } from "../../services/api-keys/read";

const ApiKeyList = listResponse(ApiKey, "ApiKeyList");

const route = operation({
  operationId: "listApiKeys",
  method: "get",
  path: "/gallery/api-keys",
  tags: ["API keys"],
  summary: "List API keys",
  description:
    "The gallery's secret keys and publishable tokens, revoked ones included, newest first. Secrets are never returned; `prefix` identifies a key.",
  auth: { scopes: ["api_keys:read"] },
  list: byCreated,
  request: { query: z.strictObject(paginationQuery(byCreated)) },
  responses: {
    200: {
      description: "A page of keys.",
      content: { "application/json": { schema: ApiKeyList } },
    },
  },
});

export function registerApiKeysList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof ApiKeyList>>(c, route, c.req.valid("query"), (page) =>
      listApiKeys(ctx, page),
    );
  });
}
