import { z } from "@hono/zod-openapi";
import { MAX_ATTEMPTS, SUBJECT_KINDS } from "../engine-queue";
import { TimestampOut } from "../time";

/**
 * The operator's reads of the engine loop (docs/decisions.md, "The engine loop survives its failures"): the
 * subjects whose judging failed, and the messages that reached a dead-letter queue.
 */

export const EngineFailure = z
  .object({
    object: z.literal("engine_failure").describe("What this object is: always `engine_failure`."),
    id: z.string().openapi({
      description: "The subject as `<kind>:<subject_id>`.",
      example: "artwork:art_01JD0000000000000000000000",
    }),
    kind: z.enum(SUBJECT_KINDS).openapi({
      description:
        "What is judged: `artwork` (readiness, disclosure), `inbox_thread` (triage), `contact` (its rubric verdicts), `contact_list` (its rubric over every contact), `show` (suggested tags).",
    }),
    subject_id: z.string().openapi({ description: "The artwork, thread, contact, list or show id." }),
    attempts: z
      .number()
      .int()
      .min(0)
      .openapi({
        description: `Attempts since the subject was last judged or a write last changed its input (that write starts them over). At ${MAX_ATTEMPTS} the sweep stops sending it.`,
      }),
    last_error: z
      .string()
      .openapi({ description: "The error of the last failed attempt (its message, no stack)." }),
    failed_at: TimestampOut.openapi({ description: "When the last attempt failed." }),
    stale_since: TimestampOut.nullable().openapi({
      description: "Since when the judged values have waited for the engine.",
    }),
    given_up: z.boolean().openapi({
      description: `true once attempts reached ${MAX_ATTEMPTS}: the sweep sends it no more until a write changes its input.`,
    }),
  })
  .openapi("EngineFailure");

export const DEAD_LETTER_QUEUES = ["gallery-engine-dlq", "gallery-webhooks-dlq"] as const;

export const DeadLetter = z
  .object({
    object: z.literal("dead_letter").describe("What this object is: always `dead_letter`."),
    id: z.string().openapi({ description: "The Queue's message id." }),
    queue: z.enum(DEAD_LETTER_QUEUES).openapi({ description: "The dead-letter queue it reached." }),
    body: z.record(z.string(), z.unknown()).openapi({
      description:
        "The message as sent: an engine subject (`gallery_id`, `kind`, `subject_id`) or a webhook ticket (`gallery_id`, `endpoint_id`, `token`).",
    }),
    attempts: z.number().int().min(0).openapi({
      description: "Delivery attempts the Queue made before it dead-lettered the message.",
    }),
    first_seen_at: TimestampOut.openapi({
      description: "When it first reached the dead-letter queue's consumer.",
    }),
    last_seen_at: TimestampOut.openapi({ description: "When it last did (a redelivery is recorded once)." }),
  })
  .openapi("DeadLetter");
