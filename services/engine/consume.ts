import type { SQL, SQLWrapper } from "drizzle-orm";
import { type Db, httpDb } from "../../db/client";
import {
  type ArtworkInputRow,
  artworkInputs,
  type ClaimedSubject,
  claimSubjects,
  contactPage,
  deleteJudgments,
  deleteRubricJudgments,
  existingContacts,
  failSubjects,
  finishSubjects,
  forgetSubjects,
  type RubricListRow,
  releaseSubjects,
  rubricLists,
  type ShowInputRow,
  type SubjectRef,
  setArtworkJudgments,
  setThreadTriage,
  showInputs,
  type ThreadInputRow,
  threadInputs,
  upsertJudgments,
  upsertRubricJudgments,
} from "../../db/queries/engine";
import { loadContactProfiles } from "../../db/queries/engine-profiles";
import { triageAdjustmentOf } from "../../db/queries/engine-triage";
import { eventInsert } from "../../db/queries/outbox";
import type { IntentAdjustment } from "../../lib/engine/adjustment";
import { readRubric } from "../../lib/engine/rubric";
import { TRIAGE_MODEL } from "../../lib/engine/triage-judge";
import type { RubricReading } from "../../lib/engine/types";
import { type EngineMessage, parseEngineMessage } from "../../lib/engine-queue";
import type { Env } from "../../lib/env";
import { sendMessages } from "./enqueue";
import {
  emptyWriteBack,
  judgeArtwork,
  judgeContacts,
  judgeShow,
  judgeThread,
  listReadingJudgment,
  rubricKey,
  type WriteBack,
} from "./judge";
import { judgeArtworkMatches, judgeContactMatches } from "./matches";

/**
 * The engine Worker's queue handler (functions/engine/index.ts): a batch's messages grouped by gallery, and for
 * each gallery three or four round trips whatever the batch holds — claim, load, (contact profiles,) write
 * back. A message is acked once its gallery's write-back committed, or when its subject needs nothing (judged
 * already, or leased by another consumer, which finishes it or whose lease lapses into the sweep); a failed
 * group is retried (Queue max_retries, then the dead-letter queue; the subject stays stale for the sweep).
 */

export type EngineEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT" | "ENGINE_QUEUE">;

/** How long a claim holds a subject: well beyond one group's judging, short enough that a dead consumer's work
 * returns to the sweep within a minute or two. */
export const LEASE_SECONDS = 60;

/** Contacts judged per message of a contact_list (its next page is a message of its own). */
export const LIST_PAGE_SIZE = 500;

export interface EngineBatchResult {
  /** Subjects judged and finished. */
  judged: number;
  /** Messages whose subject needed nothing: already judged, gone, or leased elsewhere. */
  skipped: number;
  /** Messages retried because their gallery's work failed. */
  retried: number;
  /** Next pages of contact lists, enqueued (or, without a Queue binding, returned for the caller to send). */
  continuations: EngineMessage[];
}

interface GroupOutcome {
  judged: number;
  skipped: number;
  continuations: EngineMessage[];
}

/** Runs one batch: every gallery's group side by side. Never throws; each message is acked or retried. */
export async function handleEngineBatch(
  batch: MessageBatch<unknown>,
  env: EngineEnv,
  options: { now?: Date } = {},
): Promise<EngineBatchResult> {
  const db = httpDb(env);
  const groups = new Map<string, { messages: Message<unknown>[]; parsed: EngineMessage[] }>();
  for (const message of batch.messages) {
    const parsed = parseEngineMessage(message.body);
    if (!parsed) {
      console.error(JSON.stringify({ engine: "malformed message dropped", id: message.id }));
      message.ack();
      continue;
    }
    const group = groups.get(parsed.gallery_id) ?? { messages: [], parsed: [] };
    group.messages.push(message);
    group.parsed.push(parsed);
    groups.set(parsed.gallery_id, group);
  }
  const result: EngineBatchResult = { judged: 0, skipped: 0, retried: 0, continuations: [] };
  await Promise.all(
    [...groups].map(async ([galleryId, group]) => {
      try {
        const outcome = await judgeGroup(db, galleryId, group.parsed, options.now ?? new Date());
        result.judged += outcome.judged;
        result.skipped += outcome.skipped;
        if (outcome.continuations.length > 0) {
          if (env.ENGINE_QUEUE) await sendMessages(env.ENGINE_QUEUE, outcome.continuations);
          else result.continuations.push(...outcome.continuations);
        }
        for (const message of group.messages) message.ack();
      } catch (error) {
        const reason = String(error).slice(0, 500);
        console.error(
          JSON.stringify({ engine: "gallery group failed", gallery_id: galleryId, error: reason }),
        );
        const refs = group.parsed.map((m) => ({ kind: m.kind, subjectId: m.subject_id }));
        await failSubjects(db, galleryId, refs, reason).catch(() => undefined);
        result.retried += group.messages.length;
        for (const message of group.messages) message.retry();
      }
    }),
  );
  return result;
}

