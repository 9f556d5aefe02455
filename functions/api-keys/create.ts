import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ApiKeyCreate, CreatedApiKey } from "../../lib/schemas/api-keys";
import { createApiKey } from "../../services/api-keys/create";

const route = operation({
  operationId: "createApiKey",
  method: "post",
  path: "/gallery/api-keys",
  tags: ["API keys"],
  summary: "Create an API key",
  description:
    "Mints a secret key (`gpk_…`) or a publishable token (`gpub_…`). The response carries the key in `secret`, once; only its SHA-256 is stored. A credential cannot grant scopes it does not hold (403, `details.ungrantable_scopes`). Emits `api_key.created`.",
  auth: { scopes: ["api_keys:create"] },
  idempotent: true,
  exampleBody: { name: "Website sync", scopes: ["artworks:read"] },
  replayOmits: ["secret"],
  request: {
    body: { required: true, content: { "application/json": { schema: ApiKeyCreate } } },
  },
  responses: {
    201: {
      description: "The created key, with its secret.",
      content: { "application/json": { schema: CreatedApiKey } },
    },
  },
});

export function registerApiKeysCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createApiKey(serviceContext(c), c.req.valid("json"))));
}
