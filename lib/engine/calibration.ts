/**
 * Calibration: a monotone map from a judge's raw probability to a calibrated one, so that a 0.6 is right about
 * six times in ten (docs/decisions.md, "Calibration of the engine's probabilities"). One module for the matcher,
 * triage and disclosure. Pure and deterministic; applying a map is a binary search over a few dozen breakpoints.
 *
 * A map is fitted on outcomes the judge's model was not fitted on (a held-out fold, or out-of-fold judgments of
 * a cross-fit): isotonic regression (pool adjacent violators) when there are enough outcomes, its blocks'
 * centres joined by straight lines and each block's rate shrunk toward the prior map (a few pseudo-outcomes),
 * so the map rises strictly between its first and last breakpoint and never claims 0 or 1; Platt scaling (a
 * logistic fit on the raw log-odds, the identity as its prior) where outcomes are few. A gallery's map is its
 * own fit blended with the global map by how many outcomes it rests on (shrinkTowards).
 */

/** A fitted calibration, stored as data: breakpoints (raw → calibrated), increasing in both. */
export interface CalibrationMap {
  method: "identity" | "isotonic" | "platt" | "blend";
  /** Breakpoints [raw, calibrated], raw strictly increasing, calibrated non-decreasing; (0,0) and (1,1) implied. */
  points: [number, number][];
  /** Outcomes the map was fitted on (for a blend, the local ones). */
  outcomes: number;
  /** Where the outcomes came from, in words (shown in the score and the decisions). */
  fittedOn?: string;
}

export type Outcome = { p: number; label: 0 | 1 };

export const IDENTITY_CALIBRATION: CalibrationMap = { method: "identity", points: [], outcomes: 0 };

/** Below this many outcomes (or ten of either label) a fit is Platt scaling, not isotonic. */
export const ISOTONIC_MIN_OUTCOMES = 200;
/** The fewest outcomes an isotonic block holds (a smaller one joins its nearer neighbour): no step on a handful. */
export const BLOCK_MIN_OUTCOMES = 200;
/** Pseudo-outcomes of the prior in each isotonic block: a block of a handful of outcomes stays near the prior. */
export const BLOCK_PRIOR_WEIGHT = 4;
/** A gallery's map moves halfway from the global map to its own at this many outcomes. */
export const SHRINK_OUTCOMES = 400;
/** The fewest pairs in a reliability band before its gap counts (the score flags a band off by more). */
export const BAND_MIN_PAIRS = 20;
export const BAND_TOLERANCE = 0.08;

const EPS = 1e-4;
const clampP = (p: number) => (p < EPS ? EPS : p > 1 - EPS ? 1 - EPS : p);
const logit = (p: number) => Math.log(clampP(p) / (1 - clampP(p)));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The calibrated probability of a raw one: linear between breakpoints, (0,0) and (1,1) at the ends. */
export function applyCalibration(map: CalibrationMap | null | undefined, raw: number): number {
  const p = raw < 0 ? 0 : raw > 1 ? 1 : raw;
  if (!map || map.points.length === 0) return p;
  const pts = map.points;
  const first = pts[0]!;
  const last = pts[pts.length - 1]!;
  if (p <= first[0]) return first[0] <= 0 ? first[1] : (p / first[0]) * first[1];
  if (p >= last[0]) return last[0] >= 1 ? last[1] : last[1] + ((p - last[0]) / (1 - last[0])) * (1 - last[1]);
  // The last breakpoint at or below p.
  let lo = 0;
  let hi = pts.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (pts[mid]![0] <= p) lo = mid;
    else hi = mid;
  }
  const [x0, y0] = pts[lo]!;
  const [x1, y1] = pts[hi]!;
  return x1 === x0 ? y1 : y0 + ((p - x0) / (x1 - x0)) * (y1 - y0);
}

/** The map as breakpoints on a grid of raw probabilities (for a prior's value at any point, or a blend). */
function sample(map: CalibrationMap, xs: number[]): [number, number][] {
  return xs.map((x) => [x, applyCalibration(map, x)]);
}

/** Breakpoints kept increasing in raw and non-decreasing in calibrated, rounded for storage. */
function tidy(points: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [x, y] of points) {
    const rx = round(x);
    const ry = round(Math.min(1 - EPS, Math.max(EPS, y)));
    const prev = out[out.length - 1];
    if (prev && rx <= prev[0]) continue;
    out.push([rx, prev && ry < prev[1] ? prev[1] : ry]);
  }
  return out;
}

/**
 * Isotonic regression by pooling adjacent violators over outcomes sorted by raw probability; then each block's
 * rate is shrunk toward the prior map at the block's mean raw probability with BLOCK_PRIOR_WEIGHT
 * pseudo-outcomes, and blocks pooled again until the shrunk rates rise strictly. The blocks' centres are the
 * breakpoints.
 */
