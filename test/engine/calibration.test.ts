import { describe, expect, it } from "vitest";
import {
  applyCalibration,
  BLOCK_MIN_OUTCOMES,
  type CalibrationMap,
  calibrateBinary,
  calibrateChoice,
  expectedCalibrationError,
  fitCalibration,
  fitIsotonic,
  fitPlatt,
  IDENTITY_CALIBRATION,
  isCalibrationMap,
  type Outcome,
  reliabilityBands,
  SHRINK_OUTCOMES,
  shrinkTowards,
} from "../../lib/engine/calibration";
import {
  crossFittedOutcomes,
  fitMatchCalibration,
  GLOBAL_MATCH_CALIBRATION,
  judgeMatch,
  PRIOR_MATCH_MODEL,
} from "../../lib/engine/matcher";
import { MATCH_QUESTIONS, type MatchQuestion } from "../../lib/engine/types";

/** A seeded stream (mulberry32): the same outcomes every run. */
function stream(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Outcomes whose true rate is `truth(p)` at the raw probability p. */
function outcomes(n: number, truth: (p: number) => number, seed = 7): Outcome[] {
  const rand = stream(seed);
  return Array.from({ length: n }, () => {
    const p = rand();
    return { p, label: rand() < truth(p) ? 1 : 0 };
  });
}

const grid = Array.from({ length: 101 }, (_, i) => i / 100);

function expectMonotoneBounded(map: CalibrationMap) {
  let last = -1;
  for (const x of grid) {
    const y = applyCalibration(map, x);
    expect(y).toBeGreaterThanOrEqual(0);
    expect(y).toBeLessThanOrEqual(1);
    expect(y).toBeGreaterThanOrEqual(last);
    last = y;
  }
}

describe("calibration maps (lib/engine/calibration.ts)", () => {
  // Under-confident above the middle, over-confident below: the shape the matcher showed before calibration.
  const skew = (p: number) => Math.min(1, Math.max(0, 0.5 + 1.6 * (p - 0.5)));

  it("isotonic: monotone, bounded, and recovers the true rate where outcomes are many", () => {
    const data = outcomes(20_000, skew);
    const map = fitIsotonic(data);
    expect(map.method).toBe("isotonic");
    expectMonotoneBounded(map);
    // A few dozen breakpoints at most: blocks hold BLOCK_MIN_OUTCOMES outcomes or more.
    expect(map.points.length).toBeLessThanOrEqual(Math.ceil(20_000 / BLOCK_MIN_OUTCOMES));
    for (const x of [0.2, 0.4, 0.6, 0.8])
      expect(Math.abs(applyCalibration(map, x) - skew(x))).toBeLessThan(0.06);
    // Strictly increasing between its first and last breakpoints: no two raw probabilities tie once mapped.
    const inner = grid.filter((x) => x > map.points[0]![0] && x < map.points.at(-1)![0]);
    for (let i = 1; i < inner.length; i++)
      expect(applyCalibration(map, inner[i]!)).toBeGreaterThan(applyCalibration(map, inner[i - 1]!));
    // Never certainty, whatever the outcomes of a block.
    const allRight = fitIsotonic(outcomes(1_000, () => 1));
    expect(applyCalibration(allRight, 0.5)).toBeLessThan(1);
  });

  it("lowers the expected calibration error on fresh outcomes of the same kind", () => {
    const map = fitIsotonic(outcomes(20_000, skew, 1));
    const fresh = outcomes(20_000, skew, 2);
    const before = expectedCalibrationError(fresh);
    const after = expectedCalibrationError(
      fresh.map((o) => ({ p: applyCalibration(map, o.p), label: o.label })),
    );
    expect(before).toBeGreaterThan(0.05);
    expect(after).toBeLessThan(0.02);
  });

  it("is about the identity on input that is already calibrated", () => {
    const calibrated = outcomes(40_000, (p) => p, 3);
    for (const map of [fitIsotonic(calibrated), fitPlatt(calibrated)])
      for (const x of [0.1, 0.3, 0.5, 0.7, 0.9])
        expect(Math.abs(applyCalibration(map, x) - x)).toBeLessThan(0.04);
    // The identity map and no map give the raw probability back exactly.
    for (const x of grid) {
      expect(applyCalibration(IDENTITY_CALIBRATION, x)).toBe(x);
      expect(applyCalibration(undefined, x)).toBe(x);
    }
  });

  it("Platt scaling where outcomes are few, and a few outcomes move it only a little", () => {
    const few = outcomes(40, skew, 4);
    const map = fitCalibration(few);
    expect(map.method).toBe("platt");
    expectMonotoneBounded(map);
    const one = fitPlatt([{ p: 0.9, label: 0 }]);
    expect(applyCalibration(one, 0.9)).toBeLessThan(0.9);
    expect(applyCalibration(one, 0.9)).toBeGreaterThan(0.6);
  });

  it("a gallery's map stays near the prior with few outcomes and moves to its own with many", () => {
    const prior = fitIsotonic(outcomes(20_000, (p) => p, 5));
    const local = (n: number): CalibrationMap => ({ ...fitPlatt(outcomes(n, skew, 6)), outcomes: n });
    const gap = (a: CalibrationMap, b: CalibrationMap) =>
      Math.max(...grid.map((x) => Math.abs(applyCalibration(a, x) - applyCalibration(b, x))));
    const thin = shrinkTowards(local(20), prior);
    const thick = shrinkTowards(local(20_000), prior);
    expect(gap(thin, prior)).toBeLessThan(0.05 * gap(local(20), prior) + 0.01);
    expect(gap(thick, local(20_000))).toBeLessThan(gap(thick, prior));
    // Halfway at SHRINK_OUTCOMES outcomes.
    const half = shrinkTowards({ ...local(SHRINK_OUTCOMES), outcomes: SHRINK_OUTCOMES }, prior);
    const x = 0.85;
    const expected = (applyCalibration(local(SHRINK_OUTCOMES), x) + applyCalibration(prior, x)) / 2;
    expect(applyCalibration(half, x)).toBeCloseTo(expected, 2);
    expectMonotoneBounded(thin);
    expectMonotoneBounded(thick);
    // No outcomes: the prior.
    expect(gap(shrinkTowards({ ...IDENTITY_CALIBRATION, method: "platt" }, prior), prior)).toBeLessThan(1e-3);
  });

  it("is deterministic: the same outcomes in any order give the same map", () => {
    const data = outcomes(5_000, skew, 8);
    const a = fitCalibration(data);
    const b = fitCalibration([...data].reverse());
    expect(b).toEqual(a);
    expect(fitPlatt(data)).toEqual(fitPlatt([...data].reverse()));
  });

  it("keeps a chosen answer on its side and ahead", () => {
    const lower: CalibrationMap = { method: "platt", points: [[0.9, 0.55]], outcomes: 10 };
    expect(calibrateBinary(lower, 0.95)).toBeGreaterThanOrEqual(0.5);
    expect(calibrateBinary(lower, 0.05)).toBeLessThanOrEqual(0.5);
    const dist = { a: 0.5, b: 0.45, c: 0.05 };
    const out = calibrateChoice<"a" | "b" | "c">(lower, dist, "a");
    expect(out.a).toBeGreaterThanOrEqual(out.b);
    expect(out.a + out.b + out.c).toBeCloseTo(1, 2);
    expect(calibrateChoice(undefined, dist, "a")).toBe(dist);
  });

  it("measures: bands, flags and ECE", () => {
    const pairs: Outcome[] = [
      ...Array.from({ length: 20 }, (_, i) => ({ p: 0.65, label: (i < 10 ? 1 : 0) as 0 | 1 })),
      ...Array.from({ length: 5 }, () => ({ p: 0.95, label: 0 as const })),
    ];
    const bands = reliabilityBands(pairs);
    expect(bands[6]).toMatchObject({ n: 20, observed: 0.5, off: true });
    // Five pairs off by 0.95: too few to flag.
    expect(bands[9]).toMatchObject({ n: 5, observed: 0, off: false });
    expect(expectedCalibrationError(pairs)).toBeCloseTo((20 * 0.15 + 5 * 0.95) / 25, 6);
  });

  it("tells a stored map from a reliability table", () => {
    expect(isCalibrationMap(GLOBAL_MATCH_CALIBRATION)).toBe(true);
    expect(isCalibrationMap([{ bin: "0.0–0.1", predicted: 0.05, observed: 0, n: 1 }])).toBe(false);
    expect(isCalibrationMap({ method: "isotonic", points: [[0.5, 2]] })).toBe(false);
  });
});

describe("the matcher's calibration", () => {
  const subScores = (v: number) =>
    Object.fromEntries(MATCH_QUESTIONS.map((q) => [q, v])) as Record<MatchQuestion, number>;

  it("cross-fits: every outcome judged by a model fitted without its contact", () => {
    const rand = stream(9);
    const examples = Array.from({ length: 400 }, (_, i) => {
      const v = rand();
      return { subScores: subScores(v), label: (rand() < v ? 1 : 0) as 0 | 1, contactId: `c${i % 40}` };
    });
    const out = crossFittedOutcomes(examples);
    expect(out).toHaveLength(examples.length);
    expect(crossFittedOutcomes(examples)).toEqual(out);
    const map = fitMatchCalibration(examples, { towards: GLOBAL_MATCH_CALIBRATION });
    expect(map.method).toBe("blend");
    expect(map.outcomes).toBe(400);
    expectMonotoneBounded(map);
  });

  it("the shipped maps are monotone and keep strong evidence above the visible floor", () => {
    expectMonotoneBounded(GLOBAL_MATCH_CALIBRATION);
    expectMonotoneBounded(PRIOR_MATCH_MODEL.calibration!);
    // The global map keeps what the fitted model gives above 0.8 above 0.6.
    expect(applyCalibration(GLOBAL_MATCH_CALIBRATION, 0.8)).toBeGreaterThan(0.6);
    const work = {
      id: "w1",
      title: "Field",
      artistId: "a1",
      artistName: "Ines Marchetti",
      medium: "Oil on canvas",
      year: 2020,
      heightCm: 80,
      widthCm: 60,
      priceCents: 1_200_000,
      currency: "EUR",
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    const bought = (id: string, at: string) => ({
      id,
      at,
      priceCents: 1_100_000,
      currency: "EUR",
      work: { ...work, id: `${id}-w` },
    });
    const contact = {
      id: "c1",
      name: "A collector",
      priceBand: "5k_25k",
      totalSpendCents: 2_200_000,
      facts: [],
      purchases: [bought("s1", "2025-03-01T00:00:00.000Z"), bought("s2", "2025-09-01T00:00:00.000Z")],
      interactions: [],
      engagements: [],
      feedback: [],
    };
    // Two purchases of the same artist, medium and price band: still well above the visible floor of 0.6.
    const j = judgeMatch(contact, work, PRIOR_MATCH_MODEL, new Date("2026-06-01T00:00:00.000Z"));
    expect(j.probability).toBeGreaterThan(0.6);
  });
});
