import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { catalogueTypes, eventCatalogue, eventDataSchema } from "../../lib/event-catalogue";
import { eventTypes } from "../../lib/event-types";
import { addressRateLimitedResponses, problemResponses } from "../../lib/problem";
import { eventReadScopes } from "./read-scopes";

const EventTypeEntry = z
  .object({
    type: z.string().openapi({
      description:
        "The event type (`artwork.created`): an event's `type`, and what a webhook endpoint subscribes to.",
    }),
    description: z.string().openapi({ description: "When the API emits an event of this type." }),
    resource_type: z.string().openapi({
      description:
        "The kind of resource its events are about (`artwork`): their `resource_type`, and what `data.object` holds.",
    }),
    read_scopes: z.array(z.string()).openapi({
      description:
        "The scopes (all required, besides `events:read`) of a credential that sees events of this type in GET /gallery/events, and that a webhook endpoint subscribed to it needs to be created or updated with: those of the operation that reads the event's object.",
      example: ["artworks:read"],
    }),
    data_schema: z
      .record(z.string(), z.unknown())
      .openapi({ description: "JSON Schema of the event's `data`." }),
  })
  .openapi("EventTypeEntry");

let cached: z.infer<typeof EventTypeEntry>[] | undefined;

function entries() {
  cached ??= catalogueTypes.map((type) => ({
    type,
    description: eventTypes[type],
    resource_type: eventCatalogue[type].resourceType,
    read_scopes: [...eventReadScopes()[type]],
    data_schema: z.toJSONSchema(eventDataSchema(type), { unrepresentable: "any" }) as Record<string, unknown>,
  }));
  return cached;
}

/** The event catalogue, public like the error dictionary: it documents the API, it holds no gallery data. */
export function registerEventTypesList(app: Router): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/event-types",
      operationId: "listEventTypes",
      security: [],
      tags: ["Events"],
      summary: "The event catalogue",
      description:
        "Every domain event type the API emits, when it is emitted, the scopes that read it and the JSON Schema of its `data`.",
      responses: {
        ...problemResponses,
        ...addressRateLimitedResponses,
        200: {
          description: "Every event type.",
          content: { "application/json": { schema: z.object({ data: z.array(EventTypeEntry) }) } },
        },
      },
    }),
    (c) => c.json({ data: entries() }, 200),
  );
}
