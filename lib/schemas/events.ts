import { z } from "@hono/zod-openapi";
import { EventTypeSchema } from "../event-types";
import { TimestampOut } from "../time";

export const DomainEvent = z
  .object({
    id: z.string().openapi({ example: "evt_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    type: EventTypeSchema,
    livemode: z.boolean(),
    resource_type: z.string(),
    resource_id: z.string(),
    data: z.record(z.string(), z.unknown()),
    created_at: TimestampOut,
  })
  .openapi("DomainEvent");
