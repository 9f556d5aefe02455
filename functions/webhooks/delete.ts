import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { WebhookEndpointIdParams } from "../../lib/schemas/webhooks";
import { deleteWebhookEndpoint } from "../../services/webhooks/delete";

const route = operation({
  operationId: "deleteWebhookEndpoint",
  method: "delete",
  path: "/gallery/webhook-endpoints/{id}",
  tags: ["Webhook endpoints"],
  summary: "Delete a webhook endpoint",
  description:
    "Deletes the endpoint with its deliveries and their attempts; nothing more is sent to it, including deliveries still pending. Emits `webhook_endpoint.deleted` whose `data.object` is the endpoint's last state.",
  auth: { scopes: ["webhooks:delete"] },
  idempotent: true,
  pathIds: { id: "we" },
  request: { params: WebhookEndpointIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerWebhooksDelete(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await deleteWebhookEndpoint(serviceContext(c), c.req.valid("param").id)),
  );
}
