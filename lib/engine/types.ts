/**
 * The engine's judges: pure, deterministic functions from a subject's inputs to a judgment with its evidence.
 * They never touch the database or the network; the engine Worker (functions/engine/) loads the inputs, calls
 * them and stores what they return (db/schema/engine.ts). The value sets are design §3's, exactly.
 */

import type { CalibrationMap } from "./calibration";

/** `name@version` of the judge that produced a value: stored with every judgment as `model`. */
export type ModelName = `${string}@${string}`;

/** A piece of text that decided (or was weighed in) a judgment, with its character offsets in the input. */
export interface PhraseEvidence {
  /** Which input text the offsets index: "condition_notes", "message", "described_as", "note", … */
  source: string;
  /** The exact phrase, `input.slice(start, end)`. */
  phrase: string;
  start: number;
  end: number;
  /** What the phrase did, in plain words: "describes a loss", "negates foxing", "hedged retouching counts". */
  effect: string;
  /** True when it pushed the judgment towards its value; false when it was weighed and set aside. */
  decisive: boolean;
}

/** A record that decided a judgment: a sale, an interaction, a message, an artwork field. */
export interface RecordEvidence {
  kind: string;
  id: string | null;
  label: string;
  at: string | null;
}

// ---------------------------------------------------------------------------------------------------------
// Disclosure (condition notes)

export interface DisclosureJudgment {
  model: ModelName;
  /** True when the notes describe, about the work itself, something a buyer must be told (design §3). */
  disclosure: boolean;
  probability: number;
  evidence: PhraseEvidence[];
}

// ---------------------------------------------------------------------------------------------------------
// Readiness (an artwork for sale or publication)

export const READINESS_VALUES = ["ready", "thin", "empty"] as const;
export type Readiness = (typeof READINESS_VALUES)[number];

export interface ReadinessInput {
  title: string | null;
  artistId: string | null;
  artistName: string | null;
  medium: string | null;
  year: number | null;
  dateDisplay: string | null;
  description: string | null;
  heightCm: number | null;
  widthCm: number | null;
  depthCm: number | null;
  dimensionsText: string | null;
  priceCents: number | null;
  priceOnRequest: boolean;
  currency: string | null;
  imageCount: number;
  market: string;
  provenance: string | null;
  conditionNotes: string | null;
  inventoryNumber: string | null;
}

export interface ReadinessJudgment {
  model: ModelName;
  readiness: Readiness;
  probability: number;
  /** Items a buyer-facing record needs and this work lacks, as stable codes ("image", "dimensions", …). */
  missing: string[];
  /** Items it has. */
  present: string[];
}

// ---------------------------------------------------------------------------------------------------------
// Inbox triage

export const INTENTS = [
  "purchase_inquiry",
  "price_request",
  "availability",
  "logistics",
  "consignment",
  "press",
  "event_rsvp",
  "invoice_payment",
  "spam",
  "other",
] as const;
export type Intent = (typeof INTENTS)[number];

export const URGENCIES = ["now", "today", "this_week", "later"] as const;
export type Urgency = (typeof URGENCIES)[number];

export const CHANNELS = ["email", "whatsapp", "sms"] as const;
export type Channel = (typeof CHANNELS)[number];

export interface TriageMessage {
  direction: "inbound" | "outbound";
  body: string;
  subject: string | null;
  /** ISO timestamp. */
  sentAt: string;
  fromName: string | null;
  fromAddress: string | null;
  /**
   * Email: the receiving server found the sender not authenticated (DMARC fail, or neither SPF nor DKIM passed).
   * Absent when it did not, or could not say.
   */
  authenticationFailed?: boolean;
}

export interface TriageInput {
  channel: Channel;
  /** The thread's messages, oldest first; the last inbound one is judged, the rest is its history. */
  messages: TriageMessage[];
  /** The gallery's IANA time zone, for "sent out of hours"; UTC when unknown. */
  timeZone: string | null;
}

export interface TriageJudgment {
  model: ModelName;
  intent: Intent;
  intentProbability: number;
  /** The full distribution the intent came from, every value present, summing to 1. */
  intentDistribution: Record<Intent, number>;
  urgency: Urgency;
  urgencyProbability: number;
  urgencyDistribution: Record<Urgency, number>;
  /** Beliefs 0–1. */
  expectsReply: number;
  escalating: number;
  evidence: PhraseEvidence[];
  /** Facts of the thread weighed: "third unanswered inbound message", "sent on whatsapp at 21:40". */
  signals: string[];
}

