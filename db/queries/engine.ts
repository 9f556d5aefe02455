import { type SQL, sql } from "drizzle-orm";
import type { SubjectKind } from "../../lib/engine-queue";
import type { Db } from "../client";
import { isoMs } from "../resource";
import { textArray } from "./rows";
import { showTagResource } from "./show-tags";

/**
 * The engine loop's queries (docs/decisions.md, "The engine loop"): what a write marked, the claim of stale
 * subjects under a lease, the inputs of each kind loaded in one batch per gallery, the write-back statements and
 * the sweep. Stale marking itself is the trigger `domain_events_engine_stale` (migration 0013).
 */

/** What the current transaction marked stale: appended to a write's batch (services/write.ts). */
export function markedSubjects(): SQL {
  return sql`select kind, subject_id from judgment_subjects
    where marked_xact = txid_current() and judged_version < version`;
}

export interface SubjectRef {
  kind: SubjectKind;
  subjectId: string;
}

export interface ClaimedSubject extends SubjectRef {
  version: number;
  /** Names this claim: the write-back writes only while the subject's lease is still this one. */
  leaseId: string;
}

/**
 * Claims the stale subjects among `refs` for `leaseSeconds`: a subject already judged, or leased by another
 * consumer whose lease still runs, is left out (SKIP LOCKED: two consumers never wait on or judge the same one).
 * One round trip. Also returns the gallery's livemode, for the events write-back records.
 */
export async function claimSubjects(
  db: Db,
  galleryId: string,
  refs: SubjectRef[],
  leaseSeconds: number,
): Promise<{ claimed: ClaimedSubject[]; livemode: boolean }> {
  const result = await db.execute<{
    kind: SubjectKind;
    subject_id: string;
    version: string;
    lease_id: string;
    livemode: boolean;
  }>(
    sql`with wanted as (
        select * from unnest(${textArray(refs.map((r) => r.kind))}, ${textArray(refs.map((r) => r.subjectId))})
          as w(kind, subject_id)
      ), free as (
        select s.kind, s.subject_id from judgment_subjects s
        join wanted w on w.kind = s.kind and w.subject_id = s.subject_id
        where s.gallery_id = ${galleryId} and s.judged_version < s.version
          and (s.lease_until is null or s.lease_until < now())
        for update of s skip locked
      ), claimed as (
        update judgment_subjects s
        set lease_until = now() + make_interval(secs => ${leaseSeconds}), attempts = s.attempts + 1,
          lease_id = gen_random_uuid()::text
        from free f
        where s.gallery_id = ${galleryId} and s.kind = f.kind and s.subject_id = f.subject_id
        returning s.kind, s.subject_id, s.version, s.lease_id
      )
      select c.kind, c.subject_id, c.version::text as version, c.lease_id, g.livemode
      from galleries g left join claimed c on true
      where g.id = ${galleryId}`,
  );
  const livemode = result.rows[0]?.livemode ?? false;
  const claimed = result.rows
    .filter((r) => r.kind !== null)
    .map((r) => ({
      kind: r.kind,
      subjectId: r.subject_id,
      version: Number(r.version),
      leaseId: r.lease_id,
    }));
  return { claimed, livemode };
}

/** The inputs of stale artworks: what readiness and disclosure read, and the hashes they were last judged from. */
export function artworkInputs(galleryId: string, ids: string[]): SQL {
  return sql`select a.id, a.title, a.artist_id, a.artist_name, a.medium, a.year, a.date_display, a.description,
      a.height_cm, a.width_cm, a.depth_cm, a.dimensions_text, a.price_cents, a.currency, a.image_count, a.market,
      a.provenance, a.condition_notes, a.inventory_number,
      (select json_object_agg(j.aspect, j.input_hash) from judgments j
        where j.gallery_id = a.gallery_id and j.subject_kind = 'artwork' and j.subject_id = a.id) as hashes
    from artworks a where a.gallery_id = ${galleryId} and a.id = any(${textArray(ids)})`;
}

