import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";
import { interactionDirections, interactionTypes } from "./contacts";
import { described } from "./describe";

/**
 * Interactions: the CRM timeline of a contact (notes, calls, emails, meetings, visits, …). Each one keeps the
 * contact's `last_interaction_at`/`last_interaction_type` in its own transaction (a trigger), and one about a
 * work also appends an `interaction` entry to that work's activity timeline.
 */

/** How far ahead of the server's clock a caller's `occurred_at` may be (its clock may run fast). */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * When something already happened: a UTC timestamp (the strict rule) no later than now plus the clock skew.
 * Checked when the request is validated, so an idempotent retry of an accepted request stays valid.
 */
export const PastTimestamp = UtcTimestamp.refine((v) => Date.parse(v) <= Date.now() + CLOCK_SKEW_MS, {
  message: "must not be in the future (at most 5 minutes ahead of the server clock)",
});

/** The `occurred_at` a create body may give (an interaction, an engagement event): now when left out. */
export const OccurredAtInput = PastTimestamp.optional().openapi({
  description:
    "When it happened (UTC, ends in Z); now by default. At most 5 minutes ahead of the server clock.",
});

const MAX_METADATA_CHARS = 8192;

/** `map of string to any value` written by a caller: at most 50 keys of 1 to 40 characters, 8192 characters of JSON. */
export const anyMetadata = z
  .record(z.string().min(1).max(40), z.unknown())
  .refine((m) => Object.keys(m).length <= 50, { message: "holds at most 50 keys" })
  .refine((m) => JSON.stringify(m).length <= MAX_METADATA_CHARS, {
    message: `must serialise to at most ${MAX_METADATA_CHARS} characters`,
  })
  .openapi({
    description: "Up to 50 keys (1 to 40 characters each) of any JSON value, 8192 characters of JSON in all.",
  });

/** What each interaction field means, shared by the interaction and its create body. */
const interactionTexts = {
  type: "The kind of contact the gallery had: note, call, email, meeting, visit, message, viewing, event or other. The newest interaction sets the contact's `last_interaction_type`.",
  direction:
    "`inbound` (the contact reached the gallery) or `outbound` (the gallery reached them); null where it has none (a note).",
  summary: "What was said or done, in the words of whoever recorded it.",
} as const;

export const Interaction = z
  .object(
    described(
      {
        id: z.string().openapi({
          example: "int_01jd4xk9v2c7h8m3n5p6q7r8s9",
          description: "The interaction's id (`int_…`): prefixed and time-ordered; unique, never reused.",
        }),
        contact_id: z.string(),
        type: z.enum(interactionTypes),
        direction: z.enum(interactionDirections).nullable(),
        summary: z.string(),
        occurred_at: TimestampOut.openapi({
          description:
            "When it happened (UTC, milliseconds); the newest sets the contact's `last_interaction_at`.",
        }),
        artwork_id: z.string().nullable().openapi({ description: "The work it concerned, if any." }),
        member_id: z.string().nullable().openapi({
          description: "The member who recorded it (a member session); null when an API key recorded it.",
        }),
        metadata: z.record(z.string(), z.unknown()).openapi({
          description:
            "The caller's own JSON values, stored and returned as given; the API never reads them.",
        }),
        created_at: TimestampOut,
      },
      interactionTexts,
    ),
  )
  .openapi("Interaction");

export const InteractionCreate = z
  .strictObject(
    described(
      {
        type: z.enum(interactionTypes).optional().openapi({ default: "note" }),
        direction: z.enum(interactionDirections).nullable().optional().openapi({ default: null }),
        summary: z.string().trim().min(1).max(5000),
        occurred_at: OccurredAtInput,
        artwork_id: idString("art")
          .nullable()
          .optional()
          .openapi({ description: "The work it concerned: an artwork of this gallery." }),
        metadata: anyMetadata.optional(),
      },
      interactionTexts,
    ),
  )
  .openapi("InteractionCreate");

export type InteractionCreateInput = z.infer<typeof InteractionCreate>;
