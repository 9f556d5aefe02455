import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import {
  SecretRotation,
  WebhookEndpointIdParams,
  WebhookEndpointWithSecret,
} from "../../lib/schemas/webhooks";
import { rotateWebhookSecret } from "../../services/webhooks/rotate-secret";

const route = operation({
  operationId: "rotateWebhookEndpointSecret",
  method: "post",
  path: "/gallery/webhook-endpoints/{id}/rotate-secret",
  tags: ["Webhook endpoints"],
  summary: "Rotate a webhook endpoint's signing secret",
  description:
    "Mints a new secret, shown once in `secret`. The former secret keeps signing beside it (two `v1,` signatures in `webhook-signature`) for `expire_previous_in_seconds`, 24 hours by default, so receivers can switch without losing deliveries. A secret rotated out earlier and still valid is dropped. Emits `webhook_endpoint.secret_rotated`.",
  auth: { scopes: ["webhooks:update"] },
  idempotent: true,
  pathIds: { id: "we" },
  exampleBody: { expire_previous_in_seconds: 3600 },
  replayOmits: ["secret"],
  request: {
    params: WebhookEndpointIdParams,
    body: { required: false, content: { "application/json": { schema: SecretRotation } } },
  },
  responses: {
    200: {
      description: "The endpoint, with its new secret.",
      content: { "application/json": { schema: WebhookEndpointWithSecret } },
    },
  },
});

export function registerWebhooksRotateSecret(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await rotateWebhookSecret(serviceContext(c), id, c.req.valid("json")));
  });
}