export interface ArtworkInputRow {
  id: string;
  title: string | null;
  artist_id: string | null;
  artist_name: string | null;
  medium: string | null;
  year: number | null;
  date_display: string | null;
  description: string | null;
  height_cm: number | null;
  width_cm: number | null;
  depth_cm: number | null;
  dimensions_text: string | null;
  price_cents: string | number | null;
  currency: string | null;
  image_count: number;
  market: string;
  provenance: string | null;
  condition_notes: string | null;
  inventory_number: string | null;
  hashes: Record<string, string> | null;
}

/** Messages of a thread read for triage: the last ones only, oldest first. */
export const TRIAGE_HISTORY = 20;

/** The inputs of stale threads: channel, the last TRIAGE_HISTORY messages, the triage as stored and its hash. */
export function threadInputs(galleryId: string, ids: string[]): SQL {
  return sql`select t.id, t.channel, t.triage_intent, t.triage_intent_probability, t.triage_urgency,
      t.triage_urgency_probability, t.triage_expects_reply, t.triage_escalating,
      ${isoMs(sql`t.triaged_at`)} as triaged_at,
      (select j.input_hash from judgments j where j.gallery_id = t.gallery_id and j.subject_kind = 'inbox_thread'
        and j.subject_id = t.id and j.aspect = 'triage') as hash,
      (select coalesce(json_agg(m order by m.sent_at, m.id), '[]'::json) from (
        select im.id, im.direction, coalesce(im.body, im.snippet, '') as body, im.from_name, im.from_address,
          ${isoMs(sql`im.sent_at`)} as sent_at,
          coalesce((im.authentication->>'failed')::boolean, false) as authentication_failed
        from inbox_messages im where im.thread_id = t.id
        order by im.sent_at desc, im.id desc limit ${TRIAGE_HISTORY}) m) as messages,
      t.subject
    from inbox_threads t where t.gallery_id = ${galleryId} and t.id = any(${textArray(ids)})`;
}

export interface ThreadInputRow {
  id: string;
  channel: string;
  triage_intent: string | null;
  triage_intent_probability: number | null;
  triage_urgency: string | null;
  triage_urgency_probability: number | null;
  triage_expects_reply: number | null;
  triage_escalating: number | null;
  triaged_at: string | null;
  hash: string | null;
  subject: string | null;
  messages: {
    id: string;
    direction: "inbound" | "outbound";
    body: string;
    from_name: string | null;
    from_address: string | null;
    sent_at: string;
    /** Email: the receiving server found the sender not authenticated (DMARC fail, or neither SPF nor DKIM passed). */
    authentication_failed: boolean;
  }[];
}

/** Works read per show for its suggested tags. */
export const SHOW_WORKS_LIMIT = 500;

/**
 * The inputs of stale shows: the facts of their works (with format labels), their tags as they are, and the
 * names members removed after the engine suggested them (never suggested again).
 */
export function showInputs(galleryId: string, ids: string[]): SQL {
  return sql`select s.id,
      (select j.input_hash from judgments j where j.gallery_id = s.gallery_id and j.subject_kind = 'show'
        and j.subject_id = s.id and j.aspect = 'show_tags') as hash,
      (select coalesce(json_agg(w order by w.position, w.artwork_id), '[]'::json) from (
        select sa.position, a.id as artwork_id, a.artist_name, a.medium, a.year, a.height_cm, a.width_cm,
          a.is_edition, a.edition_size,
          (select coalesce(json_agg(f.label order by f.position, f.id), '[]'::json) from artwork_formats f
            where f.artwork_id = a.id and f.pending_action is distinct from 'create') as formats
        from show_artworks sa join artworks a on a.id = sa.artwork_id
        where sa.show_id = s.id order by sa.position, sa.artwork_id limit ${SHOW_WORKS_LIMIT}) w) as works,
      (select coalesce(json_agg(json_build_object('tag', ${showTagResource.json({})},
          'updated_at', ${isoMs(sql`st.updated_at`)})), '[]'::json)
        from show_tags st where st.show_id = s.id) as tags,
      (select coalesce(json_agg(distinct lower(c.engine_value #>> '{}')), '[]'::json)
        from judgment_corrections c where c.gallery_id = s.gallery_id and c.subject_kind = 'show'
          and c.subject_id = s.id and c.aspect = 'show_tags' and c.corrected_value is null) as removed
    from shows s where s.gallery_id = ${galleryId} and s.id = any(${textArray(ids)})`;
}

