import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { listApiKeys } from "../../db/queries/api-keys";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { listPage, listResponse, paginationQuery } from "../../lib/pagination";
import { ApiKey } from "../../lib/schemas/api-keys";

const route = operation({
  operationId: "listApiKeys",
  method: "get",
  path: "/gallery/api-keys",
  tags: ["API keys"],
  summary: "List API keys",
  description:
    "The gallery's secret keys and publishable tokens, revoked ones included, newest first. Secrets are never returned; `prefix` identifies a key.",
  auth: { scopes: ["api_keys:read"] },
  request: { query: z.strictObject(paginationQuery(["created"] as const, "created")) },
  responses: {
    200: {
      description: "A page of keys.",
      content: { "application/json": { schema: listResponse(ApiKey, "ApiKeyList") } },
    },
  },
});

export function registerApiKeysList(app: Router): void {
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    const body = await listPage(
      c,
      { route: route.operationId, defaultSort: "created" },
      c.req.valid("query"),
      (page) => listApiKeys(httpDb(c.env), principal.galleryId, page),
    );
    return c.json(body as z.infer<ReturnType<typeof listResponse<typeof ApiKey>>>, 200);
  });
}
