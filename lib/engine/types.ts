/**
 * The engine's judges: pure, deterministic functions from a subject's inputs to a judgment with its evidence.
 * They never touch the database or the network; the engine Worker (functions/engine/) loads the inputs, calls
 * them and stores what they return (db/schema/engine.ts). The value sets are design §3's, exactly.
 */

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

export type Channel = "email" | "whatsapp" | "sms";

export interface TriageMessage {
  direction: "inbound" | "outbound";
  body: string;
  subject: string | null;
  /** ISO timestamp. */
  sentAt: string;
  fromName: string | null;
  fromAddress: string | null;
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
    artwork: {
      id: string;
      title: string | null;
      artistName: string | null;
      medium: string | null;
      year: number | null;
      heightCm: number | null;
      widthCm: number | null;
    } | null;
  }[];
  interactions: { id: string; at: string; type: string; direction: string | null; summary: string | null }[];
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
}

export interface ShowTagSuggestion {
  /** The judge that suggested it (stored as the show_tags judgment's `model`). */
  model?: ModelName;
  name: string;
  /** medium | period | artist | format */
  facet: string;
  probability: number;
  evidence: RecordEvidence[];
}
