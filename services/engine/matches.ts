import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type ArtworkMatchStateRow,
  activePairsOnUnavailable,
  artworkMatchStates,
  type CandidateLookup,
  candidateWorks,
  deleteMatches,
  insertMatchEvents,
  type MatchContactRow,
  type MatchEventRow,
  type MatchModelRow,
  type MatchUpsertRow,
  markStale,
  matchContactInputs,
  matchModelOf,
  reverseCandidateContacts,
  type StoredMatchRow,
  setMatchMedia,
  setMatchStates,
  storedMatchesOfContacts,
  upsertMatches,
} from "../../db/queries/engine-matches";
import { textArray } from "../../db/queries/rows";
import { sha256Hex } from "../../lib/crypto";
import { isCalibrationMap } from "../../lib/engine/calibration";
import {
  candidateQuery,
  GLOBAL_MATCH_CALIBRATION,
  MATCH_MODEL_NAME,
  matchContact,
  mediumWords,
  PRIOR_MATCH_MODEL,
  reasonsOf,
} from "../../lib/engine/matcher";
import type { MatchJudgment, MatchModel, MatchWork } from "../../lib/engine/types";
import type { EngineMessage } from "../../lib/engine-queue";
import { newId } from "../../lib/ids";
import { RECOMMENDATION_FLOOR } from "../../lib/schemas/matches";

/**
 * The matcher in the engine loop (docs/decisions.md, "The matcher in the loop"). For a batch of contacts: their
 * inputs, stored pairs and the gallery's model in one round trip, their candidate works by indexed lookups in a
 * second, judged by lib/engine/matcher.ts, and the write-back as statements and events for the group's one
 * write-back batch. For a batch of works: the pairs of a work no longer available go inactive at once; for a work
 * that is (new, back, re-priced, re-described), the contacts it may suit are marked to be judged again, a bounded
 * number per work, as subjects of their own (their messages are the group's continuations).
 */

/** What a batch adds to its group's write-back. */
export interface MatchWriteBack {
  /** In order; the batch's match events last, in one statement that reads the pairs as written. */
  statements: SQL[];
  /** Subjects marked for judging again (contacts for a work; a work whose pairs are taken a batch at a time). */
  continuations: EngineMessage[];
  /** Pairs judged (judgments computed), for the bench. */
  pairs: number;
}

/** Running totals of this isolate (read by bench/matches.ts): contacts judged, candidate pairs judged. */
export const matchCounters = { contacts: 0, pairsJudged: 0 };

export function emptyMatchWriteBack(): MatchWriteBack {
  return { statements: [], continuations: [], pairs: 0 };
}

/** Contacts marked again per work whose facts changed (stored pairs first, then artist, then medium family). */
export const REVERSE_CONTACTS_PER_WORK = 200;
/** Active pairs made inactive per batch of unavailable works; the rest in the next message. */
export const INACTIVE_PAIRS_PER_BATCH = 1000;

type Rows<T> = { rows: T[] };

const pairKey = (contactId: string, artworkId: string, model: string) => `${contactId} ${artworkId} ${model}`;

const visible = (p: number) => p >= RECOMMENDATION_FLOOR;

/**
 * The gallery's fitted model with its calibration, or the prior. A row fitted before calibration maps were
 * stored (its `calibration` a reliability table) takes the global map until its next fit.
 */
export function modelOf(row: MatchModelRow | undefined): MatchModel {
  if (!row) return PRIOR_MATCH_MODEL;
  const stored = row.calibration;
  return {
    model: row.model as MatchModel["model"],
    bias: Number(row.bias),
    weights: { ...PRIOR_MATCH_MODEL.weights, ...row.weights },
    examples: row.examples,
    positives: row.positives,
    ...(row.affinity ? { affinity: row.affinity } : {}),
    calibration: isCalibrationMap(stored)
      ? { method: stored.method, points: stored.points, outcomes: stored.outcomes }
      : GLOBAL_MATCH_CALIBRATION,
  };
}

/** "Title — Artist": the matched work as a member reads it. */
export function counterpartName(work: MatchWork): string {
  const title = work.title ?? "Untitled";
  return work.artistName ? `${title} — ${work.artistName}` : title;
}

