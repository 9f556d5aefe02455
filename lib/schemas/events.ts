import { z } from "@hono/zod-openapi";
import { EventTypeSchema } from "../event-types";
import { describeRefFields } from "../openapi-references";
import { TimestampOut } from "../time";

export const DomainEvent = z
  .object({
    id: z.string().openapi({
      example: "evt_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description:
        "The event's id (`evt_…`): also the `webhook-id` of its deliveries, the same on every retry and replay, so a receiver dedupes on it.",
    }),
    type: EventTypeSchema,
    livemode: z.boolean(),
    resource_type: z.string().openapi({
      description:
        "The kind of resource the event is about (`artwork`, `show_tag`), which `data.object` holds; GET /v1/event-types gives it for each type.",
    }),
    resource_id: z.string().openapi({
      description: "The id of that resource (`art_…`); it may name a resource deleted since.",
    }),
    data: z.record(z.string(), z.unknown()).openapi({
      description:
        "What the event carries, by `type` (its JSON Schema is in GET /v1/event-types): `object`, the resource after the change (its last state for a deletion); for an update, `previous_attributes`, the changed fields' former values; for some types, more (`show_id`).",
    }),
    created_at: TimestampOut.openapi({
      description: "When the event was recorded, with the change that caused it (UTC, milliseconds).",
    }),
  })
  .openapi("DomainEvent");

describeRefFields("DomainEvent", {
  type: "What happened, as `<resource>.<change>` (`artwork.created`); GET /v1/event-types lists every type.",
});
