import { type CalibrationMap, fitCalibration } from "../../lib/engine/calibration";
import {
  fitArtistAffinity,
  fitMatchCalibration,
  fitMatchModel,
  GLOBAL_MATCH_CALIBRATION,
  judgePrepared,
  type MatchExample,
  matchProbability,
  PRIOR_MATCH_MODEL,
  prepareContact,
  rawMatchProbability,
  trainingExamples,
} from "../../lib/engine/matcher";
import type { MatchContact, MatchModel, MatchWork } from "../../lib/engine/types";
import labelled from "../../test/engine/labelled/collectors.json";
import type { ScoreSection } from "./types";

/**
 * The matcher against the labelled collectors (test/engine/labelled/collectors.json; how it was made:
 * scripts/engine-score/matcher-collectors.ts). Each collector's last purchase is hidden. The model is fitted
 * on the `train` collectors' outcomes (their whole histories); the other splits are scored with it:
 * - ranking: at the moment before the hidden purchase, every work then available (in the inventory, not sold)
 *   is ranked by the matcher; recall@10 and MRR of the hidden work, beside two baselines in the same run (the
 *   most popular available works; works by the artist of the last purchase, newest first, then popular);
 * - probabilities: the collector's labelled outcomes (trainingExamples on its history including the hidden
 *   purchase) judged by the fitted model: Brier beside the base rate's constant, and the reliability table.
 * Splits: `tune` was looked at while building the judge; `holdout` was not (its first-sight figures, from the
 * first round, are in docs/decisions.md; the second round saw them only at its end); `hand` are the
 * hand-written histories. The fit step also learns the artist affinity from the train collectors
 * (fitArtistAffinity), as a gallery's fit step learns it from its contacts.
 */

interface Raw {
  id: string;
  name: string;
  /** The gallery whose catalogue it buys from: "g0" (collectors.json), or that of its collectors-g{n}.json. */
  gallery?: string;
  split: string;
  priceBand: string | null;
  facts: MatchContact["facts"];
  purchases: {
    id: string;
    at: string;
    priceCents: number | null;
    currency: string | null;
    artworkId: string;
  }[];
  interactions: {
    id: string;
    at: string;
    type: string;
    direction: string | null;
    summary: string | null;
    artworkId: string | null;
  }[];
  engagements: { id: string; at: string; kind: string; artworkId: string }[];
  feedback: MatchContact["feedback"];
  hidden: { id: string; at: string; artworkId: string };
}

export interface LabelledGallery {
  now: string;
  gallery?: string;
  works: MatchWork[];
  collectors: Raw[];
}
const data = labelled as unknown as LabelledGallery;
export const WORKS: MatchWork[] = [...data.works];
const workById = new Map(WORKS.map((w) => [w.id, w]));
const work = (id: string | null) => (id ? (workById.get(id) ?? null) : null);
const worksByGallery = new Map<string, MatchWork[]>([["g0", data.works]]);
const galleryOf = (c: Raw) => c.gallery ?? "g0";
const worksOf = (c: Raw) => worksByGallery.get(galleryOf(c)) ?? [];

/** A collector as the matcher sees it; `withHidden` adds the hidden purchase to its history. */
export function toContact(c: Raw, withHidden = false): MatchContact {
  const purchases = c.purchases.map((p) => ({
    id: p.id,
    at: p.at,
    priceCents: p.priceCents,
    currency: p.currency,
    work: work(p.artworkId),
  }));
  if (withHidden) {
    const w = work(c.hidden.artworkId);
    purchases.push({
      id: c.hidden.id,
      at: c.hidden.at,
      priceCents: w?.priceCents ?? null,
      currency: w?.currency ?? null,
      work: w,
    });
  }
  const spend = purchases.reduce((s, p) => s + (p.priceCents ?? 0), 0);
  return {
    id: c.id,
    name: c.name,
    priceBand: c.priceBand,
    totalSpendCents: spend || null,
    facts: c.facts,
    purchases,
    interactions: c.interactions.map((i) => ({ ...i, work: work(i.artworkId) })),
    engagements: c.engagements.map((e) => ({ id: e.id, at: e.at, kind: e.kind, work: work(e.artworkId) })),
    feedback: c.feedback,
  };
}

export const COLLECTORS: Raw[] = [...data.collectors];
const NOW = new Date(data.now);

/**
 * Adds further galleries (test/engine/labelled/collectors-g{n}.json, read by scripts/engine-score/
 * matcher-galleries.ts): their collectors join the splits, each buying from its own gallery's catalogue.
 */
export function addGalleries(galleries: LabelledGallery[]): void {
  for (const g of galleries) {
    const name = g.gallery ?? "g0";
    if (worksByGallery.has(name)) continue;
    worksByGallery.set(name, g.works);
    for (const w of g.works) {
      WORKS.push(w);
      workById.set(w.id, w);
    }
    for (const c of g.collectors) COLLECTORS.push({ ...c, gallery: name });
  }
}

