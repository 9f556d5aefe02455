import { z } from "@hono/zod-openapi";
import { MATCH_FEEDBACK_ACTIONS, MATCH_QUESTIONS } from "../engine/types";
import { TimestampOut, UtcTimestamp } from "../time";
import { RECOMMENDATION_FLOOR } from "./offers";

/**
 * Recommendation matches: the engine's judgment of an artwork for a contact (design §8; docs/decisions.md
 * "The matcher"). The engine writes them; members read them and give feedback.
 */

/**
 * A pair's status. `active`: the work is available and the pair is current. `inactive`: the work was sold,
 * reserved, unpublished or archived, or the contact archived (kept for its history, never listed).
 * `dismissed`: a member marked it not interested (listed only with `include_hidden=true`; never raised again).
 */
export const matchStatuses = ["active", "inactive", "dismissed"] as const;
export type MatchStatus = (typeof matchStatuses)[number];

export { RECOMMENDATION_FLOOR };

/** How long a hide lasts when the feedback names no `hidden_until`. */
export const DEFAULT_HIDE_DAYS = 30;
/** The furthest a hide may reach. */
export const MAX_HIDE_DAYS = 366;

export const MatchReason = z
  .object({
    question: z.enum(MATCH_QUESTIONS).openapi({ description: "The sub-score this evidence fed." }),
    kind: z.string().openapi({
      description:
        "What the evidence is: purchase (a sale), interaction, engagement (an engagement event), memory_fact (a profile fact or private note), feedback (a member's), work_fact (a fact of the work itself).",
      example: "purchase",
    }),
    evidence_id: z.string().nullable().openapi({
      description:
        "The id of the row it came from (sale, interaction, engagement event, private note, contact, match feedback); null for a fact of the work.",
    }),
    label: z.string().openapi({
      example: "Bought an oil painting by Ines Marchetti (2024)",
      description: "The evidence as a member reads it.",
    }),
    source_label: z.string().nullable().openapi({
      example: "Sale",
      description:
        "Where the evidence comes from, as a member reads it (`Sale`, `Contact profile`, `Wishlist`, `Private note`, `Feedback`, `Artwork`); null when unnamed.",
    }),
    at: TimestampOut.nullable().openapi({
      description:
        "When the evidence arose (the sale, the interaction, the engagement, the feedback; UTC, milliseconds); null for an undated fact, such as one of the contact's profile.",
    }),
  })
  .openapi("MatchReason");

export const Match = z
  .object({
    id: z.string().openapi({
      example: "match_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The match's id (`match_…`): prefixed and time-ordered; unique, never reused.",
    }),
    artwork_id: z.string(),
    contact_id: z.string(),
    model: z
      .string()
      .openapi({ description: "The judge that produced it, name@version.", example: "matcher@1" }),
    counterpart_name: z.string().nullable().openapi({
      description: "The matched work as a member reads it: its title and artist.",
    }),
    probability: z.number().min(0).max(1).openapi({
      description:
        "The calibrated chance the contact wants the work (buys, asks, or a member calls it a good match): of pairs judged 0.6, about six in ten.",
    }),
    sub_scores: z.record(z.string(), z.number()).openapi({
      description:
        "Each question's sub-score, 0 to 1: medium, artist, price, size, period, engagement, recency.",
    }),
    reasons: z.array(MatchReason).openapi({ description: "The strongest evidence, strongest first." }),
    evidence_count: z
      .number()
      .int()
      .openapi({ description: "How many pieces of evidence the match rests on." }),
    status: z.enum(matchStatuses).openapi({
      description:
        "`active`: the work is available and the pair current. `inactive`: the work was sold, reserved, unpublished or archived, or the contact archived (kept for its history, never listed). `dismissed`: a member marked it not interested (listed only with `include_hidden=true`).",
    }),
    hidden_until: TimestampOut.nullable().openapi({
      description: "Until when a member hid the pair; null when not hidden. A past time means it is back.",
    }),
    judged_at: TimestampOut.openapi({
      description: "When the engine last judged the pair (UTC, milliseconds).",
    }),
  })
  .openapi("Match");
export type MatchBody = z.infer<typeof Match>;

export const MatchList = z
  .object({ data: z.array(Match), next_cursor: z.string().nullable() })
  .openapi("MatchList");

/** One piece of evidence in the one-match read: every piece, with the sub-score of its question. */
export const MatchEvidence = MatchReason.extend({
  sub_score: z.number().openapi({ description: "The sub-score of the question this evidence fed." }),
}).openapi("MatchEvidence");

/** What a recorded feedback's fields mean, in the match's read and in `match.feedback_recorded`. */
const feedbackTexts = {
  id: "The feedback's id (`mfb_…`): prefixed and time-ordered; unique, never reused.",
  action:
    "What the member said: `hide` (omit the pair until hidden_until), `unhide` (show it again, undoing not_interested), `not_interested` (dismiss the pair for good) or `good_match` (confirm it). The matcher learns from each.",
  hidden_until: "For a hide: until when the pair is hidden (UTC, milliseconds); null for the other actions.",
  member_id: "The member who gave it; null when given with an API key.",
} as const;

export const MatchFeedbackRecord = z
  .object({
    id: z.string().openapi({ description: feedbackTexts.id }),
    action: z.enum(MATCH_FEEDBACK_ACTIONS).openapi({ description: feedbackTexts.action }),
    hidden_until: TimestampOut.nullable().openapi({ description: feedbackTexts.hidden_until }),
    member_id: z.string().nullable().openapi({ description: feedbackTexts.member_id }),
    created_at: TimestampOut,
  })
  .openapi("MatchFeedbackRecord");

/** GET /gallery/contacts/{id}/matches/{matchId}: the match, every piece of evidence, and its feedback. */
export const MatchDetail = z
  .object({
    match: Match.openapi({
      description: "The match itself, with the fields the contact's match list gives it.",
    }),
    evidence: z.array(MatchEvidence).openapi({
      description: "Every piece of evidence behind the probability, by question, strongest first.",
    }),
    feedback: z
      .array(MatchFeedbackRecord)
      .openapi({ description: "Members' feedback on the pair, newest first." }),
  })
  .openapi("MatchDetail");

export const MatchFeedbackRequest = z
  .object({
    action: z.enum(MATCH_FEEDBACK_ACTIONS).openapi({
      description:
        "hide: omit the pair until hidden_until (default 30 days); unhide: show it again (and undo not_interested); not_interested: dismiss the pair for good; good_match: a member confirms it. Every action is a label the matcher learns from.",
    }),
    hidden_until: UtcTimestamp.optional().openapi({
      description: "For hide only: a future time, at most 366 days ahead.",
    }),
  })
  .strict()
  .openapi("MatchFeedbackRequest");

/** The extra `data` of `match.feedback_recorded`. */
export const matchFeedbackEventData = {
  feedback: z
    .object({
      id: z.string().openapi({ description: feedbackTexts.id }),
      action: z.enum(MATCH_FEEDBACK_ACTIONS).openapi({ description: feedbackTexts.action }),
      hidden_until: TimestampOut.nullable().openapi({ description: feedbackTexts.hidden_until }),
      member_id: z.string().nullable().openapi({ description: feedbackTexts.member_id }),
    })
    .openapi({ description: "The feedback recorded." }),
};
