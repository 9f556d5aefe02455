import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut } from "../time";
import { engagementKinds } from "./contacts";
import { anyMetadata, OccurredAtInput } from "./interactions";

/**
 * Engagement events: behavioural signals of a contact (a room opened, a work viewed, an email opened, …) of the
 * seventeen kinds the contact filter `engaged_event` names. They are appended, never edited; a trigger keeps the
 * newest of each kind per contact (`engaged_event` + `engaged_since`) and the contact's `last_engaged_at`.
 */

/** What an engagement event's kind means, in the event and its create body. */
const kindText =
  "What the contact did: started a session, opened a viewing room, viewed an artwork or a document, opened an email, clicked a link, submitted an inquiry, unsubscribed, added or removed a favourite, joined a waitlist or was notified from one, started a checkout, completed a purchase, entered a drop, was allocated or claimed a work in it. The contact filter `engaged_event` matches it.";

export const EngagementEvent = z
  .object({
    id: z.string().openapi({
      example: "eng_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The engagement event's id (`eng_…`): prefixed and time-ordered; unique, never reused.",
    }),
    contact_id: z.string(),
    kind: z.enum(engagementKinds).openapi({ description: kindText }),
    occurred_at: TimestampOut.openapi({
      description: "When it happened (UTC, milliseconds); the newest sets the contact's `last_engaged_at`.",
    }),
    artwork_id: z.string().nullable(),
    viewing_room_id: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).openapi({
      description:
        "The caller's own JSON values, stored and returned as given; a visitor's engagement posted to a public viewing room carries `source: public_viewing_room`.",
    }),
    created_at: TimestampOut,
  })
  .openapi("EngagementEvent");

export const EngagementEventCreate = z
  .strictObject({
    kind: z.enum(engagementKinds).openapi({ description: kindText }),
    occurred_at: OccurredAtInput,
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
