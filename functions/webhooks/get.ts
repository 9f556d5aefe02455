import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { WebhookEndpoint, WebhookEndpointIdParams } from "../../lib/schemas/webhooks";
import { getWebhookEndpoint } from "../../services/webhooks/read";

const route = operation({
  operationId: "getWebhookEndpoint",
  method: "get",
  path: "/gallery/webhook-endpoints/{id}",
  tags: ["Webhook endpoints"],
  summary: "Retrieve a webhook endpoint",
  description: "The endpoint's URL, event types and state; never its secret.",
  auth: { scopes: ["webhooks:read"] },
  pathIds: { id: "we" },
  request: { params: WebhookEndpointIdParams },
  responses: {
    200: { description: "The endpoint.", content: { "application/json": { schema: WebhookEndpoint } } },
  },
});

export function registerWebhooksGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getWebhookEndpoint(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof WebhookEndpoint>, 200>(c, text, 200);
  });
}
