import type { SQL } from "drizzle-orm";
import type {
  ArtworkInputRow,
  JudgmentRow,
  RubricRow,
  ShowInputRow,
  ThreadInputRow,
  ThreadTriageRow,
} from "../../db/queries/engine";
import { threadEventResource } from "../../db/queries/inbox";
import type { DomainEventInput } from "../../db/queries/outbox";
import { deleteShowTagStatement, insertShowTag, showTagResource } from "../../db/queries/show-tags";
import { sha256Hex } from "../../lib/crypto";
import type { IntentAdjustment } from "../../lib/engine/adjustment";
import { judgeDisclosure } from "../../lib/engine/disclosure-judge";
import { judgeReadiness } from "../../lib/engine/readiness";
import { judgeRubric } from "../../lib/engine/rubric";
import { SHOW_TAGS_MODEL, suggestShowTags } from "../../lib/engine/show-tags";
import { judgeTriage } from "../../lib/engine/triage-judge";
import type {
  Channel,
  ContactProfile,
  ReadinessInput,
  RubricReading,
  ShowWorkFacts,
  TriageMessage,
} from "../../lib/engine/types";
import { newId } from "../../lib/ids";
import { MAX_TAGS_PER_SHOW, showTagFacets } from "../../lib/schemas/shows";
import { changeEvent, guarded } from "../write";

/**
 * Each kind's judging, from inputs as loaded (db/queries/engine.ts) to the rows, statements and events of the
 * write-back. Pure but for hashing: no round trips here. A judgment whose input hash is the stored one writes
 * nothing, so judging the same input twice writes once and records one event.
 */

/** The hash a judgment is stored with: the judge's model and everything it read, so a new model re-judges. */
export function inputHash(model: string, input: unknown): Promise<string> {
  return sha256Hex(JSON.stringify([model, input]));
}

/** What one gallery's write-back gathers. */
export interface WriteBack {
  judgments: JudgmentRow[];
  artworks: { id: string; readiness: string; disclosure: boolean }[];
  threads: ThreadTriageRow[];
  rubrics: RubricRow[];
  unjudged: { rubric_key: string; contact_id: string | null }[];
  /** Statements in order (show tags), before the events. */
  statements: SQL[];
  events: DomainEventInput[];
}

export function emptyWriteBack(): WriteBack {
  return { judgments: [], artworks: [], threads: [], rubrics: [], unjudged: [], statements: [], events: [] };
}

// ---------------------------------------------------------------------------------------------------------
// Artworks: readiness and disclosure

