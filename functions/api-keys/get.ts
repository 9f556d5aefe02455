import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { ApiKey, ApiKeyIdParams } from "../../lib/schemas/api-keys";
import { getApiKey } from "../../services/api-keys/read";

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
    const text = await getApiKey(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof ApiKey>, 200>(c, text, 200);
  });
}