/**
 * Judges the matches of a batch of contacts (each one in full: every candidate, every stored pair). Two round
 * trips whatever the batch holds; the writes come back for the caller's batch.
 */
export async function judgeContactMatches(
  db: Db,
  galleryId: string,
  contactIds: string[],
  now: Date,
): Promise<MatchWriteBack> {
  const out = emptyMatchWriteBack();
  const ids = [...new Set(contactIds)];
  if (ids.length === 0) return out;

  const [inputs, stored, models] = (await db.batch([
    db.execute(matchContactInputs(galleryId, ids)),
    db.execute(storedMatchesOfContacts(galleryId, ids)),
    db.execute(matchModelOf(galleryId)),
  ])) as unknown as [Rows<{ body: string }>, Rows<StoredMatchRow>, Rows<MatchModelRow>];
  const contacts = JSON.parse(inputs.rows[0]?.body ?? "[]") as MatchContactRow[];
  const model = modelOf(models.rows[0]);
  const storedBy = new Map<string, StoredMatchRow[]>();
  for (const row of stored.rows) {
    const list = storedBy.get(row.contact_id) ?? [];
    list.push({ ...row, probability: Number(row.probability) });
    storedBy.set(row.contact_id, list);
  }

  const states: { id: string; status: string; hidden_until: string | null; hidden_by: string | null }[] = [];
  const upserts: MatchUpsertRow[] = [];
  const deletes: string[] = [];
  const at = now.toISOString();

  const events: MatchEventRow[] = [];
  const updated = (row: StoredMatchRow, previous: Record<string, unknown>) =>
    events.push(eventOf("match.updated", row, null, previous));

  // Archived contacts are never recommended: their active pairs go inactive, nothing is judged.
  const lookups: CandidateLookup[] = [];
  const judged: MatchContactRow[] = [];
  for (const contact of contacts) {
    const pairs = storedBy.get(contact.id) ?? [];
    if (contact.archived) {
      for (const row of pairs) {
        if (row.status !== "active") continue;
        states.push({ id: row.id, status: "inactive", hidden_until: row.hidden_until, hidden_by: null });
        if (visible(row.probability)) updated(row, { status: row.status });
      }
      continue;
    }
    judged.push(contact);
    const query = candidateQuery(contact, now, model);
    // Stored pairs first (each must be judged or found unavailable), then the works named directly.
    const storedWorks = [...pairs].sort((a, b) => rank(a.status) - rank(b.status)).map((p) => p.artwork_id);
    lookups.push({
      c: contact.id,
      artists: query.artistIds,
      media: query.media,
      min: query.priceRange?.min ?? null,
      max: query.priceRange?.max ?? null,
      works: [...new Set([...storedWorks, ...query.artworkIds.slice(0, 200)])],
      tags: query.styleTags,
      names: query.artistNames,
      yfrom: query.periods.map((x) => x.from),
      yto: query.periods.map((x) => x.to),
    });
  }

  const candidates = new Map<string, MatchWork[]>();
  if (lookups.length > 0) {
    const result = await db.execute<{ contact_id: string; work: MatchWork }>(
      candidateWorks(galleryId, lookups),
    );
    for (const row of result.rows) {
      const list = candidates.get(row.contact_id) ?? [];
      list.push({
        ...row.work,
        priceCents: row.work.priceCents === null ? null : Number(row.work.priceCents),
      });
      candidates.set(row.contact_id, list);
    }
  }

  const modelHash = JSON.stringify([MATCH_MODEL_NAME, model]);
  for (const contact of judged) {
    const { archived: _archived, hides, ...input } = contact;
    const works = (candidates.get(contact.id) ?? []).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const judgments = matchContact(input, works, model, now);
    out.pairs += works.length;
    matchCounters.contacts += 1;
    matchCounters.pairsJudged += works.length;
    const contactHash = await sha256Hex(JSON.stringify([modelHash, input]));
    const workBy = new Map(works.map((w) => [w.id, w]));
    const hideBy = new Map(hides.map((h) => [h.artworkId, h]));
    const storedPairs = storedBy.get(contact.id) ?? [];
    const storedByKey = new Map(storedPairs.map((r) => [pairKey(r.contact_id, r.artwork_id, r.model), r]));
    const kept = new Set<string>();
    const dismissed = dismissedWorks(input.feedback);

    for (const j of judgments) {
      const work = workBy.get(j.artworkId);
      if (!work) continue;
      const key = pairKey(contact.id, j.artworkId, j.model);
      kept.add(key);
      const row = storedByKey.get(key);
      const hide = hideBy.get(j.artworkId);
      const hiddenUntil = hide?.hiddenUntil ?? null;
      const hiddenBy = hide?.memberId ?? null;
      const hash = await sha256Hex(`${contactHash} ${JSON.stringify(work)}`);
      // The judge drops dismissed pairs; should one come back, the member's say still holds.
      const status = dismissed.has(j.artworkId) ? "dismissed" : "active";
      if (!row || row.input_hash !== hash) {
        upserts.push(upsertRow(row?.id ?? newId("match"), j, work, status, hiddenUntil, hiddenBy, hash));
      } else if (row.status !== status || row.hidden_until !== hiddenUntil) {
        states.push({ id: row.id, status, hidden_until: hiddenUntil, hidden_by: hiddenBy });
      }
      if (!row) {
        if (visible(j.probability)) {
          const id = upserts[upserts.length - 1]!.id;
          events.push(
            eventOf("match.created", { id, contact_id: contact.id, artwork_id: j.artworkId, model: j.model }),
          );
        }
        continue;
      }
      const previous: Record<string, unknown> = {};
      if (row.status !== status && (visible(row.probability) || visible(j.probability)))
        previous.status = row.status;
      if (visible(row.probability) !== visible(j.probability)) previous.probability = row.probability;
      if (Object.keys(previous).length > 0) updated(row, previous);
    }

    // Stored pairs the judgment did not keep.
    for (const row of storedPairs) {
      if (kept.has(pairKey(row.contact_id, row.artwork_id, row.model))) continue;
      if (!workBy.has(row.artwork_id)) {
        // The work can no longer be matched (sold, reserved, unpublished): kept for its history, inactive.
        if (row.status === "active") {
          states.push({ id: row.id, status: "inactive", hidden_until: row.hidden_until, hidden_by: null });
          if (visible(row.probability)) updated(row, { status: row.status });
        }
      } else if (dismissed.has(row.artwork_id)) {
        if (row.status !== "dismissed") {
          states.push({ id: row.id, status: "dismissed", hidden_until: row.hidden_until, hidden_by: null });
          if (visible(row.probability)) updated(row, { status: row.status });
        }
      } else {
        deletes.push(row.id);
        if (visible(row.probability)) events.push(eventOf("match.deleted", row, row.body));
      }
    }
  }

  // The statements in order: the events that read a pair's JSON come after them in the group's batch.
  if (deletes.length > 0) out.statements.push(deleteMatches(galleryId, deletes));
  if (upserts.length > 0) out.statements.push(upsertMatches(galleryId, upserts, at));
  if (states.length > 0) out.statements.push(setMatchStates(galleryId, states));
  if (events.length > 0) out.statements.push(insertMatchEvents(galleryId, events));
  return out;
}

