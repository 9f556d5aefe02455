import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { byCreated, listResponse, paginationQuery } from "../../lib/pagination";
import { EVENT_RETENTION_DAYS } from "../../lib/retention";
import { deliveryStatuses, WebhookDelivery, WebhookEndpointIdParams } from "../../lib/schemas/webhooks";
import { listWebhookDeliveries } from "../../services/webhooks/read";

const WebhookDeliveryList = listResponse(WebhookDelivery, "WebhookDeliveryList");

const route = operation({
  operationId: "listWebhookDeliveries",
  method: "get",
  path: "/gallery/webhook-endpoints/{id}/deliveries",
  tags: ["Webhook endpoints"],
  summary: "List an endpoint's deliveries",
  description: `Newest first: each event queued for the endpoint, its state, the next retry and its last 10 attempts with status codes, latency and the start of each response body. A delivery and its attempts are kept as long as their event: ${EVENT_RETENTION_DAYS} days after the event was recorded (a delivery still pending, until it settles), then they are purged with it.`,
  auth: { scopes: ["webhooks:read"] },
  pathIds: { id: "we" },
  list: byCreated,
  request: {
    params: WebhookEndpointIdParams,
    query: z.strictObject({
      ...paginationQuery(byCreated),
      status: z.enum(deliveryStatuses).optional().openapi({ description: "Only deliveries in this state." }),
    }),
  },
  responses: {
    200: {
      description: "A page of deliveries.",
      content: { "application/json": { schema: WebhookDeliveryList } },
    },
  },
});

export function registerWebhooksDeliveries(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { status, ...query } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof WebhookDeliveryList>>(c, route, query, (page) =>
      listWebhookDeliveries(ctx, id, { status }, page),
    );
  });
}
