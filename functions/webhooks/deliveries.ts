import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { findWebhookEndpoint, listDeliveries } from "../../db/queries/webhooks";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { listPage, listResponse, paginationQuery } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import { deliveryStatuses, WebhookDelivery, WebhookEndpointIdParams } from "../../lib/schemas/webhooks";

const route = operation({
  operationId: "listWebhookDeliveries",
  method: "get",
  path: "/gallery/webhook-endpoints/{id}/deliveries",
  tags: ["Webhook endpoints"],
  summary: "List an endpoint's deliveries",
  description:
    "Newest first: each event queued for the endpoint, its state, the next retry and its last 10 attempts with status codes, latency and the start of each response body.",
  auth: { scopes: ["webhooks:read"] },
  pathIds: { id: "we" },
  request: {
    params: WebhookEndpointIdParams,
    query: z.strictObject({
      ...paginationQuery(["created"] as const, "created"),
      status: z.enum(deliveryStatuses).optional().openapi({ description: "Only deliveries in this state." }),
    }),
  },
  responses: {
    200: {
      description: "A page of deliveries.",
      content: { "application/json": { schema: listResponse(WebhookDelivery, "WebhookDeliveryList") } },
    },
  },
});

export function registerWebhooksDeliveries(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { status, ...query } = c.req.valid("query");
    const principal = c.get("principal");
    const db = httpDb(c.env);
    // Both in parallel: an empty page alone cannot tell a quiet endpoint from a missing one.
    const [endpoint, body] = await Promise.all([
      findWebhookEndpoint(db, principal.galleryId, id),
      listPage(c, { route: route.operationId, defaultSort: "created" }, query, (page) =>
        listDeliveries(db, principal.galleryId, id, { status }, page),
      ),
    ]);
    if (!endpoint) throw new ApiError("not_found", `No webhook endpoint ${id} in this gallery.`);
    return c.json(body as z.infer<ReturnType<typeof listResponse<typeof WebhookDelivery>>>, 200);
  });
}
