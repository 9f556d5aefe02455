import { sql } from "drizzle-orm";
import { httpDb } from "../../db/client";
import { findWebhookEndpoint, testEventStatements } from "../../db/queries/webhooks";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { executeWrite, notFoundUnlessReplay } from "../../lib/http/write";
import { newId } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import { WebhookEndpointIdParams, WebhookTestRequest, WebhookTestResult } from "../../lib/schemas/webhooks";

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
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const principal = c.get("principal");
    const current = await findWebhookEndpoint(httpDb(c.env), principal.galleryId, id);
    if (!current) return notFoundUnlessReplay(c, `No webhook endpoint ${id} in this gallery.`) as never;
    if (!current.enabled) {
      throw new ApiError("conflict", `Webhook endpoint ${id} is disabled; enable it to send a test event.`);
    }
    const ids = { eventId: newId("evt"), deliveryId: newId("wd") };
    return executeWrite(c, {
      statements: testEventStatements(principal, c.get("requestId"), id, ids),
      events: [],
      status: 202,
      body: sql`jsonb_build_object('delivery_id', ${ids.deliveryId}::text, 'event_id', ${ids.eventId}::text)`,
    }) as never;
  });
}