/** The galleries scored: "g0" alone, or with those added. */
export const galleries = () => [...worksByGallery.keys()];

/** Training examples of collectors, each gallery's from its own catalogue (trainingExamples per gallery). */
function examplesOf(set: Raw[], affinity: boolean): MatchExample[] {
  const out: MatchExample[] = [];
  for (const g of worksByGallery.keys()) {
    const members = set.filter((c) => galleryOf(c) === g);
    if (members.length === 0) continue;
    const contacts = members.map((c) => toContact(c, true));
    for (const e of trainingExamples(contacts, worksByGallery.get(g)!, NOW, { affinity })) out.push(e);
  }
  return out;
}

/** Every history purchase and engagement before `atMs` in a gallery, per work: the popularity baseline's count. */
function popularity(atMs: number, gallery: string): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (id: string | null, at: string) => {
    if (id && Date.parse(at) < atMs) counts.set(id, (counts.get(id) ?? 0) + 1);
  };
  for (const c of COLLECTORS) {
    if (galleryOf(c) !== gallery) continue;
    for (const p of c.purchases) bump(p.artworkId, p.at);
    for (const e of c.engagements) bump(e.artworkId, e.at);
    for (const i of c.interactions) bump(i.artworkId, i.at);
  }
  return counts;
}

/** Works of a gallery sold to anyone before `atMs` (history purchases and others' hidden purchases). */
function soldBefore(atMs: number, gallery: string): Set<string> {
  const sold = new Set<string>();
  for (const c of COLLECTORS) {
    if (galleryOf(c) !== gallery) continue;
    for (const p of c.purchases) if (Date.parse(p.at) < atMs) sold.add(p.artworkId);
    if (Date.parse(c.hidden.at) < atMs) sold.add(c.hidden.artworkId);
  }
  return sold;
}

export interface RankResult {
  id: string;
  rank: number;
  popularRank: number;
  artistRank: number;
  candidates: number;
}

/** Ranks of the hidden work for one collector, by the matcher and the two baselines. */
export function rankHidden(c: Raw, model: MatchModel): RankResult {
  const atMs = Date.parse(c.hidden.at);
  const now = new Date(atMs);
  const sold = soldBefore(atMs, galleryOf(c));
  const pool = worksOf(c).filter((w) => Date.parse(w.createdAt) <= atMs && !sold.has(w.id));
  const contact = toContact(c);
  const prepared = prepareContact(contact, now);
  const judged = pool
    .filter((w) => !prepared.excluded.has(w.id))
    .map((w) => ({ id: w.id, p: judgePrepared(prepared, w, model).probability }))
    .sort((a, b) => b.p - a.p || a.id.localeCompare(b.id));
  const rank = judged.findIndex((j) => j.id === c.hidden.artworkId) + 1;
  const pop = popularity(atMs, galleryOf(c));
  const byPopularity = [...pool].sort(
    (a, b) =>
      (pop.get(b.id) ?? 0) - (pop.get(a.id) ?? 0) ||
      b.createdAt.localeCompare(a.createdAt) ||
      a.id.localeCompare(b.id),
  );
  const popularRank = byPopularity.findIndex((w) => w.id === c.hidden.artworkId) + 1;
  const last = [...c.purchases].sort((a, b) => b.at.localeCompare(a.at))[0];
  const lastArtist = last ? work(last.artworkId)?.artistId : null;
  const sameArtist = byPopularity
    .filter((w) => lastArtist && w.artistId === lastArtist)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
  const byArtist = [...sameArtist, ...byPopularity.filter((w) => !sameArtist.includes(w))];
  const artistRank = byArtist.findIndex((w) => w.id === c.hidden.artworkId) + 1;
  return { id: c.id, rank, popularRank, artistRank, candidates: pool.length };
}

const recallAt = (ranks: number[], k: number) =>
  ranks.filter((r) => r > 0 && r <= k).length / (ranks.length || 1);
const mrr = (ranks: number[]) => ranks.reduce((s, r) => s + (r > 0 ? 1 / r : 0), 0) / (ranks.length || 1);

/**
 * The fitted model: the train split's outcomes, the prior as regulariser, and the shipped global calibration
 * (fitted on the same split's cross-fitted outcomes by scripts/engine-train/calibrate.ts; the score checks it
 * is the one the split gives now).
 */
export function fittedModel(): MatchModel {
  return { ...fitWith(trainSplit(), AFFINITY).model, calibration: GLOBAL_MATCH_CALIBRATION };
}

const trainSplit = () => COLLECTORS.filter((c) => c.split === "train");

