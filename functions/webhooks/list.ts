import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { listWebhookEndpoints } from "../../db/queries/webhooks";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { listPage, listResponse, paginationQuery } from "../../lib/pagination";
import { WebhookEndpoint } from "../../lib/schemas/webhooks";

const route = operation({
  operationId: "listWebhookEndpoints",
  method: "get",
  path: "/gallery/webhook-endpoints",
  tags: ["Webhook endpoints"],
  summary: "List webhook endpoints",
  description: "The gallery's endpoints, disabled ones included, newest first. Secrets are never returned.",
  auth: { scopes: ["webhooks:read"] },
  request: { query: z.strictObject(paginationQuery(["created"] as const, "created")) },
  responses: {
    200: {
      description: "A page of endpoints.",
      content: { "application/json": { schema: listResponse(WebhookEndpoint, "WebhookEndpointList") } },
    },
  },
});

export function registerWebhooksList(app: Router): void {
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    const body = await listPage(
      c,
      { route: route.operationId, defaultSort: "created" },
      c.req.valid("query"),
      (page) => listWebhookEndpoints(httpDb(c.env), principal.galleryId, page),
    );
    return c.json(body as z.infer<ReturnType<typeof listResponse<typeof WebhookEndpoint>>>, 200);
  });
}
