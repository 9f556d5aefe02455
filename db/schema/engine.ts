import { sql } from "drizzle-orm";
import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";
import { createdAt, galleryId, ts } from "./columns";

/**
 * The engine's loop (design §8). A write that changes a judged input marks its subject stale in its own
 * transaction (`version` moves past `judged_version`); the engine Worker claims stale subjects with a lease,
 * judges them and records the judged version. The database is the truth: the queue only says where to look, and
 * the cron sweep re-enqueues subjects that stay stale.
 *
 * kind: artwork (readiness, disclosure) | inbox_thread (triage) | contact (every rubric of the gallery for one
 * contact) | contact_list (one rubric for every contact) | show (suggested tags).
 */
export const judgmentSubjects = pgTable(
  "judgment_subjects",
  {
    galleryId: galleryId(),
    kind: text("kind").notNull(),
    subjectId: text("subject_id").notNull(),
    /** Moves on every change of an input. */
    version: bigint("version", { mode: "number" }).notNull().default(1),
    /** The version last judged; the subject is stale while it is below `version`. */
    judgedVersion: bigint("judged_version", { mode: "number" }).notNull().default(0),
    /** When the subject last went from judged to stale. */
    staleSince: ts("stale_since"),
    /** The transaction that last marked it (txid), so a write can name what it marked in the same batch. */
    markedXact: bigint("marked_xact", { mode: "number" }),
    /** A consumer's claim: another consumer leaves the subject alone until then. */
    leaseUntil: ts("lease_until"),
    /** Names the claim holding the lease: a write-back whose lease lapsed (and was claimed again) writes nothing. */
    leaseId: text("lease_id"),
    /** Claims since the subject was last judged or marked by a write; the sweep gives up at MAX_ATTEMPTS. */
    attempts: integer("attempts").notNull().default(0),
    /** The error of the last failed attempt, until the subject is judged. */
    lastError: text("last_error"),
    /** When the last attempt failed. */
    failedAt: ts("failed_at"),
    judgedAt: ts("judged_at"),
  },
  (t) => [
    primaryKey({ columns: [t.galleryId, t.kind, t.subjectId] }),
    // The sweep: stale subjects, oldest first.
    index("judgment_subjects_stale_idx")
      .on(t.staleSince)
      .where(sql`${t.judgedVersion} < ${t.version}`),
    // What one transaction marked (read back in the same batch).
    index("judgment_subjects_marked_idx")
      .on(t.markedXact)
      .where(sql`${t.judgedVersion} < ${t.version}`),
    // The operator's read of a gallery's failures, most recent first.
    index("judgment_subjects_failed_idx")
      .on(t.galleryId, t.failedAt, t.kind, t.subjectId)
      .where(sql`${t.lastError} is not null`),
  ],
);

/**
 * What reached a dead-letter queue (`gallery-engine-dlq`, `gallery-webhooks-dlq`): each message once, by its
 * Queue message id, with the body, the attempts the Queue made and when it was first and last seen. The subjects
 * and deliveries themselves stay in their tables (the sweep and the drain still own them); this is the record an
 * operator reads (GET /v1/gallery/engine/dead-letters).
 */
export const deadLetters = pgTable(
  "dead_letters",
  {
    queue: text("queue").notNull(),
    messageId: text("message_id").notNull(),
    /** The body's gallery_id, when it names one. */
    galleryId: text("gallery_id"),
    body: jsonb("body").$type<unknown>().notNull(),
    /** The Queue's delivery attempts when the message reached the dead-letter queue. */
    attempts: integer("attempts").notNull(),
    firstSeenAt: ts("first_seen_at").notNull().default(sql`now()`),
    lastSeenAt: ts("last_seen_at").notNull().default(sql`now()`),
    /** Deliveries of this message to the dead-letter consumer (a redelivery is recorded once). */
    timesSeen: integer("times_seen").notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.queue, t.messageId] }),
    index("dead_letters_gallery_idx").on(t.galleryId, t.firstSeenAt),
  ],
);

/**
 * The current judgment of one aspect of a subject, with what explains it: `value` (the judged value as JSON),
 * `probability`, `model` (name@version), `evidence` (phrases with offsets, records, missing items) and the hash
 * of the inputs it was judged from, so judging the same input twice writes nothing the second time.
 *
 * aspect: readiness | disclosure (artwork) · triage (inbox_thread) · show_tags (show) · rubric (contact_list:
 * whether its described_as could be read, and why not).
 */
export const judgments = pgTable(
  "judgments",
  {
    galleryId: galleryId(),
    subjectKind: text("subject_kind").notNull(),
    subjectId: text("subject_id").notNull(),
    aspect: text("aspect").notNull(),
    value: jsonb("value").notNull(),
    probability: doublePrecision("probability"),
    model: text("model").notNull(),
    evidence: jsonb("evidence").$type<unknown>().notNull().default(sql`'[]'::jsonb`),
    inputHash: text("input_hash").notNull(),
    judgedAt: ts("judged_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.galleryId, t.subjectKind, t.subjectId, t.aspect] })],
);

/**
 * A member's correction of a judgment (a thread's corrected_intent, a suggested show tag removed), kept as a
 * labelled example with the input it corrected. The engine reads it and never overwrites what it says.
 */
export const judgmentCorrections = pgTable(
  "judgment_corrections",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    subjectKind: text("subject_kind").notNull(),
    subjectId: text("subject_id").notNull(),
    aspect: text("aspect").notNull(),
    /** What the engine had said (null when nothing). */
    engineValue: jsonb("engine_value"),
    /** What the member says instead (null: "not this", e.g. a removed tag). */
    correctedValue: jsonb("corrected_value"),
    /** The judged input at the time, so the example stands on its own. */
    input: jsonb("input").notNull().default(sql`'{}'::jsonb`),
    memberId: text("member_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("judgment_corrections_subject_idx").on(t.galleryId, t.subjectKind, t.subjectId, t.aspect),
    // A gallery's corrected intents, newest first: what its triage adjustment is fitted on, and whether one is due.
    index("judgment_corrections_triage_idx")
      .on(t.galleryId, t.createdAt)
      .where(sql`${t.aspect} = 'triage'`),
  ],
);

/**
 * Each gallery's adjustment of the shared triage intent model (lib/engine/adjustment.ts IntentAdjustment): an
 * offset to its class scores fitted on the gallery's corrected intents by the cron (services/engine/fit-triage.ts,
 * docs/decisions.md "Each gallery's triage adjustment"). No row: the shared model alone.
 */
export const triageAdjustments = pgTable("triage_adjustments", {
  galleryId: galleryId().primaryKey(),
  /** Named in the judgments it makes: `<shared model>+gallery.<version>`. */
  version: text("version").notNull(),
  /** The shared model it was fitted over; over another it is not applied, and the gallery is fitted again. */
  sharedModel: text("shared_model").notNull(),
  /** How many corrected intents it was fitted on. */
  examples: integer("examples").notNull().default(0),
  adjustment: jsonb("adjustment").$type<unknown>().notNull(),
  /** The newest correction it read: a newer one makes the gallery due. */
  correctedThrough: ts("corrected_through"),
  fittedAt: ts("fitted_at").notNull(),
});