export function fitIsotonic(
  outcomes: Outcome[],
  prior: CalibrationMap = IDENTITY_CALIBRATION,
  fittedOn?: string,
): CalibrationMap {
  const sorted = [...outcomes].sort((a, b) => a.p - b.p || a.label - b.label);
  type Block = { sumP: number; sumY: number; n: number };
  const plain = (b: Block) => b.sumY / b.n;
  const shrunk = (b: Block) =>
    (b.sumY + BLOCK_PRIOR_WEIGHT * applyCalibration(prior, b.sumP / b.n)) / (b.n + BLOCK_PRIOR_WEIGHT);
  const pool = (items: Block[], rate: (b: Block) => number): Block[] => {
    const blocks: Block[] = [];
    for (const item of items) {
      blocks.push({ ...item });
      while (blocks.length > 1 && rate(blocks[blocks.length - 2]!) >= rate(blocks[blocks.length - 1]!)) {
        const b = blocks.pop()!;
        const a = blocks[blocks.length - 1]!;
        a.sumP += b.sumP;
        a.sumY += b.sumY;
        a.n += b.n;
      }
    }
    return blocks;
  };
  // Blocks under BLOCK_MIN_OUTCOMES join the neighbour whose rate is nearer (the result pooled again).
  const merged = (items: Block[], rate: (b: Block) => number): Block[] => {
    const blocks = items.map((b) => ({ ...b }));
    for (;;) {
      let small = -1;
      for (let i = 0; i < blocks.length; i++)
        if (blocks[i]!.n < BLOCK_MIN_OUTCOMES && (small < 0 || blocks[i]!.n < blocks[small]!.n)) small = i;
      if (small < 0 || blocks.length === 1) return blocks;
      const b = blocks[small]!;
      const left = blocks[small - 1];
      const right = blocks[small + 1];
      const into =
        !right || (left && Math.abs(rate(left) - rate(b)) <= Math.abs(rate(right) - rate(b)))
          ? small - 1
          : small + 1;
      const a = blocks[into]!;
      a.sumP += b.sumP;
      a.sumY += b.sumY;
      a.n += b.n;
      blocks.splice(small, 1);
    }
  };
  // Equal raw probabilities are one block from the start: the map is a function of the raw probability.
  const items: Block[] = [];
  for (const o of sorted) {
    const last = items[items.length - 1];
    if (last && last.sumP / last.n === o.p) {
      last.sumP += o.p;
      last.sumY += o.label;
      last.n++;
    } else items.push({ sumP: o.p, sumY: o.label, n: 1 });
  }
  const blocks = pool(merged(pool(items, plain), plain), shrunk);
  return {
    method: "isotonic",
    points: tidy(blocks.map((b) => [b.sumP / b.n, shrunk(b)])),
    outcomes: outcomes.length,
    ...(fittedOn ? { fittedOn } : {}),
  };
}

/** The raw probabilities a Platt map is written out at (denser where judges give most of their answers). */
const PLATT_GRID = [
  0.01, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8,
  0.85, 0.88, 0.9, 0.92, 0.94, 0.96, 0.97, 0.98, 0.99,
];

/**
 * Platt scaling: p' = σ(a · logit(p) + b), fitted by Newton's method with a Gaussian prior (sd PLATT_PRIOR_SD)
 * around the identity (a = 1, b = 0), so that a few outcomes move it a little. The slope is kept positive.
 */
export const PLATT_PRIOR_SD = 0.5;

export function fitPlatt(outcomes: Outcome[], fittedOn?: string): CalibrationMap {
  const lambda = 1 / (PLATT_PRIOR_SD * PLATT_PRIOR_SD);
  let a = 1;
  let b = 0;
  const xs = outcomes.map((o) => logit(o.p));
  for (let step = 0; step < 50; step++) {
    let ga = lambda * (a - 1);
    let gb = lambda * b;
    let haa = lambda;
    let hab = 0;
    let hbb = lambda;
    outcomes.forEach((o, i) => {
      const x = xs[i]!;
      const p = sigmoid(a * x + b);
      const r = p - o.label;
      const v = p * (1 - p);
      ga += r * x;
      gb += r;
      haa += v * x * x;
      hab += v * x;
      hbb += v;
    });
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) < 1e-10 && Math.abs(db) < 1e-10) break;
  }
  a = Math.max(0.05, a);
  return {
    method: "platt",
    points: tidy(PLATT_GRID.map((x) => [x, sigmoid(a * logit(x) + b)])),
    outcomes: outcomes.length,
    ...(fittedOn ? { fittedOn } : {}),
  };
}

/** Isotonic when the outcomes are enough (and hold ten of each label), Platt scaling otherwise. */
export function fitCalibration(
  outcomes: Outcome[],
  prior: CalibrationMap = IDENTITY_CALIBRATION,
  fittedOn?: string,
): CalibrationMap {
  const positives = outcomes.filter((o) => o.label === 1).length;
  if (outcomes.length === 0) return { ...prior };
  if (outcomes.length >= ISOTONIC_MIN_OUTCOMES && positives >= 10 && outcomes.length - positives >= 10)
    return fitIsotonic(outcomes, prior, fittedOn);
  return fitPlatt(outcomes, fittedOn);
}

/**
 * A local map shrunk toward a prior map: at each raw probability w · local + (1 − w) · prior, with
 * w = n / (n + SHRINK_OUTCOMES) for n local outcomes. Few outcomes leave the prior almost as it was; many, the
 * local fit. A blend of monotone maps is monotone.
 */
