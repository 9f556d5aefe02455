import { sql } from "drizzle-orm";
import { nextTimestamp } from "../../db/queries/rows";
import { createEndpointStatement, endpointJsonById } from "../../db/queries/webhooks";
import type { Router } from "../../lib/app";
import { newId } from "../../lib/ids";
import { operation } from "../../lib/operation";
import { executeWrite } from "../../lib/write";
import { WebhookEndpointCreate, WebhookEndpointWithSecret } from "./schemas";
import { newWebhookSecret, revealSecret } from "./secret";
import { requireSafeWebhookUrl } from "./url";

const route = operation({
  operationId: "createWebhookEndpoint",
  method: "post",
  path: "/gallery/webhook-endpoints",
  tags: ["Webhook endpoints"],
  summary: "Create a webhook endpoint",
  description:
    "Subscribes a URL to event types. The response carries the signing secret in `secret`, once. Every event recorded from then on whose type matches is delivered to the endpoint while it is enabled, signed per Standard Webhooks. Emits `webhook_endpoint.created`.",
  auth: { scopes: ["webhooks:create"] },
  idempotent: true,
  exampleBody: { url: "https://example.com/webhooks", event_types: ["artwork.*"] },
  replayOmits: ["secret"],
  request: {
    body: { required: true, content: { "application/json": { schema: WebhookEndpointCreate } } },
  },
  responses: {
    201: {
      description: "The created endpoint, with its secret.",
      content: { "application/json": { schema: WebhookEndpointWithSecret } },
    },
  },
});

export function registerWebhooksCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const principal = c.get("principal");
    await requireSafeWebhookUrl(input.url, { environment: c.env.ENVIRONMENT });
    const id = newId("we");
    const secret = newWebhookSecret();
    const object = endpointJsonById(principal.galleryId, id);
    const response = await executeWrite(c, {
      statements: [createEndpointStatement(principal.galleryId, { ...input, id, secret }, nextTimestamp())],
      events: [
        {
          type: "webhook_endpoint.created",
          resourceType: "webhook_endpoint",
          resourceId: id,
          data: sql`jsonb_build_object('object', (${object}))`,
        },
      ],
      status: 201,
      body: sql`(${object}) || jsonb_build_object('secret', null::text)`,
    });
    return revealSecret(c, response, secret) as never;
  });
}
