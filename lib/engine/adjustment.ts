/**
 * Each gallery's own adjustment of the shared intent model (design §8: a gallery's corrections are labelled
 * examples for that gallery first; docs/decisions.md, "Each gallery's triage adjustment"). The shared model
 * (lib/engine/models/triage-intent.json) is never changed: a gallery's members' corrected intents fit an offset to
 * its class scores, a bias per intent and sparse weights per hashed feature bucket, in the shared model's own
 * feature space (`vectorOf(features, bits)` with its `bits`).
 *
 * The offset is fitted by gradient descent on the softmax loss of (shared scores + offset) against the corrected
 * intents, summed over the examples, with an L2 penalty toward zero: with no examples it is zero (the shared model
 * as it is), with few it moves only the buckets those examples hold and only as far as they show, and it grows
 * with the evidence. The bias is held much closer to zero than the words, so the corrections of one kind of message
 * move that kind, not every message of the gallery. Pure: runs in workerd (the engine Worker's judges and its fit).
 */
import {
  hash,
  type LoadedModel,
  type Prediction,
  predict,
  spanReasons,
  type TextFeature,
  vectorOf,
} from "./learned";

/** A gallery's offset to the shared intent model's scores, as stored (JSON-safe). */
export interface IntentAdjustment {
  /** A short hash of what it holds: named in the judgment's model as `<shared>+gallery.<version>`. */
  version: string;
  /** The shared model it was fitted over (its judgments' `model`); over any other it is not applied. */
  shared: string;
  /** The hashed feature space: the shared intent model's `bits`. */
  bits: number;
  /** How many corrected examples it was fitted on. */
  examples: number;
  /** Per class, in the shared model's class order. */
  bias: number[];
  /** Per feature bucket (its number, as a string), a weight per class. */
  weights: Record<string, number[]>;
}

/** One corrected example: the thread's features, the shared model's scores for it, the member's class. */
export interface AdjustmentExample {
  features: TextFeature[];
  sharedScores: number[];
  /** Index of the corrected class in the shared model's classes. */
  label: number;
}

export interface AdjustmentFitOptions {
  /** The shared model's name (see IntentAdjustment.shared). */
  shared?: string;
  /** The number of classes; by default the length of the examples' shared scores. */
  classes?: number;
  /** L2 penalty on the bucket weights, per unit of summed loss. */
  l2?: number;
  /** L2 penalty on the biases: stronger, so a kind of message moves, not the whole inbox. */
  biasL2?: number;
  iterations?: number;
}

/** The defaults the engine Worker's fit uses (services/engine/fit-triage.ts). */
export const ADJUSTMENT_L2 = 1;
export const ADJUSTMENT_BIAS_L2 = 20;
export const ADJUSTMENT_ITERATIONS = 150;
/** Buckets kept at most (the largest weights), so a gallery's adjustment stays a small read. */
export const ADJUSTMENT_MAX_BUCKETS = 2000;
/** A bucket whose every weight rounds below this is dropped. */
const KEEP_ABOVE = 0.002;

/** A score that stands for a probability of zero. */
const FLOOR = -30;

/** Log-probabilities as scores, in `classes` order: softmax of them is the distribution again. */
export function logScores(distribution: Record<string, number>, classes: readonly string[]): number[] {
  return classes.map((c) => {
    const p = distribution[c] ?? 0;
    return p > 0 ? Math.max(FLOOR, Math.log(p)) : FLOOR;
  });
}

/** The shared model's scores for a text, in its class order: the log of `predict`'s distribution. */
export function sharedScores(model: LoadedModel, features: TextFeature[], dense: number[]): number[] {
  return logScores(predict(model, features, dense).distribution, model.data.classes);
}

function softmax(scores: number[]): number[] {
  const top = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - top));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

/** What the adjustment adds to each class's score for a vector (`vectorOf(features, adjustment.bits)`). */
export function offsetOf(vector: Map<number, number>, adjustment: IntentAdjustment): number[] {
  const offset = adjustment.bias.slice();
  for (const [bucket, x] of vector) {
    const row = adjustment.weights[bucket];
    if (row) for (let c = 0; c < offset.length; c++) offset[c] = (offset[c] ?? 0) + (row[c] ?? 0) * x;
  }
  return offset;
}

/** The shared scores with the gallery's offset added: softmax of them is the adjusted distribution. */
export function applyAdjustment(
  scores: number[],
  vector: Map<number, number>,
  adjustment: IntentAdjustment,
): number[] {
  const offset = offsetOf(vector, adjustment);
  return scores.map((s, c) => s + (offset[c] ?? 0));
}

/**
 * Fits a gallery's adjustment: gradient descent (Nesterov's, with a step the loss's curvature bounds) on
 * Σ −log softmax(shared + bias + W·x)[label] + l2/2 ‖W‖² + biasL2/2 ‖bias‖². Zero examples: the zero offset.
 */
