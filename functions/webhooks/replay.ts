import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { WebhookEndpointIdParams, WebhookReplay, WebhookReplayResult } from "../../lib/schemas/webhooks";
import { replayWebhookDeliveries } from "../../services/webhooks/replay";

const route = operation({
  operationId: "replayWebhookDeliveries",
  method: "post",
  path: "/gallery/webhook-endpoints/{id}/replay",
  tags: ["Webhook endpoints"],
  summary: "Re-send events to a webhook endpoint",
  description:
    "Queues deliveries to be sent now. With `event_id`: that event (any event of the gallery, 404 if there is none), creating its delivery to this endpoint or putting the existing one back to pending. With `failed_since`: every delivery to this endpoint that failed for good and was created at or after that time. Attempt counts are kept. A disabled endpoint is refused (409): enable it first.",
  auth: { scopes: ["webhooks:update"] },
  idempotent: true,
  pathIds: { id: "we" },
  exampleBody: { failed_since: "2024-01-01T00:00:00Z" },
  request: {
    params: WebhookEndpointIdParams,
    body: { required: true, content: { "application/json": { schema: WebhookReplay } } },
  },
  responses: {
    202: {
      description: "The deliveries are queued.",
      content: { "application/json": { schema: WebhookReplayResult } },
    },
  },
});

export function registerWebhooksReplay(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await replayWebhookDeliveries(serviceContext(c), id, c.req.valid("json")));
  });
}
