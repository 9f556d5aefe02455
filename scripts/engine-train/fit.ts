/**
 * Fits a multinomial logistic regression (softmax) over hashed sparse features and a few dense ones, by
 * AdaGrad with L2, deterministic for a given seed; then keeps the buckets that carry weight and quantises them
 * to int8 (lib/engine/learned.ts reads the result).
 */
import {
  encodeBuckets,
  type LinearModelData,
  type TextFeature,
  toBase64,
  vectorOf,
} from "../../lib/engine/learned";

export interface Example {
  features: TextFeature[];
  dense: number[];
  label: number;
}

export interface FitOptions {
  bits: number;
  epochs: number;
  rate: number;
  l2: number;
  /** L2 on the dense weights (the rules' findings): kept lighter, they are few and mean the same everywhere. */
  denseL2: number;
  /** At most this many buckets are shipped (the strongest). */
  maxBuckets: number;
  seed: number;
}

export const DEFAULTS: FitOptions = {
  bits: 18,
  epochs: Number(process.env.FIT_EPOCHS ?? 20),
  rate: Number(process.env.FIT_RATE ?? 0.4),
  l2: Number(process.env.FIT_L2 ?? 2e-5),
  denseL2: 2e-6,
  maxBuckets: 30000,
  seed: 7,
};

/** mulberry32: a small seeded generator, so a fit is reproducible. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Fitted {
  classes: number;
  dense: number;
  sparse: Map<number, Float64Array>;
  denseWeights: Float64Array[];
  bias: Float64Array;
  bits: number;
}

export function fitSoftmax(examples: Example[], classes: number, options: Partial<FitOptions> = {}): Fitted {
  const o = { ...DEFAULTS, ...options };
  const dense = examples[0]?.dense.length ?? 0;
  const vectors = examples.map((e) => vectorOf(e.features, o.bits));
  const sparse = new Map<number, Float64Array>();
  const sparseG = new Map<number, Float64Array>();
  const denseWeights = Array.from({ length: dense }, () => new Float64Array(classes));
  const denseG = Array.from({ length: dense }, () => new Float64Array(classes).fill(1e-8));
  const bias = new Float64Array(classes);
  const biasG = new Float64Array(classes).fill(1e-8);
  const rand = random(o.seed);
  const order = examples.map((_, i) => i);
  const scores = new Float64Array(classes);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    for (const n of order) {
      const example = examples[n] as Example;
      const vector = vectors[n] as Map<number, number>;
      for (let c = 0; c < classes; c++) scores[c] = bias[c] as number;
      example.dense.forEach((x, d) => {
        if (x !== 0)
          for (let c = 0; c < classes; c++)
            scores[c] = (scores[c] as number) + (denseWeights[d]?.[c] ?? 0) * x;
      });
      for (const [bucket, x] of vector) {
        const w = sparse.get(bucket);
        if (w) for (let c = 0; c < classes; c++) scores[c] = (scores[c] as number) + (w[c] as number) * x;
      }
      let top = -Infinity;
      for (let c = 0; c < classes; c++) top = Math.max(top, scores[c] as number);
      let total = 0;
      for (let c = 0; c < classes; c++) {
        scores[c] = Math.exp((scores[c] as number) - top);
        total += scores[c] as number;
      }
      for (let c = 0; c < classes; c++) {
        const g = (scores[c] as number) / total - (c === example.label ? 1 : 0);
        biasG[c] = (biasG[c] as number) + g * g;
        bias[c] = (bias[c] as number) - (o.rate * g) / Math.sqrt(biasG[c] as number);
        example.dense.forEach((x, d) => {
          if (x === 0) return;
          const w = denseWeights[d] as Float64Array;
          const wg = denseG[d] as Float64Array;
          const gg = g * x + o.denseL2 * (w[c] as number);
          wg[c] = (wg[c] as number) + gg * gg;
          w[c] = (w[c] as number) - (o.rate * gg) / Math.sqrt(wg[c] as number);
        });
        for (const [bucket, x] of vector) {
          let w = sparse.get(bucket);
          let wg = sparseG.get(bucket);
          if (!w || !wg) {
            w = new Float64Array(classes);
            wg = new Float64Array(classes).fill(1e-8);
            sparse.set(bucket, w);
            sparseG.set(bucket, wg);
          }
          const gg = g * x + o.l2 * (w[c] as number);
          wg[c] = (wg[c] as number) + gg * gg;
          w[c] = (w[c] as number) - (o.rate * gg) / Math.sqrt(wg[c] as number);
        }
      }
    }
  }
  return { classes, dense, sparse, denseWeights, bias, bits: o.bits };
}

/** The fitted model as shipped data: the strongest buckets, int8 weights. */
export function ship(
  fitted: Fitted,
  meta: {
    name: string;
    version: string;
    classes: string[];
    dense: string[];
    trainedOn: string;
    cases: number;
  },
  maxBuckets = DEFAULTS.maxBuckets,
): LinearModelData {
  const k = fitted.classes;
  const strength = (w: Float64Array) => Math.max(...Array.from(w, Math.abs));
  const kept = [...fitted.sparse.entries()]
    .filter(([, w]) => strength(w) > 1e-3)
    .sort((a, b) => strength(b[1]) - strength(a[1]))
    .slice(0, maxBuckets)
    .sort((a, b) => a[0] - b[0]);
  const maxAbs = Math.max(1e-9, ...kept.map(([, w]) => strength(w)));
  const scale = maxAbs / 127;
  const bytes = new Int8Array(kept.length * k);
  kept.forEach(([, w], i) => {
    for (let c = 0; c < k; c++) bytes[i * k + c] = Math.round((w[c] as number) / scale);
  });
  const r = (x: number) => Math.round(x * 1e5) / 1e5;
  return {
    name: meta.name,
    version: meta.version,
    classes: meta.classes,
    bits: fitted.bits,
    dense: meta.dense,
    denseWeights: fitted.denseWeights.map((row) => Array.from(row, r)),
    bias: Array.from(fitted.bias, r),
    scale,
    buckets: encodeBuckets(kept.map(([b]) => b)),
    weights: toBase64(new Uint8Array(bytes.buffer)),
    trainedOn: meta.trainedOn,
    cases: meta.cases,
  };
}
