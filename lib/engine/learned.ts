/**
 * Learned weights: a linear model over a text's words, word pairs and character n-grams (hashed), beside dense
 * features that the rules supply (their cue scores, their decision). Fitted on the labelled set by
 * `npm run engine:train` (scripts/engine-train/) and shipped as versioned data in lib/engine/models/; design §8:
 * rules propose, learned weights decide.
 *
 * Why this shape: the rules know English and a little of five other languages, one phrase at a time; the
 * n-grams learn word families and languages from labelled examples, including text written without spaces
 * (Chinese, Japanese, Korean are cut into words by workerd's Intl.Segmenter and read as characters and
 * character pairs too), so a word nobody listed still moves the judgment through its pieces.
 */

import { findConcepts } from "./vocabulary";

/** One model as shipped: weights quantised to int8 per feature bucket, the dense weights and biases as floats. */
export interface LinearModelData {
  /** What it judges: "triage-intent", "triage-urgency", "triage-reply", "triage-escalating", "disclosure". */
  name: string;
  /** The version written into every judgment's `model`. */
  version: string;
  /** The values it chooses between, in the order of the weights. */
  classes: string[];
  /** Size of the hashed feature space, as a power of two. */
  bits: number;
  /** Names of the dense features, in the order the caller passes them. */
  dense: string[];
  denseWeights: number[][];
  bias: number[];
  /** A bucket's weight for class k is `weights[i * classes + k] * scale`. */
  scale: number;
  /** The kept buckets, ascending, as base64 of unsigned LEB128 deltas. */
  buckets: string;
  /** int8 weights, base64, `classes` per kept bucket. */
  weights: string;
  /** SHA-256 of the labelled cases it was fitted on (hex), so a stale model is caught by a test. */
  trainedOn: string;
  /** How many labelled cases it was fitted on. */
  cases: number;
}

