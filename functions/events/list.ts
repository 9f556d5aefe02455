import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { listEvents } from "../../db/queries/events";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { listPage, listResponse, paginationQuery } from "../../lib/pagination";
import { DomainEvent } from "../../lib/schemas/events";

const route = operation({
  operationId: "listEvents",
  method: "get",
  path: "/gallery/events",
  tags: ["Events"],
  summary: "List domain events",
  description:
    "Newest first; the poll and replay backstop for webhooks. Every delivered event is retrievable here.",
  auth: { scopes: ["events:read"] },
  request: {
    query: z.strictObject({
      ...paginationQuery(["created"] as const, "created"),
      type: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .openapi({ description: "Exact event type, e.g. artwork.created.", example: "artwork.created" }),
    }),
  },
  responses: {
    200: {
      description: "A page of events.",
      content: { "application/json": { schema: listResponse(DomainEvent, "DomainEventList") } },
    },
  },
});

export function registerEventsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { type, ...query } = c.req.valid("query");
    const principal = c.get("principal");
    const body = await listPage(c, { route: route.operationId, defaultSort: "created" }, query, (page) =>
      listEvents(httpDb(c.env), principal.galleryId, { type }, page),
    );
    return c.json(body as z.infer<ReturnType<typeof listResponse<typeof DomainEvent>>>, 200);
  });
}
