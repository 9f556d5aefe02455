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
  expectLeases,
  type FailedSubject,
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
import { errorSummary } from "../../lib/dependency-failure";
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
 * already, or leased by another consumer, which finishes it or whose lease lapses into the sweep).
 *
 * Failures are kept to what failed (docs/decisions.md, "The engine loop survives its failures"): a subject whose
 * judge throws is recorded failed in the write-back's own round trip (its error, when; the claim counted the
 * attempt) and its messages retried, while the other subjects of the group are judged and finished. A group that
 * fails as a whole (the database unreachable, a lease that lapsed under a slow write-back) records the error on
 * its subjects when it can and retries its messages (Queue max_retries, then the dead-letter queue; the subjects
 * stay stale for the sweep either way).
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
  /** Subjects whose judging threw: recorded failed, their messages retried. */
  failed: number;
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
  /** The subjects whose judging threw (`kind:subject_id`). */
  failed: Set<string>;
  continuations: EngineMessage[];
}

/**
 * Points where the test suites inject a fault into a real run (test/engine/faults.test.ts); the Worker passes
 * none. Nothing here stands in for the database or the Queue.
 */
export interface EngineFaultHooks {
  /** Called as each claimed subject's judging starts: what it throws is that subject's failure. */
  judging?: (subject: SubjectRef) => void;
  /** Awaited once a group is judged, before its write-back is sent. */
  beforeWriteBack?: (galleryId: string) => Promise<void>;
}

export interface EngineBatchOptions {
  now?: Date;
  /** How long a claim holds its subjects (LEASE_SECONDS). */
  leaseSeconds?: number;
  hooks?: EngineFaultHooks;
}

const subjectKey = (kind: string, subjectId: string) => `${kind}:${subjectId}`;

/** Runs one batch: every gallery's group side by side. Never throws; each message is acked or retried. */
export async function handleEngineBatch(
  batch: MessageBatch<unknown>,
  env: EngineEnv,
  options: EngineBatchOptions = {},
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
  const result: EngineBatchResult = { judged: 0, failed: 0, skipped: 0, retried: 0, continuations: [] };
  await Promise.all(
    [...groups].map(async ([galleryId, group]) => {
      let outcome: GroupOutcome;
      try {
        outcome = await judgeGroup(db, galleryId, group.parsed, options.now ?? new Date(), options);
      } catch (error) {
        console.error(
          JSON.stringify({
            engine: "gallery group failed",
            gallery_id: galleryId,
            error: errorSummary(error),
          }),
        );
        result.retried += group.messages.length;
        for (const message of group.messages) message.retry();
        return;
      }
      result.judged += outcome.judged;
      result.failed += outcome.failed.size;
      result.skipped += outcome.skipped;
      group.messages.forEach((message, i) => {
        const m = group.parsed[i] as EngineMessage;
        if (outcome.failed.has(subjectKey(m.kind, m.subject_id))) {
          result.retried += 1;
          message.retry();
        } else message.ack();
      });
      if (outcome.continuations.length === 0) return;
      if (!env.ENGINE_QUEUE) {
        result.continuations.push(...outcome.continuations);
        return;
      }
      // The write-back committed: a refused send loses nothing (the released list and the re-marked subjects
      // are stale in the database, and the sweep sends them), so it is logged, not retried.
      await sendMessages(env.ENGINE_QUEUE, outcome.continuations).catch((error) =>
        console.error(
          JSON.stringify({
            engine: "continuation send failed; left to the sweep",
            gallery_id: galleryId,
            count: outcome.continuations.length,
            error: errorSummary(error),
          }),
        ),
      );
    }),
  );
  return result;
}

type Rows<T> = { rows: T[] };

/**
 * Claims, loads, judges and writes back one gallery's subjects. Throws when the group fails as a whole, having
 * recorded the error on the subjects it claimed when the database lets it.
 */
export async function judgeGroup(
  db: Db,
  galleryId: string,
  messages: EngineMessage[],
  now: Date,
  options: Pick<EngineBatchOptions, "leaseSeconds" | "hooks"> = {},
): Promise<GroupOutcome> {
  const unique = new Map<string, SubjectRef>();
  const after = new Map<string, { contact_id: string; version: number }>();
  for (const m of messages) {
    unique.set(subjectKey(m.kind, m.subject_id), { kind: m.kind, subjectId: m.subject_id });
    if (m.after) after.set(m.subject_id, m.after);
  }
  const { claimed, livemode } = await claimSubjects(
    db,
    galleryId,
    [...unique.values()],
    options.leaseSeconds ?? LEASE_SECONDS,
  );
  if (claimed.length === 0) return { judged: 0, skipped: unique.size, failed: new Set(), continuations: [] };
  try {
    return await judgeClaimed(db, galleryId, claimed, livemode, after, now, options.hooks ?? {}, unique.size);
  } catch (error) {
    const reason = errorSummary(error);
    await db
      .execute(
        failSubjects(
          galleryId,
          claimed.map((claim) => ({ claim, error: reason })),
        ),
      )
      .catch(() => undefined);
    throw error;
  }
}