export interface LoadedModel {
  data: LinearModelData;
  index: Map<number, number>;
  weights: Int8Array;
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Unsigned LEB128 of the gaps between ascending bucket numbers. */
export function encodeBuckets(buckets: number[]): string {
  const bytes: number[] = [];
  let previous = 0;
  for (const bucket of buckets) {
    let gap = bucket - previous;
    previous = bucket;
    do {
      const low = gap & 0x7f;
      gap >>>= 7;
      bytes.push(gap > 0 ? low | 0x80 : low);
    } while (gap > 0);
  }
  return toBase64(Uint8Array.from(bytes));
}

function decodeBuckets(text: string): number[] {
  const bytes = fromBase64(text);
  const out: number[] = [];
  let previous = 0;
  let value = 0;
  let shift = 0;
  for (const byte of bytes) {
    value |= (byte & 0x7f) << shift;
    if (byte & 0x80) shift += 7;
    else {
      previous += value;
      out.push(previous);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** Decodes a shipped model once; the judges keep it for the isolate's life. */
export function loadModel(data: LinearModelData): LoadedModel {
  const buckets = decodeBuckets(data.buckets);
  const index = new Map<number, number>();
  buckets.forEach((bucket, i) => {
    index.set(bucket, i);
  });
  const bytes = fromBase64(data.weights);
  return { data, index, weights: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
}

// ---------------------------------------------------------------------------------------------------------
// Features

/** A feature of a text and the span of the text it came from (for evidence). */
export interface TextFeature {
  key: string;
  start: number;
  end: number;
}

/** 32-bit FNV-1a over the UTF-16 code units. */
export function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Scripts written without spaces between words: read as characters and character pairs as well as words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const COMBINING = /[\u0300-\u036f]/g;

/** Lower case, accents folded (é → e, ü → u) so "Überweisung" and "uberweisung" meet; digits as one shape. */
export function fold(word: string): string {
  return word.toLowerCase().normalize("NFD").replace(COMBINING, "").normalize("NFC").replace(/\d/g, "0");
}

let segmenter: Intl.Segmenter | null = null;

function words(text: string): { word: string; start: number; end: number }[] {
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const out: { word: string; start: number; end: number }[] = [];
  for (const s of segmenter.segment(text)) {
    if (!s.isWordLike) continue;
    out.push({ word: s.segment, start: s.index, end: s.index + s.segment.length });
  }
  return out;
}

const EMOJI = /\p{Extended_Pictographic}/u;
const CURRENCY = /[€£$¥₩]|\b\d+([.,]\d+)?\s?k\b|\b(eur|usd|gbp|chf|sek|dkk|nok|jpy|cny|rmb|krw)\b/i;
const LINK = /https?:\/\/|www\.|\b[\w-]+\.(com|net|info|top|ru|xyz|io)\b/i;

/**
 * A text's features, each with the span it came from: words ("w:"), word pairs ("p:"), character n-grams of
 * 3 to 5 within a word ("c:"), characters and character pairs of unspaced scripts ("u:", "v:"), concepts of the
 * gallery vocabulary ("k:", lib/engine/vocabulary.ts), and a few
 * shapes of the whole text ("s:": asks a question, has a figure, an amount, an emoji, a link, is short).
 * `prefix` keeps the features of different fields apart ("" for the body, "subj." for a subject).
 */
export function textFeatures(text: string, prefix = ""): TextFeature[] {
  const out: TextFeature[] = [];
  const found = words(text);
  let previous: { word: string; start: number } | null = null;
  for (const { word, start, end } of found) {
    const folded = fold(word);
    out.push({ key: `${prefix}w:${folded}`, start, end });
    if (previous) out.push({ key: `${prefix}p:${previous.word} ${folded}`, start: previous.start, end });
    previous = { word: folded, start };
    if (UNSPACED.test(word)) {
      const chars = Array.from(word);
      let at = start;
      chars.forEach((ch, i) => {
        out.push({ key: `${prefix}u:${ch}`, start: at, end: at + ch.length });
        const next = chars[i + 1];
        if (next) out.push({ key: `${prefix}v:${ch}${next}`, start: at, end: at + ch.length + next.length });
        at += ch.length;
      });
    } else if (folded.length >= 3 && folded.length <= 24) {
      const padded = `<${folded}>`;
      for (let n = 3; n <= 5; n++)
        for (let i = 0; i + n <= padded.length; i++)
          out.push({ key: `${prefix}c:${padded.slice(i, i + n)}`, start, end });
    }
  }
  // Character pairs across word edges of unspaced text: the segmenter's dictionary may cut a word nobody
  // listed in two, its pairs still meet.
  for (const run of text.matchAll(
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2,}/gu,
  )) {
    const chars = Array.from(run[0]);
    let at = run.index;
    for (let i = 0; i + 1 < chars.length; i++) {
      const a = chars[i] as string;
      const b = chars[i + 1] as string;
      out.push({ key: `${prefix}v:${a}${b}`, start: at, end: at + a.length + b.length });
      at += a.length;
    }
  }
  // Concepts of the gallery vocabulary, the same feature in every language.
  for (const hit of findConcepts(text, found))
    out.push({ key: `${prefix}k:${hit.concept}`, start: hit.start, end: hit.end });
  const whole = { start: 0, end: 0 };
  if (text.includes("?") || text.includes("？")) out.push({ key: `${prefix}s:asks`, ...whole });
  if (/\d/.test(text)) out.push({ key: `${prefix}s:figure`, ...whole });
  if (CURRENCY.test(text)) out.push({ key: `${prefix}s:amount`, ...whole });
  if (EMOJI.test(text)) out.push({ key: `${prefix}s:emoji`, ...whole });
  if (LINK.test(text)) out.push({ key: `${prefix}s:link`, ...whole });
  if (found.length <= 6) out.push({ key: `${prefix}s:short`, ...whole });
  else if (found.length > 80) out.push({ key: `${prefix}s:long`, ...whole });
  if (found.length === 0) out.push({ key: `${prefix}s:empty`, ...whole });
  return out;
}

/** Hashed, de-duplicated features with one weight each, scaled so a long text does not outvote a short one. */
export function vectorOf(features: TextFeature[], bits: number): Map<number, number> {
  const mask = 2 ** bits - 1;
  const vector = new Map<number, number>();
  for (const f of features) vector.set(hash(f.key) & mask, 1);
  const scale = 1 / Math.sqrt(Math.max(1, vector.size));
  for (const [k] of vector) vector.set(k, scale);
  return vector;
}

// ---------------------------------------------------------------------------------------------------------
// Prediction

export interface Prediction<T extends string> {
  /** Probability of each class. */
  distribution: Record<T, number>;
  best: T;
  /** The words that moved it most towards `best`, with their spans (strongest first). */
  reasons: { start: number; end: number; weight: number }[];
}

/** Each class's score, and each feature's share of the chosen class's lead, for evidence. */
export function predict<T extends string>(
  model: LoadedModel,
  features: TextFeature[],
  dense: number[],
): Prediction<T> {
  const { data, index, weights } = model;
  const k = data.classes.length;
  const scores = data.bias.slice();
  dense.forEach((x, d) => {
    const row = data.denseWeights[d];
    if (row && x !== 0) for (let c = 0; c < k; c++) scores[c] = (scores[c] ?? 0) + (row[c] ?? 0) * x;
  });
  const vector = vectorOf(features, data.bits);
  for (const [bucket, x] of vector) {
    const at = index.get(bucket);
    if (at === undefined) continue;
    for (let c = 0; c < k; c++) scores[c] = (scores[c] ?? 0) + (weights[at * k + c] ?? 0) * data.scale * x;
  }
  const top = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - top));
  const total = exps.reduce((a, b) => a + b, 0);
  const distribution = {} as Record<T, number>;
  let bestIndex = 0;
  data.classes.forEach((c, i) => {
    distribution[c as T] = (exps[i] ?? 0) / total;
    if ((scores[i] ?? 0) > (scores[bestIndex] ?? 0)) bestIndex = i;
  });
  return {
    distribution,
    best: data.classes[bestIndex] as T,
    reasons: reasonsFor(model, features, bestIndex),
  };
}

/** The spans whose features pushed class `c` above the others' mean, merged per span, strongest first. */
function reasonsFor(model: LoadedModel, features: TextFeature[], c: number) {
  const { data, index, weights } = model;
  const k = data.classes.length;
  const rowOf = (bucket: number) => {
    const at = index.get(bucket);
    return at === undefined ? undefined : weights.subarray(at * k, at * k + k);
  };
  return spanReasons(features, data.bits, c, rowOf, data.scale);
}

/**
 * The spans whose buckets lead class `c` above the other classes' mean, by the weights `rowOf` gives a bucket
 * (one per class, times `scale`), merged per span, strongest first: the words a linear model, or an offset to one, leaned on.
 */
export function spanReasons(
  features: TextFeature[],
  bits: number,
  c: number,
  rowOf: (bucket: number) => ArrayLike<number> | undefined,
  scale = 1,
): { start: number; end: number; weight: number }[] {
  const mask = 2 ** bits - 1;
  const bySpan = new Map<string, { start: number; end: number; weight: number }>();
  const seen = new Set<number>();
  for (const f of features) {
    if (f.end <= f.start) continue;
    const bucket = hash(f.key) & mask;
    const row = rowOf(bucket);
    if (!row || seen.has(bucket)) continue;
    seen.add(bucket);
    const k = row.length;
    let others = 0;
    for (let j = 0; j < k; j++) if (j !== c) others += row[j] ?? 0;
    const lead = ((row[c] ?? 0) - others / Math.max(1, k - 1)) * scale;
    const key = `${f.start}:${f.end}`;
    const span = bySpan.get(key) ?? { start: f.start, end: f.end, weight: 0 };
    span.weight += lead;
    bySpan.set(key, span);
  }
  return [...bySpan.values()].filter((s) => s.weight > 0).sort((a, b) => b.weight - a.weight);
}
