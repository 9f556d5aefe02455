import { classifyMedium } from "./rubric-media";
import {
  MATCH_QUESTIONS,
  type MatchCandidateQuery,
  type MatchContact,
  type MatchEvidenceItem,
  type MatchJudgment,
  type MatchModel,
  type MatchQuestion,
  type MatchWork,
  type ModelName,
} from "./types";

/**
 * A minimal matcher with the judge's exported signatures: simple sub-scores, the prior as fixed weights. It
 * stands in for the full judge (sub-scores read from facts with negation, a model fitted on the gallery's
 * outcomes) so the engine loop, its write-back and its tests have a deterministic judge to run.
 */

export const MATCH_MODEL_NAME: ModelName = "matcher@1";

export const PRIOR_MATCH_MODEL: MatchModel = {
  model: MATCH_MODEL_NAME,
  bias: -3,
  weights: { medium: 1.5, artist: 2.5, price: 1, size: 0.3, period: 0.3, engagement: 2.5, recency: 0.5 },
  examples: 0,
  positives: 0,
};

export const MATCH_STORE_FLOOR = 0.2;
export const MAX_STORED_MATCHES = 50;
export const MAX_REASONS = 3;

const DAY = 86_400_000;

const familiesOf = new Map<string, string[]>();

export function mediumWords(medium: string | null): string[] {
  if (medium === null) return [];
  let families = familiesOf.get(medium);
  if (!families) {
    families = classifyMedium(medium).families;
    if (familiesOf.size > 10_000) familiesOf.clear();
    familiesOf.set(medium, families);
  }
  return families;
}

export function priceBandOf(cents: number | null): string | null {
  if (cents === null) return null;
  if (cents < 500_000) return "under_5k";
  if (cents < 2_500_000) return "5k_25k";
  if (cents < 10_000_000) return "25k_100k";
  return "over_100k";
}

const BAND_RANGE: Record<string, [number, number]> = {
  under_5k: [0, 500_000],
  "5k_25k": [500_000, 2_500_000],
  "25k_100k": [2_500_000, 10_000_000],
  over_100k: [10_000_000, Number.MAX_SAFE_INTEGER],
};

/** Works the contact's history points at directly, with the work and the evidence behind it. */
function touched(contact: MatchContact): { work: MatchWork; item: Omit<MatchEvidenceItem, "question"> }[] {
  const out: { work: MatchWork; item: Omit<MatchEvidenceItem, "question"> }[] = [];
  for (const p of contact.purchases) {
    if (p.work)
      out.push({
        work: p.work,
        item: {
          kind: "purchase",
          evidence_id: p.id,
          label: `Bought ${p.work.title ?? "a work"}${p.work.artistName ? ` by ${p.work.artistName}` : ""}`,
          source_label: "Sale",
          at: p.at,
          weight: 1,
        },
      });
  }
  for (const i of contact.interactions) {
    if (i.work)
      out.push({
        work: i.work,
        item: {
          kind: "interaction",
          evidence_id: i.id,
          label: `Asked about ${i.work.title ?? "a work"}${i.work.artistName ? ` by ${i.work.artistName}` : ""}`,
          source_label: `Interaction (${i.type})`,
          at: i.at,
          weight: 0.8,
        },
      });
  }
  for (const e of contact.engagements) {
    if (e.work)
      out.push({
        work: e.work,
        item: {
          kind: "engagement",
          evidence_id: e.id,
          label: `Engaged with ${e.work.title ?? "a work"} (${e.kind})`,
          source_label: "Engagement",
          at: e.at,
          weight: 0.6,
        },
      });
  }
  return out;
}

function priceRange(contact: MatchContact): { min: number; max: number } | null {
  const prices = contact.purchases.map((p) => p.priceCents).filter((c): c is number => c !== null);
  const band = contact.priceBand ?? priceBandOf(prices.length ? Math.max(...prices) : null);
  const range = band ? BAND_RANGE[band] : undefined;
  if (!range) return null;
  return { min: Math.floor(range[0] / 2), max: Math.min(Number.MAX_SAFE_INTEGER, range[1] * 2) };
}

