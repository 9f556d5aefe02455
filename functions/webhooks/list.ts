import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { byCreated, listResponse, paginationQuery } from "../../lib/pagination";
import { WebhookEndpoint } from "../../lib/schemas/webhooks";
import { listWebhookEndpoints } from "../../services/webhooks/read";

const WebhookEndpointList = listResponse(WebhookEndpoint, "WebhookEndpointList");

const route = operation({
  operationId: "listWebhookEndpoints",
  method: "get",
  path: "/gallery/webhook-endpoints",
  tags: ["Webhook endpoints"],
  summary: "List webhook endpoints",
  description: "The gallery's endpoints, disabled ones included, newest first. Secrets are never returned.",
  auth: { scopes: ["webhooks:read"] },
  list: byCreated,
  request: { query: z.strictObject(paginationQuery(byCreated)) },
  responses: {
    200: {
      description: "A page of endpoints.",
      content: { "application/json": { schema: WebhookEndpointList } },
    },
  },
});

export function registerWebhooksList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof WebhookEndpointList>>(c, route, c.req.valid("query"), (page) =>
      listWebhookEndpoints(ctx, page),
    );
  });
}
