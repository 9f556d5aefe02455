import { type SQL, sql } from "drizzle-orm";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import type { Db } from "../client";
import { isoMs } from "../resource";

/**
 * The explain reads (design §7): a judged value with everything it rests on, read from the engine's `judgments`
 * rows (whose `evidence` is the judge's whole output, lib/engine/types.ts) and from `rubric_judgments`. Each
 * read is one round trip and Postgres builds the whole answer.
 */

/** The current judgment of one aspect of a subject (alias `j`), joined laterally; absent until judged. */
function judgment(galleryId: SQL, kind: string, subjectId: SQL, aspect: string): SQL {
  return sql`select j.value, j.probability, j.model, j.evidence, j.judged_at from judgments j
    where j.gallery_id = ${galleryId} and j.subject_kind = ${kind} and j.subject_id = ${subjectId}
      and j.aspect = ${aspect}`;
}

/** Whether a change to the subject waits to be judged (its version moved past the judged one). */
function staleSubject(galleryId: SQL, kind: string, subjectId: SQL): SQL {
  return sql`exists (select 1 from judgment_subjects s where s.gallery_id = ${galleryId}
    and s.kind = ${kind} and s.subject_id = ${subjectId} and s.judged_version < s.version)`;
}

/** A number of the judge's output, or the row's own probability when the output lacks it. */
function belief(evidence: SQL, field: string, fallback: SQL): SQL {
  return sql`coalesce((${evidence} -> ${field})::float8, ${fallback})`;
}

// ---------------------------------------------------------------------------------------------------------
// Artworks

/** An artwork's readiness and disclosure with their evidence as JSON text, or null when it is not the gallery's. */
export async function artworkJudgmentsText(db: Db, galleryId: string, id: string): Promise<string | null> {
  const g = sql`a.gallery_id`;
  const result = await db.execute<{ body: string }>(
    sql`select json_build_object(
        'artwork_id', a.id,
        'readiness', case when r.model is null then null else json_build_object(
          'value', r.value, 'probability', ${belief(sql`r.evidence`, "probability", sql`r.probability`)},
          'missing', coalesce(r.evidence -> 'missing', '[]'::jsonb),
          'present', coalesce(r.evidence -> 'present', '[]'::jsonb),
          'model', r.model, 'judged_at', ${isoMs(sql`r.judged_at`)}) end,
        'disclosure', case when d.model is null then null else json_build_object(
          'value', d.value, 'probability', ${belief(sql`d.evidence`, "probability", sql`d.probability`)},
          'phrases', coalesce(d.evidence -> 'evidence', '[]'::jsonb),
          'model', d.model, 'judged_at', ${isoMs(sql`d.judged_at`)}) end,
        'stale', ${staleSubject(g, "artwork", sql`a.id`)})::text as body
      from artworks a
      left join lateral (${judgment(g, "artwork", sql`a.id`, "readiness")}) r on true
      left join lateral (${judgment(g, "artwork", sql`a.id`, "disclosure")}) d on true
      where a.gallery_id = ${galleryId} and a.id = ${id}`,
  );
  return result.rows[0]?.body ?? null;
}

// ---------------------------------------------------------------------------------------------------------
// Inbox

/**
 * The triage of one of the member's threads with its evidence as JSON text, or null when the thread is not
 * theirs. The stored output is the judge's (camelCase, TriageJudgment) plus the judged message's id.
 */
export async function threadTriageText(
  db: Db,
  galleryId: string,
  memberId: string,
  id: string,
): Promise<string | null> {
  const g = sql`t.gallery_id`;
  const e = sql`tj.evidence`;
  const result = await db.execute<{ body: string }>(
    sql`select json_build_object(
        'thread_id', t.id,
        'corrected_intent', t.triage_corrected_intent,
        'triage', case when tj.model is null then null else json_build_object(
          'message_id', ${e} ->> 'message_id',
          'intent', tj.value,
          'intent_probability', ${belief(e, "intentProbability", sql`tj.probability`)},
          'intent_distribution', ${e} -> 'intentDistribution',
          'urgency', ${e} -> 'urgency',
          'urgency_probability', ${belief(e, "urgencyProbability", sql`null`)},
          'urgency_distribution', ${e} -> 'urgencyDistribution',
          'expects_reply', ${belief(e, "expectsReply", sql`null`)},
          'escalating', ${belief(e, "escalating", sql`null`)},
          'phrases', coalesce(${e} -> 'evidence', '[]'::jsonb),
          'signals', coalesce(${e} -> 'signals', '[]'::jsonb),
          'model', tj.model, 'judged_at', ${isoMs(sql`tj.judged_at`)}) end,
        'stale', ${staleSubject(g, "inbox_thread", sql`t.id`)})::text as body
      from inbox_threads t
      left join lateral (${judgment(g, "inbox_thread", sql`t.id`, "triage")}) tj on true
      where t.gallery_id = ${galleryId} and t.id = ${id} and t.member_id = ${memberId}`,
  );
  return result.rows[0]?.body ?? null;
}