/** The prior model without its calibration: what its own calibration is fitted on. */
export const RAW_PRIOR: MatchModel = { ...PRIOR_MATCH_MODEL, calibration: undefined };

/** The fit step: the model on the contacts' outcomes and, with `affinity`, the artist affinity beside it. */
function fitWith(set: Raw[], affinity: boolean): { model: MatchModel; examples: MatchExample[] } {
  const examples = examplesOf(set, affinity);
  const model = fitMatchModel(examples, RAW_PRIOR);
  const contacts = set.map((c) => toContact(c, true));
  return { model: affinity ? { ...model, affinity: fitArtistAffinity(contacts) } : model, examples };
}

export const CALIBRATION_FITTED_ON = {
  matcher:
    "labelled collectors, train split: each outcome judged by the model fitted on the other four fifths of the split's collectors (5-fold cross-fit by collector)",
  matcherPrior:
    "labelled collectors, train split: every outcome judged by the hand-set prior model (never fitted on them)",
};

/**
 * The matcher's global calibrations from the labelled train split: the fitted model's (cross-fitted, so no
 * outcome is judged by a model fitted on it) and the prior model's (its weights were set by hand).
 */
export function fitGlobalMatchCalibrations(): { matcher: CalibrationMap; matcherPrior: CalibrationMap } {
  const { examples } = fitWith(trainSplit(), AFFINITY);
  const matcher = fitMatchCalibration(examples, {
    prior: RAW_PRIOR,
    fittedOn: CALIBRATION_FITTED_ON.matcher,
  });
  const matcherPrior = fitCalibration(
    examples.map((e) => ({ p: rawMatchProbability(RAW_PRIOR, e.subScores), label: e.label })),
    undefined,
    CALIBRATION_FITTED_ON.matcherPrior,
  );
  return { matcher, matcherPrior };
}
/** MATCHER_NO_AFFINITY=1 fits and scores without the artist affinity. */
const AFFINITY = typeof process === "undefined" || !process.env?.MATCHER_NO_AFFINITY;

/**
 * Labelled pairs of a set of collectors (their outcomes, the hidden purchase among them) judged by `model`:
 * `p` the probability the judge gives (through the model's calibration), `raw` before it.
 */
export function labelledPairs(set: Raw[], model: MatchModel): { p: number; raw: number; label: 0 | 1 }[] {
  return examplesOf(set, false).map((e) => ({
    p: matchProbability(model, e.subScores),
    raw: rawMatchProbability(model, e.subScores),
    label: e.label,
  }));
}

export interface MatcherFigures {
  collectors: number;
  recall10: number;
  mrr: number;
  popularRecall10: number;
  popularMrr: number;
  artistRecall10: number;
  artistMrr: number;
  brier: number;
  baseBrier: number;
  pairs: { p: number; raw: number; label: 0 | 1 }[];
  ranks: RankResult[];
}

/**
 * The figures of a split: the ranking on its collectors of the first gallery (collectors.json and the
 * hand-written histories: the figures measured since the matcher was built, and a bounded run time), the
 * probabilities on its labelled pairs in every gallery loaded.
 */
export function figures(set: Raw[], model: MatchModel): MatcherFigures {
  const ranks = set.filter((c) => galleryOf(c) === "g0").map((c) => rankHidden(c, model));
  const pairs = labelledPairs(set, model);
  const n = pairs.length || 1;
  const rate = pairs.reduce((s, x) => s + x.label, 0) / n;
  return {
    collectors: ranks.length,
    recall10: recallAt(
      ranks.map((r) => r.rank),
      10,
    ),
    mrr: mrr(ranks.map((r) => r.rank)),
    popularRecall10: recallAt(
      ranks.map((r) => r.popularRank),
      10,
    ),
    popularMrr: mrr(ranks.map((r) => r.popularRank)),
    artistRecall10: recallAt(
      ranks.map((r) => r.artistRank),
      10,
    ),
    artistMrr: mrr(ranks.map((r) => r.artistRank)),
    brier: pairs.reduce((s, x) => s + (x.p - x.label) ** 2, 0) / n,
    baseBrier: rate * (1 - rate),
    pairs,
    ranks,
  };
}

