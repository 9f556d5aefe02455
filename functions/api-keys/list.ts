import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { listApiKeys } from "../../db/queries/api-keys";
import type { Router } from "../../lib/app";
import { operation } from "../../lib/operation";
import { listResponse, pageOf, pageRequest, paginationQuery } from "../../lib/pagination";
import { ApiKey } from "./schemas";

const ROUTE = "api_keys.list";

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
    const { limit, cursor, sort, dir } = c.req.valid("query");
    const principal = c.get("principal");
    const page = await pageRequest(c.env.SIGNING_SECRET, ROUTE, { limit, cursor, sort, dir }, "created");
    const rows = await listApiKeys(httpDb(c.env), principal.galleryId, page);
    const body = await pageOf(
      c.env.SIGNING_SECRET,
      page,
      rows,
      (r) => [r.sort_key, r.id],
      (r) => r.body,
    );
    return c.json(body as z.infer<ReturnType<typeof listResponse<typeof ApiKey>>>, 200);
  });
}