type Rows<T> = { rows: T[] };

/** Claims, loads, judges and writes back one gallery's subjects. */
export async function judgeGroup(
  db: Db,
  galleryId: string,
  messages: EngineMessage[],
  now: Date,
): Promise<GroupOutcome> {
  const unique = new Map<string, SubjectRef>();
  const after = new Map<string, { contact_id: string; version: number }>();
  for (const m of messages) {
    unique.set(`${m.kind}:${m.subject_id}`, { kind: m.kind, subjectId: m.subject_id });
    if (m.after) after.set(m.subject_id, m.after);
  }
  const { claimed, livemode } = await claimSubjects(db, galleryId, [...unique.values()], LEASE_SECONDS);
  const outcome: GroupOutcome = { judged: 0, skipped: unique.size - claimed.length, continuations: [] };
  if (claimed.length === 0) return outcome;

  const idsOf = (kind: SubjectRef["kind"]) => claimed.filter((c) => c.kind === kind).map((c) => c.subjectId);
  const artworkIds = idsOf("artwork");
  const threadIds = idsOf("inbox_thread");
  const showIds = idsOf("show");
  const listIds = idsOf("contact_list");
  const contactIds = idsOf("contact");

  // One round trip for every kind's inputs.
  const loads: { name: string; query: SQL }[] = [];
  if (artworkIds.length > 0) loads.push({ name: "artworks", query: artworkInputs(galleryId, artworkIds) });
  if (threadIds.length > 0) {
    loads.push({ name: "threads", query: threadInputs(galleryId, threadIds) });
    // The gallery's own triage adjustment, once for all its threads (lib/engine/adjustment.ts).
    loads.push({ name: "triage_adjustment", query: triageAdjustmentOf(galleryId, TRIAGE_MODEL) });
  }
  if (showIds.length > 0) loads.push({ name: "shows", query: showInputs(galleryId, showIds) });
  if (listIds.length > 0) loads.push({ name: "lists", query: rubricLists(galleryId, listIds) });
  if (contactIds.length > 0) {
    loads.push({ name: "rubrics", query: rubricLists(galleryId, null) });
    loads.push({ name: "contacts", query: existingContacts(galleryId, contactIds) });
  }
  const results = (await db.batch(
    loads.map((l) => db.execute(l.query)) as [ReturnType<typeof db.execute>],
  )) as unknown as Rows<unknown>[];
  const loaded = new Map(loads.map((l, i) => [l.name, results[i]?.rows ?? []]));
  const rowsOf = <T>(name: string) => (loaded.get(name) ?? []) as T[];

  const at = now.toISOString();
  const actor = { galleryId, livemode };
  const out: WriteBack = emptyWriteBack();
  const done: ClaimedSubject[] = [];
  const gone: SubjectRef[] = [];
  const released: SubjectRef[] = [];

  const found = <T extends { id: string }>(kind: SubjectRef["kind"], rows: T[]) => {
    const ids = new Set(rows.map((r) => r.id));
    for (const c of claimed) if (c.kind === kind && !ids.has(c.subjectId)) gone.push(c);
    return rows;
  };
  const foundArtworks = found("artwork", rowsOf<ArtworkInputRow>("artworks"));
  for (const row of foundArtworks) await judgeArtwork(row, out);
  const adjustment = rowsOf<{ adjustment: IntentAdjustment }>("triage_adjustment")[0]?.adjustment ?? null;
  for (const row of found("inbox_thread", rowsOf<ThreadInputRow>("threads")))
    await judgeThread(row, actor, out, adjustment);
  for (const row of found("show", rowsOf<ShowInputRow>("shows"))) await judgeShow(row, actor, at, out);

  // Rubrics: each list read once; contacts judged against every readable one.
  const readings = new Map<string, RubricReading>();
  const readingOf = (list: RubricListRow) => {
    let reading = readings.get(list.id);
    if (!reading) {
      reading = readRubric(list.described_as, now);
      readings.set(list.id, reading);
    }
    return reading;
  };
  for (const list of found("contact_list", rowsOf<RubricListRow>("lists"))) {
    const claim = claimed.find((c) => c.kind === "contact_list" && c.subjectId === list.id) as ClaimedSubject;
    const reading = readingOf(list);
    const from = after.get(list.id);
    const resume = from && from.version === claim.version ? from.contact_id : null;
    if (resume === null) {
      const judgment = await listReadingJudgment(list.id, list.described_as, reading, list.hash);
      if (judgment) out.judgments.push(judgment);
    }
    if (!reading.readable) {
      // An unreadable rubric judges no one: its earlier verdicts go, so the filter matches neither value.
      out.unjudged.push({ rubric_key: rubricKey(list.id), contact_id: null });
      continue;
    }
    const page = await contactPage(db, galleryId, resume, LIST_PAGE_SIZE);
    judgeContacts(list.id, reading, await loadContactProfiles(db, galleryId, page), now, out);
    const last = page[page.length - 1];
    if (page.length === LIST_PAGE_SIZE && last !== undefined) {
      released.push(claim);
      outcome.continuations.push({
        gallery_id: galleryId,
        kind: "contact_list",
        subject_id: list.id,
        after: { contact_id: last, version: claim.version },
      });
    }
  }
  const present =
    contactIds.length > 0 ? found("contact", rowsOf<{ id: string }>("contacts")).map((r) => r.id) : [];
  if (present.length > 0) {
    const profiles = await loadContactProfiles(db, galleryId, present);
    for (const list of rowsOf<RubricListRow>("rubrics")) {
      const reading = readingOf(list);
      if (reading.readable) judgeContacts(list.id, reading, profiles, now, out);
    }
  }

  // Matches: a contact's judged in full; a work's pairs made inactive, or its contacts marked to be judged again.
  const [contactMatches, artworkMatches] = await Promise.all([
    judgeContactMatches(db, galleryId, present, now),
    judgeArtworkMatches(
      db,
      galleryId,
      foundArtworks.map((r) => r.id),
      new Set(present),
    ),
  ]);
  for (const part of [contactMatches, artworkMatches]) {
    out.statements.push(...part.statements);
    outcome.continuations.push(...part.continuations);
  }

  const releasedKeys = new Set(released.map((r) => `${r.kind}:${r.subjectId}`));
  const goneKeys = new Set(gone.map((r) => `${r.kind}:${r.subjectId}`));
  for (const c of claimed) {
    const key = `${c.kind}:${c.subjectId}`;
    if (!releasedKeys.has(key) && !goneKeys.has(key)) done.push(c);
  }

  // One round trip: every judgment, denormalised value, show tag, event and the subjects' new state.
  const writes: SQLWrapper[] = [];
  if (out.judgments.length > 0) writes.push(upsertJudgments(galleryId, out.judgments, at));
  if (out.artworks.length > 0) writes.push(setArtworkJudgments(galleryId, out.artworks, at));
  if (out.threads.length > 0) writes.push(setThreadTriage(galleryId, out.threads, at));
  // A contact judged both as a subject and on its list's page is one verdict (one upsert may touch a row once).
  const rubrics = [...new Map(out.rubrics.map((r) => [`${r.rubric_key} ${r.contact_id}`, r])).values()];
  if (out.unjudged.length > 0) writes.push(deleteRubricJudgments(galleryId, out.unjudged));
  if (rubrics.length > 0) writes.push(upsertRubricJudgments(galleryId, rubrics, at));
  writes.push(...out.statements);
  for (const event of out.events) writes.push(eventInsert({ ...actor, credentialId: null }, null, event));
  if (gone.length > 0) {
    writes.push(deleteJudgments(galleryId, gone));
    writes.push(forgetSubjects(galleryId, gone));
  }
  if (released.length > 0) writes.push(releaseSubjects(galleryId, released));
  if (done.length > 0) writes.push(finishSubjects(galleryId, done));
  await db.batch(writes.map((w) => db.execute(w)) as [ReturnType<typeof db.execute>]);

  outcome.judged = done.length;
  outcome.skipped += gone.length;
  return outcome;
}
