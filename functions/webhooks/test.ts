import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { WebhookEndpointIdParams, WebhookTestRequest, WebhookTestResult } from "../../lib/schemas/webhooks";
import { sendWebhookTest } from "../../services/webhooks/test";

const route = operation({
  operationId: "testWebhookEndpoint",
  method: "post",
  path: "/gallery/webhook-endpoints/{id}/test",
  tags: ["Webhook endpoints"],
  summary: "Send a test event to a webhook endpoint",
  description:
    "Records a `webhook_endpoint.test` event about the endpoint and queues its delivery to this endpoint only, whatever its `event_types`; no other endpoint receives it. Follow it in the endpoint's deliveries; the event is retrievable by id like any other. A disabled endpoint is refused (409): enable it first.",
  auth: { scopes: ["webhooks:create"] },
  idempotent: true,
  pathIds: { id: "we" },
  exampleBody: {},
  request: {
    params: WebhookEndpointIdParams,
    body: { required: false, content: { "application/json": { schema: WebhookTestRequest } } },
  },
  responses: {
    202: {
      description: "The test delivery is queued.",
      content: { "application/json": { schema: WebhookTestResult } },
    },
  },
});

export function registerWebhooksTest(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await sendWebhookTest(serviceContext(c), c.req.valid("param").id)),
  );
}