export interface ShowInputRow {
  id: string;
  hash: string | null;
  works: {
    artwork_id: string;
    artist_name: string | null;
    medium: string | null;
    year: number | null;
    height_cm: number | null;
    width_cm: number | null;
    is_edition: boolean;
    edition_size: number | null;
    formats: string[];
  }[];
  tags: { tag: { id: string; name: string; origin: string }; updated_at: string }[];
  removed: string[];
}

/** Rubrics read per gallery when judging a contact against every described_as list. */
export const RUBRICS_PER_GALLERY = 100;

/** The described_as lists among `ids`, or every one of the gallery (`ids` null), with their judgment's hash. */
export function rubricLists(galleryId: string, ids: string[] | null): SQL {
  return sql`select l.id, l.dynamic_query->>'described_as' as described_as,
      (select j.input_hash from judgments j where j.gallery_id = l.gallery_id and j.subject_kind = 'contact_list'
        and j.subject_id = l.id and j.aspect = 'rubric') as hash
    from contact_lists l
    where l.gallery_id = ${galleryId} and l.dynamic_query->>'described_as' is not null
      ${ids === null ? sql`` : sql`and l.id = any(${textArray(ids)})`}
    order by l.created_at, l.id limit ${RUBRICS_PER_GALLERY}`;
}

export interface RubricListRow {
  id: string;
  described_as: string;
  hash: string | null;
}

/** Which of `ids` are contacts of the gallery (a subject whose contact is gone is finished, not judged). */
export function existingContacts(galleryId: string, ids: string[]): SQL {
  return sql`select id from contacts where gallery_id = ${galleryId} and id = any(${textArray(ids)})`;
}