/** Judges the claimed subjects, each on its own, and writes them back in one round trip. */
async function judgeClaimed(
  db: Db,
  galleryId: string,
  claimed: ClaimedSubject[],
  livemode: boolean,
  after: Map<string, { contact_id: string; version: number }>,
  now: Date,
  hooks: EngineFaultHooks,
  wanted: number,
): Promise<GroupOutcome> {
  const outcome: GroupOutcome = {
    judged: 0,
    skipped: wanted - claimed.length,
    failed: new Set(),
    continuations: [],
  };

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
  const gone: ClaimedSubject[] = [];
  const released: ClaimedSubject[] = [];
  const failed: FailedSubject[] = [];
  const claims = new Map(claimed.map((c) => [subjectKey(c.kind, c.subjectId), c]));

  /**
   * Judges one subject into a write-back of its own, merged only if its judging completes: a subject whose judge
   * throws adds nothing half-done and is recorded failed; the others go on.
   */
  const attempt = async (
    kind: SubjectRef["kind"],
    id: string,
    work: (own: WriteBack) => Promise<void> | void,
  ) => {
    const claim = claims.get(subjectKey(kind, id)) as ClaimedSubject;
    const own = emptyWriteBack();
    try {
      hooks.judging?.({ kind, subjectId: id });
      await work(own);
    } catch (error) {
      const reason = errorSummary(error);
      console.error(
        JSON.stringify({ engine: "subject failed", gallery_id: galleryId, kind, id, error: reason }),
      );
      failed.push({ claim, error: reason });
      return false;
    }
    for (const key of Object.keys(out) as (keyof WriteBack)[]) (out[key] as unknown[]).push(...own[key]);
    return true;
  };

  const found = <T extends { id: string }>(kind: SubjectRef["kind"], rows: T[]) => {
    const ids = new Set(rows.map((r) => r.id));
    for (const c of claimed) if (c.kind === kind && !ids.has(c.subjectId)) gone.push(c);
    return rows;
  };
  const judgedArtworks: string[] = [];
  for (const row of found("artwork", rowsOf<ArtworkInputRow>("artworks")))
    if (await attempt("artwork", row.id, (own) => judgeArtwork(row, own))) judgedArtworks.push(row.id);
  const adjustment = rowsOf<{ adjustment: IntentAdjustment }>("triage_adjustment")[0]?.adjustment ?? null;
  for (const row of found("inbox_thread", rowsOf<ThreadInputRow>("threads")))
    await attempt("inbox_thread", row.id, (own) => judgeThread(row, actor, own, adjustment));
  for (const row of found("show", rowsOf<ShowInputRow>("shows")))
    await attempt("show", row.id, (own) => judgeShow(row, actor, at, own));

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
    const claim = claims.get(subjectKey("contact_list", list.id)) as ClaimedSubject;
    let next: EngineMessage | null = null;
    const judged = await attempt("contact_list", list.id, async (own) => {
      const reading = readingOf(list);
      const from = after.get(list.id);
      const resume = from && from.version === claim.version ? from.contact_id : null;
      if (resume === null) {
        const judgment = await listReadingJudgment(list.id, list.described_as, reading, list.hash);
        if (judgment) own.judgments.push(judgment);
      }
      if (!reading.readable) {
        // An unreadable rubric judges no one: its earlier verdicts go, so the filter matches neither value.
        own.unjudged.push({ rubric_key: rubricKey(list.id), contact_id: null });
        return;
      }
      const page = await contactPage(db, galleryId, resume, LIST_PAGE_SIZE);
      judgeContacts(list.id, reading, await loadContactProfiles(db, galleryId, page), now, own);
      const last = page[page.length - 1];
      if (page.length === LIST_PAGE_SIZE && last !== undefined) {
        next = {
          gallery_id: galleryId,
          kind: "contact_list",
          subject_id: list.id,
          after: { contact_id: last, version: claim.version },
        };
      }
    });
    if (judged && next) {
      released.push(claim);
      outcome.continuations.push(next);
    }
  }
  const present: string[] = [];
  const contactRows = contactIds.length > 0 ? found("contact", rowsOf<{ id: string }>("contacts")) : [];
  if (contactRows.length > 0) {
    const profiles = await loadContactProfiles(
      db,
      galleryId,
      contactRows.map((r) => r.id),
    );
    for (const profile of profiles) {
      const judged = await attempt("contact", profile.id, (own) => {
        for (const list of rowsOf<RubricListRow>("rubrics")) {
          const reading = readingOf(list);
          if (reading.readable) judgeContacts(list.id, reading, [profile], now, own);
        }
      });
      if (judged) present.push(profile.id);
    }
    // A contact without a profile (none loaded) is judged against nothing, as before.
    const profiled = new Set(profiles.map((p) => p.id));
    for (const row of contactRows)
      if (!profiled.has(row.id) && (await attempt("contact", row.id, () => undefined))) present.push(row.id);
  }

  // Matches: a contact's judged in full; a work's pairs made inactive, or its contacts marked to be judged again.
  const [contactMatches, artworkMatches] = await Promise.all([
    judgeContactMatches(db, galleryId, present, now),
    judgeArtworkMatches(db, galleryId, judgedArtworks, new Set(present)),
  ]);
  for (const part of [contactMatches, artworkMatches]) {
    out.statements.push(...part.statements);
    outcome.continuations.push(...part.continuations);
  }

  const settled = new Set([...released, ...gone, ...failed.map((f) => f.claim)]);
  for (const c of claimed) if (!settled.has(c)) done.push(c);

  // One round trip: the claims still held, every judgment, denormalised value, show tag, event and the
  // subjects' new state (finished, released, forgotten or failed).
  const writes: SQLWrapper[] = [expectLeases(galleryId, claimed)];
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
  if (failed.length > 0) writes.push(failSubjects(galleryId, failed));
  await hooks.beforeWriteBack?.(galleryId);
  await db.batch(writes.map((w) => db.execute(w)) as [ReturnType<typeof db.execute>]);

  outcome.judged = done.length;
  outcome.skipped += gone.length;
  for (const f of failed) outcome.failed.add(subjectKey(f.claim.kind, f.claim.subjectId));
  return outcome;
}