export function fitIntentAdjustment(
  examples: AdjustmentExample[],
  bits: number,
  options: AdjustmentFitOptions = {},
): IntentAdjustment {
  const k = options.classes ?? examples[0]?.sharedScores.length ?? 0;
  const l2 = options.l2 ?? ADJUSTMENT_L2;
  const biasL2 = options.biasL2 ?? ADJUSTMENT_BIAS_L2;
  const iterations = options.iterations ?? ADJUSTMENT_ITERATIONS;
  const usable = examples.filter(
    (e) => e.sharedScores.length === k && Number.isInteger(e.label) && e.label >= 0 && e.label < k,
  );

  // The buckets the examples hold, numbered; the examples' (bucket index, value) pairs end to end, example i's
  // from starts[i] to starts[i + 1].
  const slot = new Map<number, number>();
  const buckets: number[] = [];
  const vectors = usable.map((e) => vectorOf(e.features, bits));
  const n = usable.length;
  const starts = new Int32Array(n + 1);
  vectors.forEach((v, i) => {
    starts[i + 1] = starts[i]! + v.size;
  });
  const at = new Int32Array(starts[n]!);
  const xs = new Float64Array(starts[n]!);
  vectors.forEach((vector, i) => {
    let f = starts[i]!;
    for (const [bucket, x] of vector) {
      let s = slot.get(bucket);
      if (s === undefined) {
        s = buckets.length;
        slot.set(bucket, s);
        buckets.push(bucket);
      }
      at[f] = s * k;
      xs[f] = x;
      f++;
    }
  });
  const shared = new Float64Array(n * k);
  usable.forEach((e, i) => {
    for (let c = 0; c < k; c++) shared[i * k + c] = e.sharedScores[c]!;
  });

  const biasAt = buckets.length * k;
  const size = biasAt + k; // the weights, then the biases
  let theta = new Float64Array(size);
  if (n > 0 && k > 0) {
    // The summed loss's gradient is Lipschitz with λmax(Σ x̃ x̃ᵀ) / 2 (x̃ = (x, 1); the softmax's curvature is at most
    // 1/2), plus the penalty: at most n (‖x‖ = 1 by vectorOf), far less when the examples differ, so the largest
    // eigenvalue is estimated (power iteration, with a margin) for a longer step. The weakest curvature is the L2's.
    const lipschitz =
      Math.min(n, 0.5 * largestEigenvalue(starts, at, xs, k, buckets.length) * 1.1) + Math.max(l2, biasL2);
    const step = 1 / lipschitz;
    const mu = Math.min(l2, biasL2);
    const momentum = (Math.sqrt(lipschitz) - Math.sqrt(mu)) / (Math.sqrt(lipschitz) + Math.sqrt(mu));
    let previous = new Float64Array(size);
    const look = new Float64Array(size);
    const gradient = new Float64Array(size);
    const scores = new Float64Array(k);
    for (let t = 0; t < iterations; t++) {
      for (let j = 0; j < size; j++) look[j] = theta[j]! + momentum * (theta[j]! - previous[j]!);
      gradient.fill(0);
      for (let i = 0; i < n; i++) {
        const from = starts[i]!;
        const to = starts[i + 1]!;
        for (let c = 0; c < k; c++) scores[c] = shared[i * k + c]! + look[biasAt + c]!;
        for (let f = from; f < to; f++) {
          const base = at[f]!;
          const x = xs[f]!;
          for (let c = 0; c < k; c++) scores[c]! += look[base + c]! * x;
        }
        let top = -Infinity;
        for (let c = 0; c < k; c++) if (scores[c]! > top) top = scores[c]!;
        let total = 0;
        for (let c = 0; c < k; c++) {
          const e = Math.exp(scores[c]! - top);
          scores[c] = e;
          total += e;
        }
        const label = usable[i]!.label;
        for (let c = 0; c < k; c++) scores[c] = scores[c]! / total - (c === label ? 1 : 0);
        for (let c = 0; c < k; c++) gradient[biasAt + c]! += scores[c]!;
        for (let f = from; f < to; f++) {
          const base = at[f]!;
          const x = xs[f]!;
          for (let c = 0; c < k; c++) gradient[base + c]! += scores[c]! * x;
        }
      }
      // The new point into `previous`'s buffer: theta becomes previous, the step's result theta.
      const next = previous;
      previous = theta;
      for (let j = 0; j < size; j++) {
        const penalty = j >= biasAt ? biasL2 : l2;
        next[j] = look[j]! - step * (gradient[j]! + penalty * look[j]!);
      }
      theta = next;
    }
  }

  const round = (x: number) => Math.round(x * 1000) / 1000 || 0;
  const bias = Array.from({ length: k }, (_, c) => round(theta[biasAt + c]!));
  const kept = buckets
    .map((bucket, s) => {
      const row = Array.from({ length: k }, (_, c) => round(theta[s * k + c]!));
      return { bucket, row, size: Math.max(0, ...row.map(Math.abs)) };
    })
    .filter((b) => b.size >= KEEP_ABOVE)
    .sort((a, b) => b.size - a.size || a.bucket - b.bucket)
    .slice(0, ADJUSTMENT_MAX_BUCKETS)
    .sort((a, b) => a.bucket - b.bucket);
  const weights: Record<string, number[]> = {};
  for (const b of kept) weights[String(b.bucket)] = b.row;
  const sharedName = options.shared ?? "";
  const version = hash(JSON.stringify([sharedName, bits, n, bias, kept.map((b) => [b.bucket, b.row])]))
    .toString(16)
    .padStart(8, "0");
  return { version, shared: sharedName, bits, examples: n, bias, weights };
}