// ---------------------------------------------------------------------------------------------------------
// Contact lists

/**
 * A list's rubric verdicts, by contact id (newest contact first by default): the primary key of
 * rubric_judgments, (gallery, rubric key, contact), serves every page as one index range.
 */
export const rubricJudgmentList = listSpec({ sorts: ["contact"], defaultSort: "contact" });

/** The rubric key under which the engine judges contacts by a list's `described_as`. */
export function segmentRubricKey(listId: string): string {
  return `segment:${listId}`;
}

/** The `rubric` object of a list (alias `cl`): null without `described_as`. */
function listRubricJson(): SQL {
  const g = sql`cl.gallery_id`;
  const described = sql`(cl.dynamic_query ->> 'described_as')`;
  return sql`case when ${described} is null then null else json_build_object(
      'described_as', ${described},
      'state', case when lr.model is null then 'not_judged'
        when (lr.value ->> 'readable')::boolean then 'readable' else 'unreadable' end,
      'reason', case when (lr.value ->> 'readable')::boolean then null else lr.evidence ->> 'reason' end,
      'summary', case when (lr.value ->> 'readable')::boolean then lr.evidence ->> 'summary' end,
      'model', lr.model, 'judged_at', ${isoMs(sql`lr.judged_at`)},
      'stale', ${staleSubject(g, "contact_list", sql`cl.id`)}) end`;
}

export interface RubricJudgmentPage {
  /** The list's `rubric` object as JSON text ("null" without described_as). */
  rubric: string;
  rows: PageRow[];
}

/** What a viewer reads in place of a private note's words, in a reason that rests on one. */
export const PRIVATE_NOTE_LABEL = "A private note (its words are for the gallery's editors)";

/**
 * The list's rubric and one page (limit + 1 rows) of its verdicts, keyset on the contact id, optionally of one
 * contact; null when the list is not the gallery's. One round trip: the list row drives, the page is joined to
 * it, so a missing list is told apart from an empty page.
 */
export async function listRubricJudgments(
  db: Db,
  galleryId: string,
  listId: string,
  contactId: string | undefined,
  page: PageRequest,
  /** False for a viewer: a reason resting on a private note keeps its criterion and id, not the note's words. */
  privateNotes: boolean,
): Promise<RubricJudgmentPage | null> {
  const order = sql.raw(page.dir);
  const reasons = privateNotes
    ? sql`rj.reasons`
    : sql`(select coalesce(jsonb_agg(case when r ->> 'kind' = 'private_note'
          then r || jsonb_build_object('label', ${PRIVATE_NOTE_LABEL}::text) else r end order by o), '[]'::jsonb)
        from jsonb_array_elements(rj.reasons) with ordinality as x(r, o))`;
  const where = [
    sql`rj.gallery_id = ${galleryId}`,
    sql`rj.rubric_key = ${segmentRubricKey(listId)}`,
    // A list without described_as has no rubric: whatever a former description left is not its judgments.
    sql`l.described`,
  ];
  if (contactId !== undefined) where.push(sql`rj.contact_id = ${contactId}`);
  if (page.after) {
    where.push(sql`rj.contact_id ${sql.raw(page.dir === "desc" ? "<" : ">")} ${page.after[1]}`);
  }
  const result = await db.execute<{
    rubric: string;
    body: string | null;
    id: string | null;
  }>(
    sql`select l.rubric, p.body, p.id from (
        select (${listRubricJson()})::text as rubric, (cl.dynamic_query ->> 'described_as') is not null as described
        from contact_lists cl left join lateral (${judgment(sql`cl.gallery_id`, "contact_list", sql`cl.id`, "rubric")}) lr on true
        where cl.gallery_id = ${galleryId} and cl.id = ${listId}) l
      left join lateral (
        select json_build_object('contact_id', rj.contact_id, 'verdict', rj.verdict,
            'probability', rj.probability, 'reasons', ${reasons}, 'model', rj.model,
            'judged_at', ${isoMs(sql`rj.judged_at`)})::text as body, rj.contact_id as id
        from rubric_judgments rj
        where ${sql.join(where, sql` and `)}
        order by rj.contact_id ${order}
        limit ${page.limit + 1}) p on true
      order by p.id ${order}`,
  );
  const first = result.rows[0];
  if (!first) return null;
  const rows = result.rows
    .filter((row): row is typeof row & { body: string; id: string } => row.id !== null)
    .map((row) => ({ body: row.body, sort_key: row.id, id: row.id }));
  return { rubric: first.rubric, rows };
}