// ---------------------------------------------------------------------------------------------------------
// Segment rubrics (a dynamic list's `described_as`)

/** A work as the rubric judge sees it; its style is read from its tags, description and artist's years. */
export interface ProfileArtwork {
  id: string;
  title: string | null;
  artistName: string | null;
  medium: string | null;
  year: number | null;
  heightCm: number | null;
  widthCm: number | null;
  tags?: string[];
  description?: string | null;
  artistBirthYear?: number | null;
  artistDeathYear?: number | null;
}

/** What the engine knows of one contact when judging a rubric. Money in cents of `currency`. */
export interface ContactProfile {
  id: string;
  name: string;
  company: string | null;
  contactType: string;
  leadStatus: string | null;
  vip: boolean;
  city: string | null;
  region: string | null;
  /** ISO 3166-1 alpha-2 where known. */
  country: string | null;
  emailConsent: string | null;
  createdAt: string;
  /** Free text the gallery keeps: profile notes, collecting focus, private notes. */
  notes: { id: string; kind: string; text: string; at: string | null }[];
  sales: {
    id: string;
    at: string;
    priceCents: number | null;
    currency: string | null;
    status: string;
    artwork: ProfileArtwork | null;
  }[];
  /** Interactions, with the work one is about where it names one. */
  interactions: {
    id: string;
    at: string;
    type: string;
    direction: string | null;
    summary: string | null;
    artwork?: ProfileArtwork | null;
  }[];
  engagements: { id: string; at: string; kind: string; artworkId: string | null }[];
  tags: string[];
}

export type RubricReading =
  | { readable: true; model: ModelName; criteria: unknown; summary: string }
  | { readable: false; model: ModelName; reason: string };

export interface RubricVerdict {
  model: ModelName;
  verdict: boolean;
  probability: number;
  /** Why, each pointing at the record or phrase that decided it. */
  reasons: (RecordEvidence & { criterion: string; holds: boolean })[];
}

// ---------------------------------------------------------------------------------------------------------
// Show tags suggested from a show's works

export interface ShowWorkFacts {
  artworkId: string;
  artistName: string | null;
  medium: string | null;
  year: number | null;
  heightCm: number | null;
  widthCm: number | null;
  formats: string[];
  /** The work is one of an edition (artworks.is_edition); unknown when absent. */
  isEdition?: boolean | null;
  /** The edition's size, where known. */
  editionSize?: number | null;
}

export interface ShowTagSuggestion {
  name: string;
  /** medium | period | artist | format */
  facet: string;
  probability: number;
  evidence: RecordEvidence[];
}

// ---------------------------------------------------------------------------------------------------------
// Recommendation matches (an artwork for a contact)

/** The questions a match answers, each a sub-score 0–1 (design §8; docs/decisions.md "The matcher"). */
export const MATCH_QUESTIONS = [
  "medium",
  "artist",
  "price",
  "size",
  "period",
  "style",
  "engagement",
  "recency",
] as const;
export type MatchQuestion = (typeof MATCH_QUESTIONS)[number];

/** An artwork as the matcher sees it. Money in cents of `currency`; sizes in centimetres. */
export interface MatchWork {
  id: string;
  title: string | null;
  artistId: string | null;
  artistName: string | null;
  medium: string | null;
  year: number | null;
  heightCm: number | null;
  widthCm: number | null;
  priceCents: number | null;
  currency: string | null;
  /** ISO timestamp: when the work came into the gallery's inventory (for "new work" recency). */
  createdAt: string;
  /** What its style is read from (lib/engine/styles.ts): its artwork tags, description and artist's years. */
  tags?: string[];
  description?: string | null;
  artistBirthYear?: number | null;
  artistDeathYear?: number | null;
}

/**
 * What the matcher knows of one contact: its purchases, the works it asked about or looked at, its profile
 * facts, and members' feedback on earlier matches. Every item carries the id of the row it came from, so a
 * match's evidence resolves to real rows (`evidence_id`).
 */
