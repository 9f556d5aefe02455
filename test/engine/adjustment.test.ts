import { describe, expect, it } from "vitest";
import {
  type AdjustmentExample,
  applyAdjustment,
  fitIntentAdjustment,
  logScores,
  offsetOf,
} from "../../lib/engine/adjustment";
import { textFeatures, vectorOf } from "../../lib/engine/learned";
import { intentExample, judgeTriage, SHARED_INTENT_MODEL, TRIAGE_MODEL } from "../../lib/engine/triage-judge";
import type { TriageInput } from "../../lib/engine/types";
import { SAME_AS_LAST_TIME } from "../helpers/fixtures";

/**
 * A gallery's adjustment of the shared intent model (lib/engine/adjustment.ts): an L2-regularised offset to the
 * shared scores, fitted on the gallery's corrected intents. With no examples it changes nothing; with examples of
 * one kind of message it moves that kind and leaves others as the shared model judges them.
 */

const BITS = 16;
const argmax = (xs: number[]) => xs.reduce((best, x, i) => (x > (xs[best] ?? -Infinity) ? i : best), 0);
const softmax = (xs: number[]) => {
  const top = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - top));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
};

/** Texts of one kind, which a shared model (scores favouring class 2) gets wrong; the member says class 0. */
const KIND = [
  "alpha beta",
  "alpha gamma",
  "beta alpha delta",
  "alpha again",
  "alpha, as before",
  "the alpha one",
  "alpha for us",
  "alpha kappa",
  "alpha and lambda",
  "one more alpha",
];
const SHARED = [0, 0, 1];
const examplesOf = (texts: string[], label = 0): AdjustmentExample[] =>
  texts.map((t) => ({ features: textFeatures(t), sharedScores: SHARED, label }));
const adjusted = (text: string, adjustment: ReturnType<typeof fitIntentAdjustment>) =>
  applyAdjustment(SHARED, vectorOf(textFeatures(text), BITS), adjustment);

describe("fitIntentAdjustment", () => {
  it("with no examples is the zero offset: the shared scores unchanged", () => {
    const adjustment = fitIntentAdjustment([], BITS, { classes: 3, shared: "shared@1" });
    expect(adjustment).toMatchObject({
      examples: 0,
      bits: BITS,
      shared: "shared@1",
      bias: [0, 0, 0],
      weights: {},
    });
    expect(adjusted("alpha beta", adjustment)).toEqual(SHARED);
    expect(offsetOf(vectorOf(textFeatures("anything at all"), BITS), adjustment)).toEqual([0, 0, 0]);
  });

  it("moves the corrected class on the kind of text the examples show, and not on others", () => {
    const adjustment = fitIntentAdjustment(examplesOf(KIND), BITS, { shared: "shared@1" });
    expect(adjustment.examples).toBe(KIND.length);
    expect(adjustment.bias).toHaveLength(3);
    // A text of the kind it never saw: the member's class wins.
    expect(argmax(adjusted("alpha once more", adjustment))).toBe(0);
    // Another kind: the shared model's choice stands, barely moved.
    const other = adjusted("omega zeta", adjustment);
    expect(argmax(other)).toBe(2);
    expect(softmax(other)[2]).toBeGreaterThan(softmax(SHARED)[2]! - 0.15);
    // The bias is held near zero: the words carry the move.
    expect(Math.max(...adjustment.bias.map(Math.abs))).toBeLessThan(0.5);
    // JSON-safe, as stored.
    expect(JSON.parse(JSON.stringify(adjustment))).toEqual(adjustment);
  });

  it("moves as far as the evidence goes: more examples, more move; a stronger L2, less", () => {
    const lift = (a: ReturnType<typeof fitIntentAdjustment>) => {
      const s = adjusted("alpha once more", a);
      return s[0]! - s[2]!;
    };
    const one = fitIntentAdjustment(examplesOf(KIND.slice(0, 1)), BITS);
    const five = fitIntentAdjustment(examplesOf(KIND), BITS);
    const stiff = fitIntentAdjustment(examplesOf(KIND), BITS, { l2: 100, biasL2: 100 });
    expect(lift(one)).toBeGreaterThan(SHARED[0]! - SHARED[2]!);
    expect(lift(five)).toBeGreaterThan(lift(one));
    expect(lift(stiff)).toBeLessThan(lift(five));
    expect(lift(stiff)).toBeLessThan(0);
  });

  it("is deterministic: the same examples give the same version", () => {
    const a = fitIntentAdjustment(examplesOf(KIND), BITS, { shared: "shared@1" });
    const b = fitIntentAdjustment(examplesOf(KIND), BITS, { shared: "shared@1" });
    expect(b).toEqual(a);
    expect(a.version).toMatch(/^[0-9a-f]{8}$/);
    expect(fitIntentAdjustment(examplesOf(KIND.slice(1)), BITS, { shared: "shared@1" }).version).not.toBe(
      a.version,
    );
  });

  it("log scores give back the distribution", () => {
    const dist = { a: 0.7, b: 0.2, c: 0.1 };
    const back = softmax(logScores(dist, ["a", "b", "c"]));
    expect(back[0]).toBeCloseTo(0.7, 10);
    expect(back[2]).toBeCloseTo(0.1, 10);
  });
});