/**
 * The largest eigenvalue of Σ x̃ x̃ᵀ over the examples (x̃: the bucket values and a 1 for the bias), by power
 * iteration; `at` holds bucket index × k.
 */
function largestEigenvalue(
  starts: Int32Array,
  at: Int32Array,
  xs: Float64Array,
  k: number,
  buckets: number,
): number {
  const n = starts.length - 1;
  let v = new Float64Array(buckets + 1).fill(1 / Math.sqrt(buckets + 1));
  let eigenvalue = 0;
  for (let round = 0; round < 30; round++) {
    const w = new Float64Array(buckets + 1);
    for (let i = 0; i < n; i++) {
      let dot = v[buckets]!;
      for (let f = starts[i]!; f < starts[i + 1]!; f++) dot += v[at[f]! / k]! * xs[f]!;
      w[buckets]! += dot;
      for (let f = starts[i]!; f < starts[i + 1]!; f++) w[at[f]! / k]! += dot * xs[f]!;
    }
    let norm = 0;
    for (const x of w) norm += x * x;
    norm = Math.sqrt(norm);
    if (norm === 0) return 0;
    const previous = eigenvalue;
    eigenvalue = norm; // ‖A v‖ with ‖v‖ = 1
    v = w.map((x) => x / norm);
    if (Math.abs(eigenvalue - previous) < 1e-3 * eigenvalue) break;
  }
  return eigenvalue;
}

/** Offsets under this (in log-odds) are not the gallery's word on a message: the rules' gate stands. */
export const ADJUSTMENT_DECIDES_BY = 1;

export interface AdjustedPrediction<T extends string> {
  /** The shared prediction with the offset added (distribution and best; reasons for the adjusted best). */
  prediction: Prediction<T>;
  /**
   * Whether the gallery's corrections decide here: the adjusted choice is not `incumbent` (the rules' choice) and
   * the offset alone pushes it up, over the classes' mean and over `incumbent`, by at least ADJUSTMENT_DECIDES_BY:
   * what only the examples of this kind of message make it do.
   */
  decides: boolean;
  /** What the adjustment did, for the judgment's signals. */
  signal: string;
}

/** The shared prediction adjusted for a gallery; `classes` in the shared model's order. */
export function adjustPrediction<T extends string>(
  prediction: Prediction<T>,
  classes: readonly T[],
  features: TextFeature[],
  adjustment: IntentAdjustment,
  incumbent: T,
): AdjustedPrediction<T> {
  const vector = vectorOf(features, adjustment.bits);
  const offset = offsetOf(vector, adjustment);
  const scores = logScores(prediction.distribution, classes).map((s, c) => s + (offset[c] ?? 0));
  const dist = softmax(scores);
  const distribution = {} as Record<T, number>;
  let bestIndex = 0;
  classes.forEach((c, i) => {
    distribution[c] = dist[i] ?? 0;
    if ((dist[i] ?? 0) > (dist[bestIndex] ?? 0)) bestIndex = i;
  });
  const best = classes[bestIndex] as T;
  // The offset's push towards `best`: over the classes' mean (it was pushed up, not only the others down) and over
  // the rules' choice.
  const mean = offset.reduce((a, b) => a + b, 0) / Math.max(1, offset.length);
  const own = offset[bestIndex] ?? 0;
  const lead = Math.min(own - mean, own - (offset[classes.indexOf(incumbent)] ?? 0));
  const decides = best !== incumbent && lead >= ADJUSTMENT_DECIDES_BY;
  const reasons =
    best === prediction.best
      ? prediction.reasons
      : spanReasons(features, adjustment.bits, bestIndex, (bucket) => adjustment.weights[bucket]);
  const moved =
    best === prediction.best ? `kept ${best}` : `moved the intent from ${prediction.best} to ${best}`;
  const signal = `the gallery's own corrections (${adjustment.examples} examples) ${moved}${
    decides ? `, over the rules' ${incumbent}` : ""
  }`;
  return { prediction: { distribution, best, reasons }, decides, signal };
}
