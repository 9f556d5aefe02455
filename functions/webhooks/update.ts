import { sql } from "drizzle-orm";
import { httpDb } from "../../db/client";
import { nextTimestamp } from "../../db/queries/rows";
import { endpointJsonById, findWebhookEndpoint, updateEndpointStatement } from "../../db/queries/webhooks";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { executeWrite, guarded, notFoundUnlessReplay } from "../../lib/http/write";
import { previousAttributes } from "../../lib/json";
import { WebhookEndpoint, WebhookEndpointIdParams, WebhookEndpointUpdate } from "../../lib/schemas/webhooks";
import { requireSafeWebhookUrl } from "./url";

const route = operation({
  operationId: "updateWebhookEndpoint",
  method: "patch",
  path: "/gallery/webhook-endpoints/{id}",
  tags: ["Webhook endpoints"],
  summary: "Update a webhook endpoint",
  description:
    "Changes only the fields sent; `event_types` replaces the whole list. `enabled: false` stops new deliveries; `enabled: true` on a disabled endpoint re-enables it and clears `disabled_reason` and `failing_since`. Emits `webhook_endpoint.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
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
    const input = c.req.valid("json");
    const principal = c.get("principal");
    const current = await findWebhookEndpoint(httpDb(c.env), principal.galleryId, id);
    if (!current) return notFoundUnlessReplay(c, `No webhook endpoint ${id} in this gallery.`) as never;
    const before = current.body;
    const previous = previousAttributes(before, input);
    const reenable = input.enabled === true && !current.enabled;
    if (reenable) {
      for (const field of ["disabled_reason", "failing_since"]) {
        if (before[field] !== null) previous[field] = before[field];
      }
    }
    const object = endpointJsonById(principal.galleryId, id);
    // Nothing changes: no write and no event, but the idempotency claim is still recorded (or replayed).
    if (Object.keys(previous).length === 0) {
      return executeWrite(c, { statements: [], events: [], status: 200, body: object }) as never;
    }
    if ("url" in previous) await requireSafeWebhookUrl(input.url!, { environment: c.env.ENVIRONMENT });
    const at = nextTimestamp(current.updatedAt);
    return executeWrite(c, {
      statements: [
        guarded(updateEndpointStatement(principal.galleryId, id, input, reenable, current.updatedAt, at)),
      ],
      events: [
        {
          type: "webhook_endpoint.updated",
          resourceType: "webhook_endpoint",
          resourceId: id,
          data: sql`jsonb_build_object('object', (${object}), 'previous_attributes', ${JSON.stringify(previous)}::jsonb)`,
        },
      ],
      status: 200,
      body: object,
    }) as never;
  });
}