/** A one-message thread, as a regular client writes it. */
const thread = (body: string): TriageInput => ({
  channel: "email",
  messages: [
    {
      direction: "inbound",
      body,
      subject: null,
      sentAt: "2026-03-04T10:15:00Z",
      fromName: "Marta Lindqvist",
      fromAddress: "marta.lindqvist@example.com",
    },
  ],
  timeZone: null,
});

describe("the triage judge with a gallery's adjustment", () => {
  const classes = SHARED_INTENT_MODEL.data.classes;
  const fitted = fitIntentAdjustment(
    SAME_AS_LAST_TIME.map((t) => ({
      ...intentExample(thread(t)),
      label: classes.indexOf("purchase_inquiry"),
    })),
    SHARED_INTENT_MODEL.data.bits,
    { shared: TRIAGE_MODEL, classes: classes.length },
  );

  it("judges the corrected kind as the members said, names the adjustment, and leaves other kinds alone", () => {
    const probe = thread("Same as last time for the new one?");
    const shared = judgeTriage(probe);
    expect(shared.intent, "the shared model already says so: the test shows nothing").not.toBe(
      "purchase_inquiry",
    );
    const judged = judgeTriage(probe, fitted);
    expect(judged.intent).toBe("purchase_inquiry");
    expect(judged.model).toBe(`${TRIAGE_MODEL}+gallery.${fitted.version}`);
    expect(judged.signals.some((s) => s.includes("the gallery's own corrections"))).toBe(true);
    expect(Object.values(judged.intentDistribution).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);

    for (const body of [
      "Could you send the invoice for the two prints again? Our accounts team needs it.",
      "Is the large canvas in the window still available?",
      "When will the crate be delivered to our Hamburg address?",
    ]) {
      expect(judgeTriage(thread(body), fitted).intent, body).toBe(judgeTriage(thread(body)).intent);
    }
  });

  it("applies no adjustment fitted over another shared model, or on no examples", () => {
    const probe = thread("Same as last time for the new one?");
    const shared = judgeTriage(probe);
    expect(judgeTriage(probe, { ...fitted, shared: "triage-linear@00000000" })).toEqual(shared);
    const empty = fitIntentAdjustment([], SHARED_INTENT_MODEL.data.bits, {
      shared: TRIAGE_MODEL,
      classes: classes.length,
    });
    expect(judgeTriage(probe, empty)).toEqual(shared);
    expect(judgeTriage(probe, null)).toEqual(shared);
  });
});
