import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut } from "../time";
import { engagementKinds } from "./contacts";
import { anyMetadata, PastTimestamp } from "./interactions";

/**
 * Engagement events: behavioural signals of a contact (a room opened, a work viewed, an email opened, …) of the
 * seventeen kinds the contact filter `engaged_event` names. They are appended, never edited; a trigger keeps the
 * newest of each kind per contact (`engaged_event` + `engaged_since`) and the contact's `last_engaged_at`.
 */

export const EngagementEvent = z
  .object({
    id: z.string().openapi({ example: "eng_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    contact_id: z.string(),
    kind: z.enum(engagementKinds),
    occurred_at: TimestampOut,
    artwork_id: z.string().nullable(),
    viewing_room_id: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    created_at: TimestampOut,
  })
  .openapi("EngagementEvent");

export const EngagementEventCreate = z
  .strictObject({
    kind: z.enum(engagementKinds),
    occurred_at: PastTimestamp.optional().openapi({
      description:
        "When it happened (UTC, ends in Z); now by default. At most 5 minutes ahead of the server clock.",
    }),
    artwork_id: idString("art")
      .nullable()
      .optional()
      .openapi({ description: "The work engaged with: an artwork of this gallery." }),
    viewing_room_id: idString("room")
      .nullable()
      .optional()
      .openapi({ description: "The viewing room it happened in: a room of this gallery." }),
    metadata: anyMetadata.optional(),
  })
  .openapi("EngagementEventCreate");

export type EngagementEventCreateInput = z.infer<typeof EngagementEventCreate>;
