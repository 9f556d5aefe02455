import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";

/**
 * The complete set of artwork timeline entry kinds (`event_type`), with what each records. The set is closed:
 * every writer of the timeline takes its kind from here.
 */
export const artworkActivityKinds = {
  created: "The work was added to the inventory.",
  moved: "The work's location changed. `metadata.from/to.location_id`.",
  price_changed:
    "The work's price or its currency changed. `metadata.from/to` hold price_cents and currency.",
  consigned: "The work was taken on consignment (ownership_status became consigned).",
  ownership_changed:
    "Any other change of ownership: ownership_status changed other than to consigned, or the work was sold to a contact (`contact_id`).",
  availability_changed: "The work's availability_state changed (available, on hold, reserved, sold, …).",
  published: "The working copy was published as a new version.",
  draft_discarded: "The pending draft was dropped; the working copy is the published state again.",
  interest: "A contact showed interest in the work (recorded by a member, saved, or inquired about).",
  interaction: "An interaction with a contact (a call, a meeting, a message) concerned the work.",
  auction_record_added: "An auction record was added to the work's history (`ref_id` names it).",
  auction_record_removed:
    "An auction record was removed from the work's history (`ref_id` names it; `metadata.record` is its last state).",
} as const;

export type ArtworkActivityType = keyof typeof artworkActivityKinds;

export const artworkActivityTypes = Object.keys(artworkActivityKinds) as [
  ArtworkActivityType,
  ...ArtworkActivityType[],
];

export const ArtworkActivityEvent = z
  .object({
    id: z.string().openapi({
      format: "uuid",
      example: "0b7e8f52-4c1d-4a8e-9f7d-2f1c3b5a6d90",
      description: "The timeline entry's id: a UUID, unlike the prefixed ids of other resources.",
    }),
    artwork_id: z.string(),
    actor_id: z.string().nullable().openapi({
      description:
        "The API key or member session that made the change; null for entries the platform recorded.",
    }),
    contact_id: z
      .string()
      .nullable()
      .openapi({ description: "The contact the entry concerns (`con_…`), if any." }),
    ref_id: z.string().nullable().openapi({
      description:
        "The id of the record behind the entry (an auction record `auc_…`, an interaction, a sale), as that resource's own id; it may name a record removed since.",
    }),
    event_type: z.enum(artworkActivityTypes).openapi({
      description: Object.entries(artworkActivityKinds)
        .map(([kind, what]) => `- \`${kind}\`: ${what}`)
        .join("\n"),
    }),
    ref_table: z
      .string()
      .nullable()
      .openapi({ description: "The kind of record `ref_id` names (`auction_records`, `interactions`, …)." }),
    summary: z.string().openapi({
      description:
        "One sentence for the timeline, written by the API from the change (`Availability changed from available to on hold.`) or given with recorded interest.",
    }),
    metadata: z.record(z.string(), z.unknown()).openapi({
      description:
        "The entry's facts, by `event_type`: `from` and `to` of a move or price change, an auction record's last state (`record`), or what recorded interest was given.",
    }),
    occurred_at: TimestampOut.openapi({
      description:
        "When it happened (UTC): the time of the change, or the earlier time given with recorded interest. The timeline is ordered by it.",
    }),
    created_at: TimestampOut,
  })
  .openapi("ArtworkActivityEvent");

const MAX_METADATA_BYTES = 8192;

/** A member's record of interest in a work. */
export const ArtworkInterestCreate = z
  .strictObject({
    contact_id: idString("con")
      .nullable()
      .optional()
      .openapi({ description: "The interested contact, a contact of this gallery." }),
    summary: z.string().trim().min(1).max(500).optional().openapi({
      description:
        "One sentence for the timeline; by default `Interest from <contact name>` or `Interest recorded`.",
    }),
    metadata: z
      .record(z.string().max(40), z.unknown())
      .refine((m) => Object.keys(m).length <= 50, { message: "holds at most 50 keys" })
      .refine((m) => JSON.stringify(m).length <= MAX_METADATA_BYTES, {
        message: `must serialise to at most ${MAX_METADATA_BYTES} characters`,
      })
      .optional()
      .openapi({
        description: "Up to 50 keys (40 characters each) of any JSON value, 8192 characters of JSON in all.",
      }),
    occurred_at: UtcTimestamp.optional().openapi({
      description:
        "When the interest was shown, if earlier than now; at most 5 minutes ahead of the server clock.",
    }),
  })
  .openapi("ArtworkInterestCreate");

export type ArtworkInterestCreateInput = z.infer<typeof ArtworkInterestCreate>;