export async function judgeArtwork(row: ArtworkInputRow, out: WriteBack): Promise<void> {
  const readinessInput: ReadinessInput = {
    title: row.title,
    artistId: row.artist_id,
    artistName: row.artist_name,
    medium: row.medium,
    year: row.year,
    dateDisplay: row.date_display,
    description: row.description,
    heightCm: row.height_cm,
    widthCm: row.width_cm,
    depthCm: row.depth_cm,
    dimensionsText: row.dimensions_text,
    priceCents: row.price_cents === null ? null : Number(row.price_cents),
    // The schema keeps no "price on request" flag: an unpriced work is unpriced.
    priceOnRequest: false,
    currency: row.currency,
    imageCount: row.image_count,
    market: row.market,
    provenance: row.provenance,
    conditionNotes: row.condition_notes,
    inventoryNumber: row.inventory_number,
  };
  const readiness = judgeReadiness(readinessInput);
  const disclosure = judgeDisclosure(row.condition_notes);
  const readinessHash = await inputHash(readiness.model, readinessInput);
  const disclosureHash = await inputHash(disclosure.model, row.condition_notes);
  const stored = row.hashes ?? {};
  const changed = {
    readiness: stored.readiness !== readinessHash,
    disclosure: stored.disclosure !== disclosureHash,
  };
  if (changed.readiness) {
    out.judgments.push({
      subject_kind: "artwork",
      subject_id: row.id,
      aspect: "readiness",
      value: readiness.readiness,
      probability: readiness.probability,
      model: readiness.model,
      evidence: readiness,
      input_hash: readinessHash,
    });
  }
  if (changed.disclosure) {
    out.judgments.push({
      subject_kind: "artwork",
      subject_id: row.id,
      aspect: "disclosure",
      value: disclosure.disclosure,
      probability: disclosure.probability,
      model: disclosure.model,
      evidence: disclosure,
      input_hash: disclosureHash,
    });
  }
  if (changed.readiness || changed.disclosure) {
    out.artworks.push({ id: row.id, readiness: readiness.readiness, disclosure: disclosure.disclosure });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Inbox threads: triage of the last inbound message with its history

const TRIAGE_FIELDS = [
  "intent",
  "intent_probability",
  "urgency",
  "urgency_probability",
  "expects_reply",
  "escalating",
] as const;

/**
 * Judges the thread's last inbound message. A changed triage updates the thread's triage fields and triaged_at
 * (never corrected_intent, the member's) and records `inbox_thread.updated` with the sub-fields that changed.
 * `adjustment`: the gallery's own (lib/engine/adjustment.ts), named in the judgment's model, so a new one is a new
 * input hash; a thread is judged again with it when a change makes it stale, not because the adjustment moved.
 */
export async function judgeThread(
  row: ThreadInputRow,
  actor: { galleryId: string; livemode: boolean },
  out: WriteBack,
  adjustment: IntentAdjustment | null = null,
): Promise<void> {
  const judged = [...row.messages].reverse().find((m) => m.direction === "inbound");
  if (!judged) return;
  const messages: TriageMessage[] = row.messages.map((m) => ({
    direction: m.direction,
    body: m.body,
    subject: row.subject,
    sentAt: m.sent_at,
    fromName: m.from_name,
    fromAddress: m.from_address,
    // Only when it failed, so the input (and its hash) of every other message is as it was.
    ...(m.authentication_failed ? { authenticationFailed: true } : {}),
  }));
  const input = { channel: row.channel as Channel, messages, timeZone: null };
  const triage = judgeTriage(input, adjustment);
  const hash = await inputHash(triage.model, input);
  if (hash === row.hash) return;
  out.judgments.push({
    subject_kind: "inbox_thread",
    subject_id: row.id,
    aspect: "triage",
    value: triage.intent,
    probability: triage.intentProbability,
    model: triage.model,
    evidence: { ...triage, message_id: judged.id },
    input_hash: hash,
  });
  const next: ThreadTriageRow = {
    id: row.id,
    intent: triage.intent,
    intent_probability: triage.intentProbability,
    urgency: triage.urgency,
    urgency_probability: triage.urgencyProbability,
    expects_reply: triage.expectsReply,
    escalating: triage.escalating,
  };
  const before: Record<(typeof TRIAGE_FIELDS)[number], unknown> = {
    intent: row.triage_intent,
    intent_probability: row.triage_intent_probability,
    urgency: row.triage_urgency,
    urgency_probability: row.triage_urgency_probability,
    expects_reply: row.triage_expects_reply,
    escalating: row.triage_escalating,
  };
  const previous: Record<string, unknown> = {};
  for (const field of TRIAGE_FIELDS) if (before[field] !== next[field]) previous[field] = before[field];
  // Same values from a new input (another message, same reading): the judgment is stored, the thread stays.
  if (Object.keys(previous).length === 0) return;
  previous.triaged_at = row.triaged_at;
  out.threads.push(next);
  out.events.push(
    changeEvent(
      "inbox_thread.updated",
      "inbox_thread",
      row.id,
      threadEventResource.jsonById(actor.galleryId, row.id, {}),
      { triage: previous },
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Shows: suggested tags

/**
 * Suggests tags from the show's works: a name a member removed is never suggested again; a name the show has
 * already (manual, or suggested before) is left as it is; an earlier suggestion no longer suggested is removed
 * (a manual tag never is). Records `show_tag.created` / `show_tag.deleted` for what changed.
 */
export async function judgeShow(
  row: ShowInputRow,
  actor: { galleryId: string; livemode: boolean },
  at: string,
  out: WriteBack,
): Promise<void> {
  const works: ShowWorkFacts[] = row.works.map((w) => ({
    artworkId: w.artwork_id,
    artistName: w.artist_name,
    medium: w.medium,
    year: w.year,
    heightCm: w.height_cm,
    widthCm: w.width_cm,
    isEdition: w.is_edition,
    editionSize: w.edition_size,
    formats: w.formats,
  }));
  const suggestions = suggestShowTags(works);
  const model = SHOW_TAGS_MODEL;
  const removed = new Set(row.removed);
  const hash = await inputHash(model, { works, removed: [...removed].sort() });
  if (hash === row.hash) return;
  const kept = suggestions.filter((s) => !removed.has(s.name.trim().toLowerCase()));
  out.judgments.push({
    subject_kind: "show",
    subject_id: row.id,
    aspect: "show_tags",
    value: kept.map((s) => s.name),
    probability: kept.length > 0 ? Math.min(...kept.map((s) => s.probability)) : null,
    model,
    evidence: suggestions,
    input_hash: hash,
  });

  const keptNames = new Set(kept.map((s) => s.name.trim().toLowerCase()));
  const existing = new Set(row.tags.map((t) => t.tag.name.toLowerCase()));
  for (const { tag, updated_at } of row.tags) {
    if (tag.origin !== "ai_suggested" || keptNames.has(tag.name.toLowerCase())) continue;
    out.statements.push(guarded(deleteShowTagStatement(actor.galleryId, row.id, tag.id, updated_at)));
    out.events.push(changeEvent("show_tag.deleted", "show_tag", tag.id, tag, undefined, { show_id: row.id }));
    existing.delete(tag.name.toLowerCase());
  }
  let room = MAX_TAGS_PER_SHOW - existing.size;
  for (const suggestion of kept) {
    const name = suggestion.name.trim();
    if (room <= 0 || name === "" || existing.has(name.toLowerCase())) continue;
    const facet = (showTagFacets as readonly string[]).includes(suggestion.facet)
      ? suggestion.facet
      : "theme";
    const id = newId("stag");
    out.statements.push(
      insertShowTag(actor.galleryId, row.id, { id, name, color: "slate", facet, origin: "ai_suggested" }, at),
    );
    out.events.push(
      changeEvent(
        "show_tag.created",
        "show_tag",
        id,
        showTagResource.jsonById(actor.galleryId, id, {}),
        undefined,
        { show_id: row.id },
      ),
    );
    existing.add(name.toLowerCase());
    room -= 1;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Rubrics: a dynamic list's described_as against contacts

export function rubricKey(listId: string): string {
  return `segment:${listId}`;
}

/** Judges contacts against one readable rubric: a verdict is upserted, no verdict (profile lacks it) removed. */
export function judgeContacts(
  listId: string,
  reading: Extract<RubricReading, { readable: true }>,
  profiles: ContactProfile[],
  now: Date,
  out: WriteBack,
): void {
  const key = rubricKey(listId);
  for (const profile of profiles) {
    const verdict = judgeRubric(reading, profile, now);
    if (verdict === null) {
      out.unjudged.push({ rubric_key: key, contact_id: profile.id });
      continue;
    }
    out.rubrics.push({
      rubric_key: key,
      contact_id: profile.id,
      verdict: verdict.verdict,
      probability: verdict.probability,
      model: verdict.model,
      reasons: verdict.reasons,
    });
  }
}

/** The contact_list judgment (whether its described_as could be read), when its input changed. */
export async function listReadingJudgment(
  listId: string,
  describedAs: string,
  reading: RubricReading,
  storedHash: string | null,
): Promise<JudgmentRow | null> {
  const hash = await inputHash(reading.model, describedAs);
  if (hash === storedHash) return null;
  return {
    subject_kind: "contact_list",
    subject_id: listId,
    aspect: "rubric",
    value: { readable: reading.readable },
    probability: null,
    model: reading.model,
    evidence: reading,
    input_hash: hash,
  };
}