/** An event of the batch: its object read by pair key after the writes, unless given. */
function eventOf(
  type: MatchEventRow["type"],
  pair: { id: string; contact_id: string; artwork_id: string; model: string },
  object: MatchEventRow["object"] = null,
  previous: Record<string, unknown> | null = null,
): MatchEventRow {
  return {
    id: newId("evt"),
    type,
    resource_id: pair.id,
    contact_id: pair.contact_id,
    artwork_id: pair.artwork_id,
    model: pair.model,
    object,
    previous,
  };
}

/** Stored pairs read in this order for candidates: those that must be judged first. */
function rank(status: string): number {
  return status === "active" ? 0 : status === "dismissed" ? 1 : 2;
}

/** Works whose last say (not interested, unhide, good match) is "not interested". */
function dismissedWorks(feedback: MatchContactRow["feedback"]): Set<string> {
  const last = new Map<string, string>();
  const ordered = [...feedback].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  for (const f of ordered) if (f.action !== "hide") last.set(f.artworkId, f.action);
  return new Set([...last].filter(([, action]) => action === "not_interested").map(([id]) => id));
}

function upsertRow(
  id: string,
  j: MatchJudgment,
  work: MatchWork,
  status: string,
  hiddenUntil: string | null,
  hiddenBy: string | null,
  hash: string,
): MatchUpsertRow {
  return {
    id,
    contact_id: j.contactId,
    artwork_id: j.artworkId,
    model: j.model,
    counterpart_name: counterpartName(work),
    probability: j.probability,
    sub_scores: j.subScores,
    reasons: reasonsOf(j).map((e) => ({
      question: e.question,
      kind: e.kind,
      evidence_id: e.evidence_id,
      label: e.label,
      source_label: e.source_label,
      at: e.at,
    })),
    evidence_count: j.evidence.length,
    status,
    hidden_until: hiddenUntil,
    hidden_by: hiddenBy,
    input_hash: hash,
    evidence: j.evidence.map((e) => ({
      id: newId("mev"),
      question: e.question,
      kind: e.kind,
      label: e.label,
      source_label: e.source_label,
      at: e.at,
      evidence_ref: e.evidence_id,
    })),
  };
}

