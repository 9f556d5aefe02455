import type { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { findWebhookEndpoint } from "../../db/queries/webhooks";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { ApiError } from "../../lib/problem";
import { WebhookEndpoint, WebhookEndpointIdParams } from "../../lib/schemas/webhooks";

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
    const { id } = c.req.valid("param");
    const found = await findWebhookEndpoint(httpDb(c.env), c.get("principal").galleryId, id);
    if (!found) throw new ApiError("not_found", `No webhook endpoint ${id} in this gallery.`);
    return c.json(found.body as z.infer<typeof WebhookEndpoint>, 200);
  });
}
