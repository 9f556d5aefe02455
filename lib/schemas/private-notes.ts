import { z } from "@hono/zod-openapi";
import { TimestampOut } from "../time";

/**
 * A contact's private notes: confidential, for the gallery's editors. A viewer (a member with the viewer role,
 * or a read-only key) reads an empty set.
 */

const idText = "The private note's id (`note_…`): prefixed and time-ordered; unique, never reused.";
const authorText = "The member who wrote it; null when written with an API key.";

export const PrivateNote = z
  .object({
    id: z.string().openapi({ example: "note_01jd4xk9v2c7h8m3n5p6q7r8s9", description: idText }),
    contact_id: z.string(),
    body: z.string().openapi({ description: "The confidential text, as written; only editors read it." }),
    author_id: z.string().nullable().openapi({ description: authorText }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("PrivateNote");

/**
 * What `private_note.created` carries: the note without its body. Events are readable by any key with
 * `events:read` and are delivered to webhooks, so the confidential text stays behind the editor-only read.
 */
export const PrivateNoteReference = z
  .object({
    id: z.string().openapi({ description: idText }),
    contact_id: z.string(),
    author_id: z.string().nullable().openapi({ description: authorText }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("PrivateNoteReference");

export const PrivateNoteCreate = z
  .strictObject({
    body: z
      .string()
      .min(1)
      .max(20_000)
      .refine((v) => v.trim().length > 0, { message: "must not be blank" })
      .openapi({ description: "1 to 20,000 characters, kept as written." }),
  })
  .openapi("PrivateNoteCreate");
export type PrivateNoteCreateInput = z.infer<typeof PrivateNoteCreate>;
