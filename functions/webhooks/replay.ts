import { httpDb } from "../../db/client";
import { nextTimestamp } from "../../db/queries/rows";
import {
  eventExists,
  findWebhookEndpoint,
  requeuedBody,
  requeueEventStatement,
  requeueFailedStatement,
} from "../../db/queries/webhooks";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { executeWrite, notFoundUnlessReplay } from "../../lib/http/write";
import { ApiError } from "../../lib/problem";
import { WebhookEndpointIdParams, WebhookReplay, WebhookReplayResult } from "../../lib/schemas/webhooks";

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
    const input = c.req.valid("json");
    const principal = c.get("principal");
    const db = httpDb(c.env);
    const [current, eventFound] = await Promise.all([
      findWebhookEndpoint(db, principal.galleryId, id),
      input.event_id ? eventExists(db, principal.galleryId, input.event_id) : true,
    ]);
    if (!current) return notFoundUnlessReplay(c, `No webhook endpoint ${id} in this gallery.`) as never;
    if (!eventFound) throw new ApiError("not_found", `No event ${input.event_id} in this gallery.`);
    if (!current.enabled) {
      throw new ApiError("conflict", `Webhook endpoint ${id} is disabled; enable it before replaying.`);
    }
    const at = nextTimestamp();
    const requeue = input.event_id
      ? requeueEventStatement(principal.galleryId, id, input.event_id, at)
      : requeueFailedStatement(principal.galleryId, id, input.failed_since!, at);
    return executeWrite(c, { statements: [requeue], events: [], status: 202, body: requeuedBody }) as never;
  });
}
