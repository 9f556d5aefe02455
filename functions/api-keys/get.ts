import type { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { findApiKey } from "../../db/queries/api-keys";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { ApiError } from "../../lib/problem";
import { ApiKey, ApiKeyIdParams } from "../../lib/schemas/api-keys";

const route = operation({
  operationId: "getApiKey",
  method: "get",
  path: "/gallery/api-keys/{id}",
  tags: ["API keys"],
  summary: "Retrieve an API key",
  description: "The key's name, kind, prefix, scopes and state; never its secret.",
  auth: { scopes: ["api_keys:read"] },
  pathIds: { id: "key" },
  request: { params: ApiKeyIdParams },
  responses: {
    200: { description: "The key.", content: { "application/json": { schema: ApiKey } } },
  },
});

export function registerApiKeysGet(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const found = await findApiKey(httpDb(c.env), c.get("principal").galleryId, id);
    if (!found) throw new ApiError("not_found", `No API key ${id} in this gallery.`);
    return c.json(found.body as z.infer<typeof ApiKey>, 200);
  });
}
