import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { byCreated, listResponse, paginationQuery } from "../../lib/pagination";
import { EVENT_RETENTION_DAYS } from "../../lib/retention";
import { DomainEvent } from "../../lib/schemas/events";
import { listEvents } from "../../services/events/read";
import { eventReadScopes } from "./read-scopes";

const DomainEventList = listResponse(DomainEvent, "DomainEventList");

const route = operation({
  operationId: "listEvents",
  method: "get",
  path: "/gallery/events",
  tags: ["Events"],
  summary: "List domain events",
  description: `Newest first; the poll and replay backstop for webhooks. Every delivered event is retrievable here for the ${EVENT_RETENTION_DAYS} days it is kept: events are kept ${EVENT_RETENTION_DAYS} days after they were recorded (one with a webhook delivery still pending, until that delivery settles), then purged with their webhook deliveries and those deliveries' attempts. Only events the caller could read the object of are shown: each type's \`read_scopes\` (GET /v1/event-types) besides \`events:read\`. Gated values (format prices, publication prices) are shown as the resource's own read shows them, in \`data.object\` and in \`data.previous_attributes\`. Events of other types are left out of the stream (the pages are full pages of the events the caller may read); \`type\` naming one of them answers an empty page.`,
  auth: { scopes: ["events:read"] },
  gatedPrices: ["data.object.formats[].price_cents", "data.object.price.price_cents"],
  list: byCreated,
  request: {
    query: z.strictObject({
      ...paginationQuery(byCreated),
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
      content: { "application/json": { schema: DomainEventList } },
    },
  },
});

export function registerEventsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { type, ...query } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof DomainEventList>>(c, route, query, (page) =>
      listEvents(ctx, { type }, page, eventReadScopes()),
    );
  });
}