function section(
  title: string,
  f: MatcherFigures,
  model: MatchModel,
  note: string,
  targets = true,
  calibrationTarget = false,
): ScoreSection {
  const lines = [
    note,
    "",
    `Model: bias ${model.bias}, weights ${Object.entries(model.weights)
      .map(([q, w]) => `${q} ${w}`)
      .join(", ")}; fitted on ${model.examples} examples (${model.positives} positive).${
      model.affinity
        ? ` Artist affinity: ${Object.keys(model.affinity.neighbours).length} artists with neighbours, learned from ${model.affinity.contacts} contacts.`
        : " No artist affinity."
    }`,
    "",
    "| ranking | recall@10 | MRR |",
    "|---|---|---|",
    `| matcher | ${f.recall10.toFixed(3)} | ${f.mrr.toFixed(3)} |`,
    `| baseline: most popular available works | ${f.popularRecall10.toFixed(3)} | ${f.popularMrr.toFixed(3)} |`,
    `| baseline: artist of the last purchase, newest first, then popular | ${f.artistRecall10.toFixed(3)} | ${f.artistMrr.toFixed(3)} |`,
    "",
    `Labelled pairs: ${f.pairs.length} (${f.pairs.filter((x) => x.label === 1).length} positive).`,
    "",
    `Candidates per collector: ${Math.min(...f.ranks.map((r) => r.candidates))}–${Math.max(...f.ranks.map((r) => r.candidates))}.`,
  ];
  return {
    title,
    cases: f.collectors,
    metrics: [
      {
        name: "recall@10 of the hidden purchase",
        value: f.recall10,
        ...(targets ? { target: { op: ">=" as const, value: 0.6 } } : {}),
      },
      { name: "MRR of the hidden purchase", value: f.mrr },
      {
        name: "recall@10 ahead of the best baseline by",
        value: f.recall10 - Math.max(f.popularRecall10, f.artistRecall10),
        ...(targets ? { target: { op: ">=" as const, value: 0.0001 } } : {}),
      },
      {
        name: "Brier score below the base rate's by",
        value: f.baseBrier - f.brier,
        ...(targets ? { target: { op: ">=" as const, value: 0.0001 } } : {}),
      },
    ],
    detail: lines.join("\n"),
    wording: {
      cases: "collectors, each with a hidden last purchase",
      constant: "Brier score of the base rate (one constant probability), for comparison",
      reliability:
        "Reliability of the match probability on the labelled pairs (probability → share positive):",
      outcome: "positive",
    },
    calibration: f.pairs.map((x) => ({ p: x.p, raw: x.raw, outcome: x.label })),
    ...(calibrationTarget ? { calibrationTarget: "all" } : {}),
    calibrationFittedOn: model.calibration?.fittedOn,
  };
}

export function scoreMatcher(): ScoreSection[] {
  const model = fittedModel();
  const split = (s: string) => COLLECTORS.filter((c) => c.split === s);
  const out: ScoreSection[] = [
    section(
      "Matcher (tune split)",
      figures(split("tune"), model),
      model,
      "Generated collectors looked at while building the judge. Model fitted on the train split.",
    ),
  ];
  // While the judge is being built, MATCHER_TUNE_ONLY=1 keeps the held-out block unseen.
  if (typeof process === "undefined" || !process.env?.MATCHER_TUNE_ONLY)
    out.push(
      section(
        "Matcher (held out)",
        figures(split("holdout"), model),
        model,
        'Generated collectors not looked at while building the judge\'s first round. At first sight (first round): recall@10 0.581, MRR 0.559, Brier 0.135 (docs/decisions.md, "The matcher"). The second round (artist affinity, new arrivals, views counting half toward an artist) was tuned on the tune split and the hand-written histories only, but these figures were seen once it was done: no longer first sight. Calibration (its minimum block of 200 outcomes) was chosen while looking at the tune and held-out figures.',
        true,
        true,
      ),
    );
  if (split("hand").length > 0)
    out.push(
      section(
        "Matcher (hand-written histories)",
        figures(split("hand"), model),
        model,
        "Histories written by hand against the generated catalogue.",
      ),
    );
  if (AFFINITY) {
    const plain = {
      ...fitWith(trainSplit(), false).model,
      calibration: GLOBAL_MATCH_CALIBRATION,
    };
    out.push(
      section(
        "Matcher without artist affinity (tune split)",
        figures(split("tune"), plain),
        plain,
        "The same judge and fit without the artist affinity: what the affinity adds (no targets).",
        false,
      ),
    );
  }
  out.push(
    section(
      "Matcher prior only (tune split)",
      figures(split("tune"), PRIOR_MATCH_MODEL),
      PRIOR_MATCH_MODEL,
      "The prior model, as a gallery with no history would judge: for comparison (no targets).",
      false,
    ),
  );
  return out;
}

function print(sections: ScoreSection[]) {
  for (const s of sections) {
    console.log(`\n## ${s.title} (${s.cases} collectors)`);
    for (const m of s.metrics) {
      const target = m.target ? ` (target ${m.target.op} ${m.target.value})` : "";
      console.log(`${m.name}: ${m.value.toFixed(3)}${target}`);
    }
    if (s.detail) console.log(s.detail);
  }
}

if (typeof process !== "undefined" && process.argv?.[1]?.endsWith("engine-score/matcher.ts")) {
  const t = Date.now();
  print(scoreMatcher());
  console.log(`\n${Date.now() - t} ms`);
}
