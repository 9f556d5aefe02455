import { sql } from "drizzle-orm";
import { doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { artworks } from "./artworks";
import { createdAt, galleryId, ts, updatedAt } from "./columns";
import { contacts } from "./contacts";
import { members } from "./galleries";

/** One piece of evidence behind a match, in the wire shape of `reasons[]`. */
export interface MatchReason {
  question: string;
  kind: string;
  evidence_id: string | null;
  label: string;
  source_label: string | null;
  at: string | null;
}

/**
 * The engine's judgment of an artwork for a contact, one row per (artwork, contact, model). `reasons` holds
 * the strongest evidence, strongest first (the full set is in match_evidence). `hidden_until`/`hidden_by`
 * mirror the latest hide in match_feedback so lists can omit hidden pairs without a join.
 */
export const recommendationMatches = pgTable(
  "recommendation_matches",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    model: text("model").notNull(),
    counterpartName: text("counterpart_name"),
    probability: doublePrecision("probability").notNull(),
    subScores: jsonb("sub_scores").$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    reasons: jsonb("reasons").$type<MatchReason[]>().notNull().default(sql`'[]'::jsonb`),
    evidenceCount: integer("evidence_count").notNull().default(0),
    status: text("status").notNull().default("active"),
    hiddenUntil: ts("hidden_until"),
    hiddenBy: text("hidden_by").references(() => members.id, { onDelete: "set null" }),
    judgedAt: ts("judged_at").notNull(),
    /** Hash of the model and inputs the pair was last judged from: the same inputs twice write nothing. */
    inputHash: text("input_hash"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("recommendation_matches_pair_key").on(t.galleryId, t.artworkId, t.contactId, t.model),
    // Works for a contact, best first (keyset on probability, id).
    index("recommendation_matches_contact_idx").on(t.galleryId, t.contactId, t.probability, t.id),
    // Contacts for a work, best first: recommended recipients of an offer's works.
    index("recommendation_matches_artwork_idx").on(t.galleryId, t.artworkId, t.probability, t.id),
  ],
);

export const matchEvidence = pgTable(
  "match_evidence",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    matchId: text("match_id")
      .notNull()
      .references(() => recommendationMatches.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    kind: text("kind").notNull(),
    label: text("label").notNull(),
    sourceLabel: text("source_label"),
    at: ts("at"),
    /** The underlying record the evidence came from (a memory fact, interaction, sale, …). */
    evidenceRef: text("evidence_ref"),
    createdAt: createdAt(),
  },
  (t) => [index("match_evidence_match_idx").on(t.matchId, t.question, t.id)],
);

/**
 * A member's feedback on a pair (lib/engine/types.ts MATCH_FEEDBACK_ACTIONS): hide (until `hidden_until`),
 * unhide, not_interested (the pair is dismissed and never raised again), good_match. Kept by pair (contact,
 * artwork), not only by match row, so a label outlives the row: the matcher fits its model on these and on the
 * gallery's sales and inquiries.
 */
export const matchFeedback = pgTable(
  "match_feedback",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    matchId: text("match_id").references(() => recommendationMatches.id, { onDelete: "set null" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    memberId: text("member_id").references(() => members.id, { onDelete: "set null" }),
    /** hide | unhide | not_interested | good_match */
    action: text("action").notNull(),
    hiddenUntil: ts("hidden_until"),
    createdAt: createdAt(),
  },
  (t) => [
    index("match_feedback_match_idx").on(t.matchId, t.createdAt, t.id),
    index("match_feedback_member_idx").on(t.galleryId, t.memberId, t.createdAt, t.id),
    // The matcher's labels: a contact's feedback, and the gallery's newest first for fitting.
    index("match_feedback_contact_idx").on(t.galleryId, t.contactId, t.createdAt, t.id),
    index("match_feedback_gallery_idx").on(t.galleryId, t.createdAt, t.id),
    // A deleted contact or work takes its feedback by these (the cascade never scans the table).
    index("match_feedback_contact_id_fk_idx").on(t.contactId),
    index("match_feedback_artwork_id_fk_idx").on(t.artworkId),
  ],
);

/**
 * The gallery's fitted match model (lib/engine/types.ts MatchModel): a logistic model over the sub-scores,
 * fitted on the gallery's outcomes with the prior as its regulariser. No row: the prior alone.
 */
export const matchModels = pgTable("match_models", {
  galleryId: galleryId().primaryKey(),
  model: text("model").notNull(),
  bias: doublePrecision("bias").notNull(),
  weights: jsonb("weights").$type<Record<string, number>>().notNull(),
  examples: integer("examples").notNull().default(0),
  positives: integer("positives").notNull().default(0),
  /** Which artists the gallery's collectors buy together (lib/engine/types.ts MatchArtistAffinity); null: none. */
  affinity: jsonb("affinity").$type<unknown>(),
  /** The reliability table of the fit on its own examples: [{bin, predicted, observed, n}]. */
  calibration: jsonb("calibration").$type<unknown>().notNull().default(sql`'[]'::jsonb`),
  fittedAt: ts("fitted_at").notNull(),
});
