import { sql } from "drizzle-orm";
import { httpDb } from "../../db/client";
import { deleteEndpointStatement, findWebhookEndpoint } from "../../db/queries/webhooks";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { executeWrite, guarded, notFoundUnlessReplay } from "../../lib/http/write";
import { DeleteResult } from "../../lib/schemas/artworks";
import { WebhookEndpointIdParams } from "../../lib/schemas/webhooks";

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
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const principal = c.get("principal");
    const current = await findWebhookEndpoint(httpDb(c.env), principal.galleryId, id);
    if (!current) return notFoundUnlessReplay(c, `No webhook endpoint ${id} in this gallery.`) as never;
    return executeWrite(c, {
      statements: [guarded(deleteEndpointStatement(principal.galleryId, id, current.updatedAt))],
      events: [
        {
          type: "webhook_endpoint.deleted",
          resourceType: "webhook_endpoint",
          resourceId: id,
          data: { object: current.body },
        },
      ],
      status: 200,
      body: sql`jsonb_build_object('id', ${id}::text, 'deleted', true)`,
    }) as never;
  });
}
