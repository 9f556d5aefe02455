import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { WebhookEndpointCreate, WebhookEndpointWithSecret } from "../../lib/schemas/webhooks";
import { createWebhookEndpoint } from "../../services/webhooks/create";
import { eventReadScopes } from "../events/read-scopes";

const route = operation({
  operationId: "createWebhookEndpoint",
  method: "post",
  path: "/gallery/webhook-endpoints",
  tags: ["Webhook endpoints"],
  summary: "Create a webhook endpoint",
  description:
    "Subscribes a URL to event types. The response carries the signing secret in `secret`, once. Subscribing to a type takes its read scopes (`read_scopes` in GET /v1/event-types; a wildcard takes those of every type it covers): without them, 403 `forbidden` naming the missing scopes. Every event recorded from then on whose type matches is delivered to the endpoint while it is enabled, signed per Standard Webhooks. Emits `webhook_endpoint.created`.",
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
  app.openapi(route, async (c) =>
    respond(c, await createWebhookEndpoint(serviceContext(c), c.req.valid("json"), eventReadScopes())),
  );
}
