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

/** A member's feedback on a match; a hide sets hidden_until here and on the match. */
export const matchFeedback = pgTable(
  "match_feedback",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    matchId: text("match_id")
      .notNull()
      .references(() => recommendationMatches.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    /** hide | unhide */
    action: text("action").notNull(),
    hiddenUntil: ts("hidden_until"),
    createdAt: createdAt(),
  },
  (t) => [
    index("match_feedback_match_idx").on(t.matchId, t.createdAt, t.id),
    index("match_feedback_member_idx").on(t.galleryId, t.memberId, t.createdAt, t.id),
  ],
);