export function shrinkTowards(
  local: CalibrationMap,
  prior: CalibrationMap,
  shrinkOutcomes = SHRINK_OUTCOMES,
): CalibrationMap {
  const n = local.outcomes;
  const w = n / (n + shrinkOutcomes);
  const xs = [...new Set([...local.points, ...prior.points].map(([x]) => x))].sort((a, b) => a - b);
  if (xs.length === 0) return { ...IDENTITY_CALIBRATION, outcomes: n };
  const l = sample(local, xs);
  const p = sample(prior, xs);
  return {
    method: "blend",
    points: tidy(xs.map((x, i) => [x, w * l[i]![1] + (1 - w) * p[i]![1]])),
    outcomes: n,
    ...(local.fittedOn ? { fittedOn: local.fittedOn } : {}),
  };
}

/** Whether stored data is a calibration map (a row written before maps were stored holds a reliability table). */
export function isCalibrationMap(x: unknown): x is CalibrationMap {
  if (!x || typeof x !== "object" || Array.isArray(x)) return false;
  const m = x as Partial<CalibrationMap>;
  return (
    typeof m.method === "string" &&
    Array.isArray(m.points) &&
    m.points.every(
      (pt) =>
        Array.isArray(pt) && pt.length === 2 && pt.every((v) => typeof v === "number" && v >= 0 && v <= 1),
    )
  );
}

// ---------------------------------------------------------------------------------------------------------
// Measuring it

export interface ReliabilityBand {
  from: number;
  to: number;
  n: number;
  meanP: number;
  observed: number;
  /** A band with at least BAND_MIN_PAIRS pairs whose observed rate is more than BAND_TOLERANCE from its mean p. */
  off: boolean;
}

/** Equal-width bands of the given probabilities (the last closed at 1). */
export function reliabilityBands(pairs: Outcome[], bins = 10): ReliabilityBand[] {
  const acc = Array.from({ length: bins }, () => ({ n: 0, sumP: 0, sumY: 0 }));
  for (const { p, label } of pairs) {
    const i = Math.min(bins - 1, Math.max(0, Math.floor(p * bins)));
    acc[i]!.n++;
    acc[i]!.sumP += p;
    acc[i]!.sumY += label;
  }
  return acc.map((a, i) => {
    const meanP = a.n ? a.sumP / a.n : 0;
    const observed = a.n ? a.sumY / a.n : 0;
    return {
      from: i / bins,
      to: (i + 1) / bins,
      n: a.n,
      meanP,
      observed,
      off: a.n >= BAND_MIN_PAIRS && Math.abs(observed - meanP) > BAND_TOLERANCE,
    };
  });
}

/** Expected calibration error over equal-width bands: Σ (n_b / N) · |observed_b − mean p_b|. */
export function expectedCalibrationError(pairs: Outcome[], bins = 10): number {
  if (pairs.length === 0) return 0;
  return reliabilityBands(pairs, bins).reduce(
    (sum, b) => sum + (b.n / pairs.length) * Math.abs(b.observed - b.meanP),
    0,
  );
}

// ---------------------------------------------------------------------------------------------------------
// A judge's chosen answer

/**
 * A yes/no probability with the confidence in its answer calibrated: max(p, 1 − p) through the map, never below
 * one half, on the same side (the answer never flips).
 */
export function calibrateBinary(map: CalibrationMap | null | undefined, pTrue: number, digits = 3): number {
  if (!map || map.points.length === 0) return pTrue;
  const yes = pTrue >= 0.5;
  const c = Math.max(0.5, applyCalibration(map, yes ? pTrue : 1 - pTrue));
  return round(yes ? c : 1 - c, digits);
}

/**
 * A distribution over answers with the chosen one's probability calibrated: the others keep their shares of
 * what is left, and the chosen one stays the most likely.
 */
export function calibrateChoice<K extends string>(
  map: CalibrationMap | null | undefined,
  distribution: Record<K, number>,
  chosen: K,
  digits = 3,
): Record<K, number> {
  if (!map || map.points.length === 0) return distribution;
  const keys = Object.keys(distribution) as K[];
  const p = distribution[chosen];
  const rest = 1 - p;
  const others = keys.filter((k) => k !== chosen);
  const top = Math.max(0, ...others.map((k) => distribution[k]));
  let c = applyCalibration(map, p);
  // The chosen answer stays ahead: c ≥ top · (1 − c) / rest, with room for rounding at `digits`.
  if (rest > 0 && top > 0) c = Math.min(1, Math.max(c, top / (rest + top) + 2 * 10 ** -digits));
  const out = {} as Record<K, number>;
  let othersTotal = 0;
  for (const k of others) {
    out[k] = round(
      rest > 0 ? (distribution[k] * (1 - c)) / rest : (1 - c) / Math.max(1, others.length),
      digits,
    );
    othersTotal += out[k];
  }
  // The chosen one takes what the rounded others leave: the distribution sums to 1 at `digits`.
  out[chosen] = round(1 - othersTotal, digits);
  return out;
}
