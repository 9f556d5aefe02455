import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { listEvents } from "../../db/queries/events";
import type { Router } from "../../lib/app";
import { operation } from "../../lib/operation";
import { listResponse, pageOf, pageRequest, paginationQuery } from "../../lib/pagination";
import { DomainEvent } from "./schemas";

const ROUTE = "listEvents";

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
    const { limit, cursor, sort, dir, type } = c.req.valid("query");
    const principal = c.get("principal");
    const page = await pageRequest(c.env.SIGNING_SECRET, ROUTE, { limit, cursor, sort, dir }, "created");
    const rows = await listEvents(httpDb(c.env), principal.galleryId, { type }, page);
    const body = await pageOf(
      c.env.SIGNING_SECRET,
      page,
      rows,
      (r) => [r.sort_key, r.id],
      (r) => r.body,
    );
    return c.json(body as z.infer<ReturnType<typeof listResponse<typeof DomainEvent>>>, 200);
  });
}