/** One page of the gallery's contacts by id, after `after`: a list's rubric is judged a page at a time. */
export async function contactPage(
  db: Db,
  galleryId: string,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const result = await db.execute<{ id: string }>(
    sql`select id from contacts where gallery_id = ${galleryId}
      ${after === null ? sql`` : sql`and id > ${after}`} order by id limit ${limit}`,
  );
  return result.rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------------------
// Write-back statements: composed by services/engine/ into one batch (one transaction) per gallery.

export interface JudgmentRow {
  subject_kind: SubjectKind;
  subject_id: string;
  aspect: string;
  value: unknown;
  probability: number | null;
  model: string;
  evidence: unknown;
  input_hash: string;
}

/**
 * Upserts judgments. A row whose input_hash is the stored one changes nothing (same input twice: one write).
 */
export function upsertJudgments(galleryId: string, rows: JudgmentRow[], at: string): SQL {
  return sql`insert into judgments (gallery_id, subject_kind, subject_id, aspect, value, probability, model,
      evidence, input_hash, judged_at)
    select ${galleryId}, r.subject_kind, r.subject_id, r.aspect, r.value, r.probability, r.model, r.evidence,
      r.input_hash, ${at}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(subject_kind text, subject_id text, aspect text,
      value jsonb, probability double precision, model text, evidence jsonb, input_hash text)
    on conflict (gallery_id, subject_kind, subject_id, aspect) do update
      set value = excluded.value, probability = excluded.probability, model = excluded.model,
        evidence = excluded.evidence, input_hash = excluded.input_hash, judged_at = excluded.judged_at
      where judgments.input_hash is distinct from excluded.input_hash`;
}

/** Drops the judgments of subjects that no longer exist. */
export function deleteJudgments(galleryId: string, refs: SubjectRef[]): SQL {
  return sql`delete from judgments j using unnest(${textArray(refs.map((r) => r.kind))},
      ${textArray(refs.map((r) => r.subjectId))}) as g(kind, subject_id)
    where j.gallery_id = ${galleryId} and j.subject_kind = g.kind and j.subject_id = g.subject_id`;
}

/** The denormalised values the artwork filters read (readiness, disclosure): updated_at stays, no event. */
export function setArtworkJudgments(
  galleryId: string,
  rows: { id: string; readiness: string; disclosure: boolean }[],
  at: string,
): SQL {
  return sql`update artworks a set readiness = r.readiness, disclosure_required = r.disclosure,
      judged_at = ${at}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, readiness text, disclosure boolean)
    where a.gallery_id = ${galleryId} and a.id = r.id`;
}

export interface ThreadTriageRow {
  id: string;
  intent: string;
  intent_probability: number;
  urgency: string;
  urgency_probability: number;
  expects_reply: number;
  escalating: number;
}

/** The thread's engine triage fields and triaged_at; corrected_intent (the member's) is never touched. */
export function setThreadTriage(galleryId: string, rows: ThreadTriageRow[], at: string): SQL {
  return sql`update inbox_threads t set triage_intent = r.intent, triage_intent_probability = r.intent_probability,
      triage_urgency = r.urgency, triage_urgency_probability = r.urgency_probability,
      triage_expects_reply = r.expects_reply, triage_escalating = r.escalating, triaged_at = ${at}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, intent text,
      intent_probability double precision, urgency text, urgency_probability double precision,
      expects_reply double precision, escalating double precision)
    where t.gallery_id = ${galleryId} and t.id = r.id`;
}

export interface RubricRow {
  rubric_key: string;
  contact_id: string;
  verdict: boolean;
  probability: number;
  model: string;
  reasons: unknown;
}

/**
 * Upserts rubric verdicts; an unchanged verdict (same value, probability, model and reasons) keeps its row and
 * judged_at. A contact deleted meanwhile is skipped.
 */
export function upsertRubricJudgments(galleryId: string, rows: RubricRow[], at: string): SQL {
  return sql`insert into rubric_judgments (gallery_id, rubric_key, contact_id, verdict, probability, model,
      reasons, judged_at)
    select ${galleryId}, r.rubric_key, r.contact_id, r.verdict, r.probability, r.model, r.reasons, ${at}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(rubric_key text, contact_id text,
      verdict boolean, probability double precision, model text, reasons jsonb)
    where exists (select 1 from contacts c where c.gallery_id = ${galleryId} and c.id = r.contact_id)
    on conflict (gallery_id, rubric_key, contact_id) do update
      set verdict = excluded.verdict, probability = excluded.probability, model = excluded.model,
        reasons = excluded.reasons, judged_at = excluded.judged_at
      where (rubric_judgments.verdict, rubric_judgments.probability, rubric_judgments.model, rubric_judgments.reasons)
        is distinct from (excluded.verdict, excluded.probability, excluded.model, excluded.reasons)`;
}

/** Removes verdicts: contacts a rubric could not judge (unjudged matches neither value), or every one of a key. */
export function deleteRubricJudgments(
  galleryId: string,
  pairs: { rubric_key: string; contact_id: string | null }[],
): SQL {
  return sql`delete from rubric_judgments rj
    using jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as r(rubric_key text, contact_id text)
    where rj.gallery_id = ${galleryId} and rj.rubric_key = r.rubric_key
      and (r.contact_id is null or rj.contact_id = r.contact_id)`;
}

/** The claims as rows for jsonb_to_recordset: kind, subject_id, version, lease_id. */
function claimRows(claims: ClaimedSubject[]): string {
  return JSON.stringify(
    claims.map((c) => ({ kind: c.kind, subject_id: c.subjectId, version: c.version, lease_id: c.leaseId })),
  );
}

/**
 * The write-back's first statement: locks the claimed subjects and aborts the write-back (SQLSTATE 40001) unless
 * every one is still leased by the claim that judged it. A lease that lapsed and was taken by another consumer
 * means that consumer judges (or judged) the subject: this write-back, events and all, must not land as well.
 */
export function expectLeases(galleryId: string, claims: ClaimedSubject[]): SQL {
  return sql`with held as (
      select 1 from judgment_subjects s
      join jsonb_to_recordset(${claimRows(claims)}::jsonb) as r(kind text, subject_id text, version bigint,
        lease_id text)
        on s.kind = r.kind and s.subject_id = r.subject_id and s.lease_id = r.lease_id
      where s.gallery_id = ${galleryId}
      for update of s
    )
    select engine_expect_leases((select count(*) from held), ${claims.length})`;
}

/**
 * Finishes claimed subjects: judged_version becomes the claimed version (a write since then moved `version` on,
 * so the subject stays stale and is judged again), the lease is released and attempts start over.
 */
export function finishSubjects(galleryId: string, done: ClaimedSubject[]): SQL {
  return sql`update judgment_subjects s
    set judged_version = greatest(s.judged_version, r.version), lease_until = null, lease_id = null, attempts = 0,
      last_error = null, failed_at = null, judged_at = now()
    from jsonb_to_recordset(${claimRows(done)}::jsonb) as r(kind text, subject_id text, version bigint, lease_id text)
    where s.gallery_id = ${galleryId} and s.kind = r.kind and s.subject_id = r.subject_id
      and s.lease_id = r.lease_id`;
}

/**
 * Releases claimed subjects without judging them (a list judged a page at a time, its next page enqueued): the
 * page was judged, so attempts start over.
 */
export function releaseSubjects(galleryId: string, claims: ClaimedSubject[]): SQL {
  return sql`update judgment_subjects s set lease_until = null, lease_id = null, attempts = 0, last_error = null,
      failed_at = null
    from jsonb_to_recordset(${claimRows(claims)}::jsonb) as r(kind text, subject_id text, version bigint,
      lease_id text)
    where s.gallery_id = ${galleryId} and s.kind = r.kind and s.subject_id = r.subject_id
      and s.lease_id = r.lease_id`;
}

/** Forgets subjects that no longer exist (a deleted artwork, show, thread, contact or list). */
export function forgetSubjects(galleryId: string, refs: SubjectRef[]): SQL {
  return sql`delete from judgment_subjects s
    using unnest(${textArray(refs.map((r) => r.kind))}, ${textArray(refs.map((r) => r.subjectId))}) as g(kind, subject_id)
    where s.gallery_id = ${galleryId} and s.kind = g.kind and s.subject_id = g.subject_id`;
}

/** A claimed subject whose attempt failed, with why. */
export interface FailedSubject {
  claim: ClaimedSubject;
  error: string;
}

/** The longest last_error kept. */
export const LAST_ERROR_LENGTH = 1000;

/**
 * Records failed attempts (the claim counted the attempt): each subject's error and when, and its lease released
 * so a retry (or the sweep) claims it again at once. Only while the lease is still the claim's own: a lapsed one
 * belongs to the consumer that claimed the subject since.
 */
export function failSubjects(galleryId: string, failed: FailedSubject[]): SQL {
  const rows = failed.map((f) => ({
    kind: f.claim.kind,
    subject_id: f.claim.subjectId,
    lease_id: f.claim.leaseId,
    error: f.error.slice(0, LAST_ERROR_LENGTH),
  }));
  return sql`update judgment_subjects s set lease_until = null, lease_id = null, last_error = r.error,
      failed_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(kind text, subject_id text, lease_id text,
      error text)
    where s.gallery_id = ${galleryId} and s.kind = r.kind and s.subject_id = r.subject_id
      and s.lease_id = r.lease_id`;
}

// ---------------------------------------------------------------------------------------------------------
// The sweep

/**
 * Subjects stale for longer than `olderThanSeconds`, with no live lease and fewer than `maxAttempts` failed
 * attempts, oldest first, at most `limit`: their stale_since moves to now, so the next sweep waits the bound
 * again before sending them once more. One round trip.
 */
export async function sweepStale(
  db: Db,
  options: { olderThanSeconds: number; limit: number; maxAttempts: number; galleryId?: string },
): Promise<{ gallery_id: string; kind: SubjectKind; subject_id: string }[]> {
  const result = await db.execute<{ gallery_id: string; kind: SubjectKind; subject_id: string }>(
    sql`with due as (
        select gallery_id, kind, subject_id from judgment_subjects
        where judged_version < version
          and stale_since < now() - make_interval(secs => ${options.olderThanSeconds})
          and (lease_until is null or lease_until < now()) and attempts < ${options.maxAttempts}
          ${options.galleryId === undefined ? sql`` : sql`and gallery_id = ${options.galleryId}`}
        order by stale_since limit ${options.limit}
        for update skip locked
      )
      update judgment_subjects s set stale_since = now()
      from due where s.gallery_id = due.gallery_id and s.kind = due.kind and s.subject_id = due.subject_id
      returning s.gallery_id, s.kind, s.subject_id`,
  );
  return result.rows;
}
