import { sql } from "drizzle-orm";
import { httpDb } from "../../db/client";
import { nextTimestamp } from "../../db/queries/rows";
import { endpointJsonById, findWebhookEndpoint, rotateSecretStatement } from "../../db/queries/webhooks";
import type { Router } from "../../lib/app";
import { operation } from "../../lib/operation";
import { executeWrite, guarded, notFoundUnlessReplay } from "../../lib/write";
import {
  PREVIOUS_SECRET_SECONDS,
  SecretRotation,
  WebhookEndpointIdParams,
  WebhookEndpointWithSecret,
} from "./schemas";
import { newWebhookSecret, revealSecret } from "./secret";

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
    const input = c.req.valid("json");
    const principal = c.get("principal");
    const current = await findWebhookEndpoint(httpDb(c.env), principal.galleryId, id);
    if (!current) return notFoundUnlessReplay(c, `No webhook endpoint ${id} in this gallery.`) as never;
    const keepSeconds = input.expire_previous_in_seconds ?? PREVIOUS_SECRET_SECONDS;
    const at = nextTimestamp(current.updatedAt);
    const previousExpiresAt =
      keepSeconds > 0 ? new Date(Date.parse(at) + keepSeconds * 1000).toISOString() : null;
    const secret = newWebhookSecret();
    const object = endpointJsonById(principal.galleryId, id);
    const response = await executeWrite(c, {
      statements: [
        guarded(
          rotateSecretStatement(principal.galleryId, id, secret, previousExpiresAt, current.updatedAt, at),
        ),
      ],
      events: [
        {
          type: "webhook_endpoint.secret_rotated",
          resourceType: "webhook_endpoint",
          resourceId: id,
          data: sql`jsonb_build_object('object', (${object}))`,
        },
      ],
      status: 200,
      body: sql`(${object}) || jsonb_build_object('secret', null::text)`,
    });
    return revealSecret(c, response, secret) as never;
  });
}
