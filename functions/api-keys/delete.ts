import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ApiKey, ApiKeyIdParams } from "../../lib/schemas/api-keys";
import { revokeApiKey } from "../../services/api-keys/revoke";

const route = operation({
  operationId: "revokeApiKey",
  method: "delete",
  path: "/gallery/api-keys/{id}",
  tags: ["API keys"],
  summary: "Revoke an API key",
  description:
    "Revokes the key at once: the response is sent only after its cached credential is purged, so the next request with it is 401. The key stays listed with `revoked_at`. Revoking a revoked key changes nothing and answers the same. A key may revoke itself; it is then unusable, including for a retry of this request. Emits `api_key.revoked`.",
  auth: { scopes: ["api_keys:delete"] },
  idempotent: true,
  pathIds: { id: "key" },
  request: { params: ApiKeyIdParams },
  responses: {
    200: { description: "The revoked key.", content: { "application/json": { schema: ApiKey } } },
  },
});

export function registerApiKeysDelete(app: Router): void {
  app.openapi(route, async (c) => respond(c, await revokeApiKey(serviceContext(c), c.req.valid("param").id)));
}