export function candidateQuery(contact: MatchContact, _now: Date): MatchCandidateQuery {
  const works = touched(contact).map((t) => t.work);
  const media = new Set<string>();
  for (const w of works) for (const m of mediumWords(w.medium)) media.add(m);
  return {
    artistIds: [...new Set(works.map((w) => w.artistId).filter((a): a is string => a !== null))].sort(),
    media: [...media].sort(),
    priceRange: priceRange(contact),
    artworkIds: [
      ...new Set(
        [...contact.interactions, ...contact.engagements].flatMap((x) => (x.work ? [x.work.id] : [])),
      ),
    ].sort(),
  };
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

function predict(model: MatchModel, subScores: Record<MatchQuestion, number>): number {
  let z = model.bias;
  for (const q of MATCH_QUESTIONS) z += (model.weights[q] ?? 0) * subScores[q];
  return sigmoid(z);
}

export function judgeMatch(
  contact: MatchContact,
  work: MatchWork,
  model: MatchModel,
  now: Date,
): MatchJudgment {
  const history = touched(contact);
  const evidence: MatchEvidenceItem[] = [];
  const scores = Object.fromEntries(MATCH_QUESTIONS.map((q) => [q, 0])) as Record<MatchQuestion, number>;
  const families = new Set(mediumWords(work.medium));
  let newest = 0;
  for (const { work: w, item } of history) {
    const at = Date.parse(item.at ?? "") || 0;
    if (w.id === work.id) {
      scores.engagement = Math.max(scores.engagement, item.weight);
      evidence.push({ ...item, question: "engagement" });
      newest = Math.max(newest, at);
    } else if (work.artistId !== null && w.artistId === work.artistId) {
      scores.artist = Math.max(scores.artist, item.weight);
      evidence.push({ ...item, question: "artist" });
      newest = Math.max(newest, at);
    } else if (mediumWords(w.medium).some((m) => families.has(m))) {
      scores.medium = Math.max(scores.medium, item.weight * 0.8);
      evidence.push({ ...item, question: "medium", weight: item.weight * 0.8 });
      newest = Math.max(newest, at);
    }
  }
  const range = priceRange(contact);
  if (work.priceCents === null || range === null) scores.price = 0.5;
  else scores.price = work.priceCents >= range.min && work.priceCents <= range.max ? 1 : 0.1;
  scores.size = 0.5;
  scores.period = 0.5;
  if (newest > 0) scores.recency = Math.max(0, 1 - (now.getTime() - newest) / (365 * DAY));
  evidence.sort(
    (a, b) => b.weight - a.weight || (b.at ?? "").localeCompare(a.at ?? "") || a.label.localeCompare(b.label),
  );
  return {
    artworkId: work.id,
    contactId: contact.id,
    model: model.model,
    probability: Math.round(predict(model, scores) * 1e4) / 1e4,
    subScores: scores,
    evidence,
  };
}

/** The last feedback action on each work (feedback in order of `at`). */
function lastActions(contact: MatchContact): Map<string, string> {
  const last = new Map<string, string>();
  for (const f of [...contact.feedback].sort(
    (a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id),
  )) {
    if (f.action === "not_interested" || f.action === "unhide" || f.action === "good_match")
      last.set(f.artworkId, f.action);
  }
  return last;
}

export function matchContact(
  contact: MatchContact,
  candidates: MatchWork[],
  model: MatchModel,
  now: Date,
): MatchJudgment[] {
  const bought = new Set(contact.purchases.flatMap((p) => (p.work ? [p.work.id] : [])));
  const actions = lastActions(contact);
  const seen = new Set<string>();
  const out: MatchJudgment[] = [];
  for (const work of candidates) {
    if (seen.has(work.id) || bought.has(work.id) || actions.get(work.id) === "not_interested") continue;
    seen.add(work.id);
    const judgment = judgeMatch(contact, work, model, now);
    if (judgment.probability >= MATCH_STORE_FLOOR) out.push(judgment);
  }
  out.sort((a, b) => b.probability - a.probability || a.artworkId.localeCompare(b.artworkId));
  return out.slice(0, MAX_STORED_MATCHES);
}

export function trainingExamples(
  contacts: MatchContact[],
  works: MatchWork[],
  now: Date,
): { subScores: Record<MatchQuestion, number>; label: 0 | 1 }[] {
  const examples: { subScores: Record<MatchQuestion, number>; label: 0 | 1 }[] = [];
  for (const contact of contacts) {
    const bought = new Set(contact.purchases.flatMap((p) => (p.work ? [p.work.id] : [])));
    for (const p of contact.purchases) {
      if (!p.work) continue;
      const before = { ...contact, purchases: contact.purchases.filter((q) => q.at < p.at) };
      examples.push({ subScores: judgeMatch(before, p.work, PRIOR_MATCH_MODEL, now).subScores, label: 1 });
    }
    for (const work of works.slice(0, 5)) {
      if (bought.has(work.id)) continue;
      examples.push({ subScores: judgeMatch(contact, work, PRIOR_MATCH_MODEL, now).subScores, label: 0 });
    }
  }
  return examples;
}

export function fitMatchModel(
  examples: { subScores: Record<MatchQuestion, number>; label: 0 | 1 }[],
  prior: MatchModel = PRIOR_MATCH_MODEL,
): MatchModel {
  const positives = examples.filter((e) => e.label === 1).length;
  // The stand-in keeps the prior's weights and moves the bias towards the observed base rate.
  const rate = (positives + 1) / (examples.length + 2);
  const mean = examples.length
    ? examples.reduce((s, e) => s + predict(prior, e.subScores), 0) / examples.length
    : rate;
  const shift = Math.log(rate / (1 - rate)) - Math.log(mean / (1 - mean));
  const strength = examples.length / (examples.length + 50);
  return { ...prior, bias: prior.bias + shift * strength, examples: examples.length, positives };
}

export function reliabilityTable(
  pairs: { p: number; label: 0 | 1 }[],
  bins = 10,
): { bin: string; predicted: number; observed: number; n: number }[] {
  const out: { bin: string; predicted: number; observed: number; n: number }[] = [];
  for (let i = 0; i < bins; i++) {
    const lo = i / bins;
    const hi = (i + 1) / bins;
    const inBin = pairs.filter((x) => x.p >= lo && (i === bins - 1 ? x.p <= hi : x.p < hi));
    if (inBin.length === 0) continue;
    out.push({
      bin: `${lo.toFixed(1)}–${hi.toFixed(1)}`,
      predicted: inBin.reduce((s, x) => s + x.p, 0) / inBin.length,
      observed: inBin.reduce((s, x) => s + x.label, 0) / inBin.length,
      n: inBin.length,
    });
  }
  return out;
}
