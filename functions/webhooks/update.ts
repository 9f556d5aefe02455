import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { WebhookEndpoint, WebhookEndpointIdParams, WebhookEndpointUpdate } from "../../lib/schemas/webhooks";
import { updateWebhookEndpoint } from "../../services/webhooks/update";
import { eventReadScopes } from "../events/read-scopes";

const route = operation({
  operationId: "updateWebhookEndpoint",
  method: "patch",
  path: "/gallery/webhook-endpoints/{id}",
  tags: ["Webhook endpoints"],
  summary: "Update a webhook endpoint",
  description:
    "Changes only the fields sent; `event_types` replaces the whole list. Sending `event_types`, `url` or `enabled: true` takes the read scopes of every type the endpoint is subscribed to after the change (`read_scopes` in GET /v1/event-types): else 403 `forbidden` naming the missing scopes. A description, metadata or disabling takes none. `enabled: false` stops new deliveries; `enabled: true` on a disabled endpoint re-enables it and clears `disabled_reason` and `failing_since`. Emits `webhook_endpoint.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["webhooks:update"] },
  idempotent: true,
  pathIds: { id: "we" },
  exampleBody: { description: "Order sync" },
  request: {
    params: WebhookEndpointIdParams,
    body: { required: true, content: { "application/json": { schema: WebhookEndpointUpdate } } },
  },
  responses: {
    200: {
      description: "The updated endpoint.",
      content: { "application/json": { schema: WebhookEndpoint } },
    },
  },
});

export function registerWebhooksUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(
      c,
      await updateWebhookEndpoint(serviceContext(c), id, c.req.valid("json"), eventReadScopes()),
    );
  });
}