export interface MatchContact {
  id: string;
  name: string;
  /** The contact's stored price band (under_5k | 5k_25k | 25k_100k | over_100k) and total spend, where known. */
  priceBand: string | null;
  totalSpendCents: number | null;
  /** Profile facts in the gallery's words: collecting focus, wishlist, profile notes, private notes. */
  facts: { id: string; kind: string; text: string; at: string | null }[];
  /** Completed or pending sales to the contact (sale id), each with the work sold where known. */
  purchases: {
    id: string;
    at: string;
    priceCents: number | null;
    currency: string | null;
    /** A pending sale (the work reserved, not yet paid for): evidence says so rather than "bought". */
    pending?: boolean;
    work: MatchWork | null;
  }[];
  /** Interactions about a work (inquiries, calls, visits, notes naming an artwork): interaction id. */
  interactions: {
    id: string;
    at: string;
    type: string;
    direction: string | null;
    summary: string | null;
    work: MatchWork | null;
  }[];
  /**
   * Engagement events on a work (viewed in a room, opened an offer's work, …): engagement event id, with the
   * title of the viewing room it happened in, where it did.
   */
  engagements: { id: string; at: string; kind: string; work: MatchWork | null; room?: string | null }[];
  /** Members' feedback on this contact's earlier matches (match_feedback id). */
  feedback: { id: string; artworkId: string; action: MatchFeedbackAction; at: string }[];
}

/** A member's feedback on a match. */
export const MATCH_FEEDBACK_ACTIONS = ["hide", "unhide", "not_interested", "good_match"] as const;
export type MatchFeedbackAction = (typeof MATCH_FEEDBACK_ACTIONS)[number];

/** One piece of evidence behind a match, in the wire shape of `reasons[]`, with the sub-score it fed. */
export interface MatchEvidenceItem {
  question: MatchQuestion;
  /** purchase | interaction | engagement | memory_fact | feedback | work_fact */
  kind: string;
  /** The row it came from: a sale, interaction, engagement event, private note or contact (profile fact), feedback. */
  evidence_id: string | null;
  label: string;
  /** Where the evidence lives, in words: "Sale", "Inquiry by email", "Viewing room", "Collecting focus". */
  source_label: string | null;
  at: string | null;
  /** How strongly it supports the match, 0–1: evidence is ordered by this (then `at`, newest first). */
  weight: number;
}

/** The candidate lookups for one contact: what its history points at, each answered by an index. */
export interface MatchCandidateQuery {
  artistIds: string[];
  /** Lower-cased medium words the contact collects ("oil", "photograph", "works on paper", …). */
  media: string[];
  /** Inclusive price range in cents (its band widened), or null when nothing says what it spends. */
  priceRange: { min: number; max: number } | null;
  /** Works it engaged with or asked about directly. */
  artworkIds: string[];
  /** Artwork tag names (lower-cased LIKE patterns) of the styles its facts ask for (lib/engine/styles.ts). */
  styleTags: string[];
  /** Surnames its facts name (folded), looked up among the gallery's artists. */
  artistNames: string[];
  /** Years of making its facts ask for ("post-war", "1960s"), inclusive. */
  periods: { from: number; to: number }[];
}

/** A logistic model over the sub-scores: p = calibration(σ(bias + Σ weights[q] · sub_scores[q])). */
export interface MatchModel {
  /** `name@version` stored on every match as `model`. */
  model: ModelName;
  bias: number;
  weights: Record<MatchQuestion, number>;
  /** Labelled outcomes it was fitted on (0 for the prior). */
  examples: number;
  positives: number;
  /** What the gallery's collectors teach about artists ("collectors of A also buy B"), fitted with the model. */
  affinity?: MatchArtistAffinity;
  /**
   * The map from σ(bias + Σ w·s) to the probability given (lib/engine/calibration.ts); none: the raw one.
   * A gallery's is fitted on cross-fitted outcomes, shrunk toward the global map.
   */
  calibration?: CalibrationMap;
}

/**
 * Artist affinity learned from a gallery's own sales and inquiries: for each artist (by id), its strongest
 * neighbours, strongest first, strength 0–1; at most 10 neighbours per artist and 2,000 artists.
 */
export interface MatchArtistAffinity {
  neighbours: Record<string, { artistId: string; strength: number }[]>;
  /** Contacts whose histories it was learned from. */
  contacts: number;
}

export interface MatchJudgment {
  artworkId: string;
  contactId: string;
  model: ModelName;
  probability: number;
  subScores: Record<MatchQuestion, number>;
  /** Every piece of evidence, strongest first; `reasons[]` is its head. */
  evidence: MatchEvidenceItem[];
}