/**
 * The matches of a batch of works: a work that can no longer be matched has its active pairs made inactive at
 * once (INACTIVE_PAIRS_PER_BATCH a message; `match.updated` for visible ones); a work that can marks the contacts
 * it may suit for judging again (REVERSE_CONTACTS_PER_WORK each). Contacts judged in the same group
 * (`judging`) are left to their own judgment. Keeps each work's medium family for the candidate lookups.
 */
export async function judgeArtworkMatches(
  db: Db,
  galleryId: string,
  artworkIds: string[],
  judging: ReadonlySet<string>,
): Promise<MatchWriteBack> {
  const out = emptyMatchWriteBack();
  const ids = [...new Set(artworkIds)];
  if (ids.length === 0) return out;
  const [states, pairs] = (await db.batch([
    db.execute(artworkMatchStates(galleryId, ids)),
    db.execute(activePairsOnUnavailable(galleryId, ids, INACTIVE_PAIRS_PER_BATCH)),
  ])) as unknown as [Rows<ArtworkMatchStateRow>, Rows<StoredMatchRow>];

  const families: { id: string; family: string | null }[] = [];
  const available: { id: string; artist_id: string | null; family: string | null }[] = [];
  for (const row of states.rows) {
    const family = mediumWords(row.medium)[0] ?? null;
    if (family !== row.match_medium) families.push({ id: row.id, family });
    if (row.available) available.push({ id: row.id, artist_id: row.artist_id, family });
  }
  if (families.length > 0) out.statements.push(setMatchMedia(galleryId, families));

  const inactive = pairs.rows.filter((p) => !judging.has(p.contact_id));
  if (inactive.length > 0) {
    out.statements.push(
      sql`update recommendation_matches set status = 'inactive', updated_at = now()
        where gallery_id = ${galleryId} and status = 'active'
          and id = any(${textArray(inactive.map((p) => p.id))})`,
    );
    const events = inactive
      .filter((row) => visible(Number(row.probability)))
      .map((row) => eventOf("match.updated", row, null, { status: row.status }));
    if (events.length > 0) out.statements.push(insertMatchEvents(galleryId, events));
  }
  if (pairs.rows.length >= INACTIVE_PAIRS_PER_BATCH) {
    // More pairs than a batch takes: the works are marked again and the next message goes on.
    const more = [...new Set(pairs.rows.map((p) => p.artwork_id))];
    out.statements.push(markStale(galleryId, "artwork", more));
    for (const id of more) out.continuations.push({ gallery_id: galleryId, kind: "artwork", subject_id: id });
  }

  if (available.length > 0) {
    const reverse = await db.execute<{ artwork_id: string; contact_id: string }>(
      reverseCandidateContacts(galleryId, available, REVERSE_CONTACTS_PER_WORK),
    );
    const contacts = [...new Set(reverse.rows.map((r) => r.contact_id))]
      .filter((c) => !judging.has(c))
      .sort();
    if (contacts.length > 0) {
      out.statements.push(markStale(galleryId, "contact", contacts));
      for (const id of contacts)
        out.continuations.push({ gallery_id: galleryId, kind: "contact", subject_id: id });
    }
  }
  return out;
}
