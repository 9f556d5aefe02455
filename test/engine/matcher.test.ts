import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { applyCalibration } from "../../lib/engine/calibration";
import {
  AFFINITY_MAX_ARTISTS,
  AFFINITY_MAX_NEIGHBOURS,
  candidateQuery,
  fitArtistAffinity,
  fitMatchModel,
  judgeMatch,
  MATCH_MODEL_NAME,
  MATCH_STORE_FLOOR,
  MAX_STORED_MATCHES,
  matchContact,
  mediumWords,
  PRIOR_MATCH_MODEL,
  priceBandOf,
  reasonsOf,
  reliabilityTable,
  trainingExamples,
} from "../../lib/engine/matcher";
import { MATCH_QUESTIONS, type MatchContact, type MatchModel, type MatchWork } from "../../lib/engine/types";
import {
  COLLECTORS,
  figures,
  fittedModel,
  type MatcherFigures,
  toContact,
  WORKS,
} from "../../scripts/engine-score/matcher";

/** The matcher: sub-scores, negation in facts, evidence, exclusions, the model's fit, and the labelled set. */

const NOW = new Date("2026-11-27T00:00:00Z");

let seq = 0;
function work(over: Partial<MatchWork> = {}): MatchWork {
  seq++;
  return {
    id: `art_${seq}`,
    title: `Work ${seq}`,
    artistId: "artist_marchetti",
    artistName: "Ines Marchetti",
    medium: "Oil on canvas",
    year: 2019,
    heightCm: 80,
    widthCm: 60,
    priceCents: 1_200_000,
    currency: "EUR",
    createdAt: "2024-01-01T00:00:00.000Z",
    ...over,
  };
}

function contact(over: Partial<MatchContact> = {}): MatchContact {
  return {
    id: "con_1",
    name: "Anna Albers",
    priceBand: null,
    totalSpendCents: null,
    facts: [],
    purchases: [],
    interactions: [],
    engagements: [],
    feedback: [],
    ...over,
  };
}

const bought = (w: MatchWork, at = "2025-03-10T10:00:00.000Z", id = `sale_${w.id}`) => ({
  id,
  at,
  priceCents: w.priceCents,
  currency: w.currency,
  work: w,
});
const fact = (text: string, kind = "notes", id = "con_1") => ({ id, kind, text, at: null });

describe("facts are read with their negations", () => {
  const photo = work({ medium: "Gelatin silver print", artistId: "a_x", artistName: "Hanna Petrov" });
  const print = work({ medium: "Etching, edition of 25", artistId: "a_y", artistName: "Tomas Lindqvist" });
  const painting = work({ artistId: "a_z", artistName: "Ada Ruiz" });
  const ceramic = work({ medium: "Stoneware, celadon glaze", artistId: "a_w", artistName: "Zofia Fournier" });
  const medium = (c: MatchContact, w: MatchWork) => judgeMatch(c, w, PRIOR_MATCH_MODEL, NOW).subScores.medium;

  it("'not interested in photography' counts against a photograph, 'collects photography' for it", () => {
    const against = contact({ facts: [fact("Not interested in photography.")] });
    const forIt = contact({
      facts: [fact("Collects photography, mostly silver prints.", "collecting_focus")],
    });
    expect(medium(against, photo)).toBeLessThan(0.1);
    expect(medium(forIt, photo)).toBeGreaterThan(0.8);
    const j = judgeMatch(against, photo, PRIOR_MATCH_MODEL, NOW);
    expect(j.evidence.find((e) => e.question === "medium")?.label).toBe(
      "Profile notes: Not interested in photography",
    );
  });

  it("'no more prints' counts against a print even after buying prints", () => {
    const history = work({ medium: "Lithograph, edition of 40", artistId: "a_q", artistName: "Vera Aziz" });
    const c = contact({
      purchases: [bought(history)],
      facts: [fact("No more prints, the walls are full of them.")],
    });
    expect(medium(c, print)).toBeLessThan(0.1);
    expect(medium(contact({ purchases: [bought(history)] }), print)).toBeGreaterThan(0.8);
  });

  it("'moved away from painting, now buying ceramics' is against painting and for ceramics", () => {
    const c = contact({ facts: [fact("Moved away from painting, now buying ceramics.")] });
    expect(medium(c, painting)).toBeLessThan(0.1);
    expect(medium(c, ceramic)).toBeGreaterThan(0.8);
  });

  it("a note about someone else is set aside", () => {
    const c = contact({ facts: [fact("His daughter loves photography.")] });
    expect(medium(c, photo)).toBe(medium(contact(), photo));
  });

  it("an artist named against is never a reason for", () => {
    const c = contact({ facts: [fact("Do not offer Marchetti again. Loves oil paintings.")] });
    const j = judgeMatch(c, work(), PRIOR_MATCH_MODEL, NOW);
    expect(j.subScores.artist).toBe(0);
    const wished = contact({ facts: [fact("Waiting list for Ines Marchetti", "wishlist_notes")] });
    expect(judgeMatch(wished, work(), PRIOR_MATCH_MODEL, NOW).subScores.artist).toBeGreaterThan(0.8);
  });

  it("a size limit and a period read from facts", () => {
    const c = contact({ facts: [fact("No room for large works. Contemporary only.")] });
    const big = work({ heightCm: 180, widthCm: 220 });
    const small = work({ heightCm: 40, widthCm: 30 });
    const old = work({ year: 1885 });
    expect(judgeMatch(c, big, PRIOR_MATCH_MODEL, NOW).subScores.size).toBeLessThan(0.1);
    expect(judgeMatch(c, small, PRIOR_MATCH_MODEL, NOW).subScores.size).toBeGreaterThan(0.5);
    expect(judgeMatch(c, old, PRIOR_MATCH_MODEL, NOW).subScores.period).toBeLessThan(0.1);
    expect(judgeMatch(c, small, PRIOR_MATCH_MODEL, NOW).subScores.period).toBeGreaterThan(0.8);
  });
});

describe("judging a pair", () => {
  const oil = work();
  const sameArtist = work({ title: "Autumn Salon study" });
  const history = contact({
    priceBand: "5k_25k",
    facts: [
      fact("Post-war abstraction and oil paintings", "collecting_focus"),
      {
        id: "pn_1",
        kind: "private_note",
        text: "Budget around €15,000 a piece.",
        at: "2024-01-01T00:00:00.000Z",
      },
    ],
    purchases: [bought(oil, "2024-03-05T10:00:00.000Z", "sale_1")],
    interactions: [
      {
        id: "int_1",
        at: "2026-10-01T10:00:00.000Z",
        type: "email",
        direction: "inbound",
        summary: "Asked for the price",
        work: sameArtist,
      },
    ],
    engagements: [{ id: "eng_1", at: "2026-10-20T10:00:00.000Z", kind: "artwork_viewed", work: sameArtist }],
    feedback: [
      { id: "mfb_1", artworkId: sameArtist.id, action: "good_match", at: "2026-10-21T10:00:00.000Z" },
    ],
  });

  it("says a work seen in person was seen, and a message about it asked", () => {
    const seen = work();
    const at = "2025-10-15T12:00:00.000Z";
    const interaction = (type: string, direction: string | null) => ({
      id: `int_${type}`,
      at,
      type,
      direction,
      summary: null,
      work: seen,
    });
    const labels = (type: string, direction: string | null) =>
      judgeMatch(contact({ interactions: [interaction(type, direction)] }), seen, PRIOR_MATCH_MODEL, NOW)
        .evidence.filter((e) => e.kind !== "work_fact")
        .map((e) => `${e.label} (${e.source_label})`);
    expect(labels("event", null).join(" ")).toContain(
      "Spent time with this work at an event in October 2025 (Event)",
    );
    expect(labels("visit", null).join(" ")).toContain("(Visit)");
    expect(labels("email", "inbound").join(" ")).toContain("Inquiry by email");
  });

  it("says a pending sale reserved the work, and shows the purchases of the band it names", () => {
    const cheap = work({ id: "art_cheap", priceCents: 300_000, currency: "USD" });
    const mid1 = work({ id: "art_mid1", priceCents: 1_500_000, currency: "USD" });
    const mid2 = work({ id: "art_mid2", priceCents: 1_800_000, currency: "USD" });
    const dear = work({ id: "art_dear", priceCents: 9_000_000, currency: "USD" });
    const sale = (w: MatchWork, id: string, pending = false) => ({
      id,
      at: "2025-06-01T10:00:00.000Z",
      priceCents: w.priceCents,
      currency: "USD",
      pending,
      work: w,
    });
    const buyer = contact({
      purchases: [
        sale(cheap, "sale_c"),
        sale(mid1, "sale_m1", true),
        sale(mid2, "sale_m2"),
        sale(dear, "sale_d"),
      ],
    });
    const j = judgeMatch(buyer, work({ priceCents: 1_600_000, currency: "USD" }), PRIOR_MATCH_MODEL, NOW);
    const price = j.evidence.filter((e) => e.question === "price");
    expect(price.length).toBeGreaterThan(0);
    expect(price.every((e) => e.label.startsWith("Usually spends in the 5k–25k band"))).toBe(true);
    expect(price.map((e) => e.evidence_id).sort()).toEqual(["sale_m1", "sale_m2"]);
    expect(price.find((e) => e.evidence_id === "sale_m1")!.label).toContain("reserved");
    const labels = j.evidence.map((e) => e.label).join(" | ");
    expect(labels).not.toMatch(/Bought [^|]* by [^|]*\(sale pending\)/);
    expect(j.evidence.some((e) => e.evidence_id === "sale_m1" && /sale pending/.test(e.label))).toBe(true);
  });

  it("shows a stored budget band in words", () => {
    const j = judgeMatch(contact({ facts: [fact("5k_25k", "budget_band")] }), work(), PRIOR_MATCH_MODEL, NOW);
    const labels = j.evidence.map((e) => e.label);
    expect(labels).toContain("Budget: 5k–25k");
    expect(labels.join(" ")).not.toContain("5k_25k");
  });

  it("gives one reason per record even when the record answered two questions", () => {
    const focused = contact({ facts: [fact("Post-war oil paintings", "collecting_focus")] });
    const j = judgeMatch(focused, work({ year: 1958 }), PRIOR_MATCH_MODEL, NOW);
    const fromFocus = j.evidence.filter((e) => e.kind === "memory_fact");
    expect(new Set(fromFocus.map((e) => e.question)).size).toBeGreaterThan(1);
    const reasons = reasonsOf(j);
    const keys = reasons.map((e) => `${e.kind} ${e.evidence_id} ${e.label}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(reasons.filter((e) => e.kind === "memory_fact").length).toBe(1);
  });

  it("scores every question 0–1 and gives a probability from the model", () => {
    const j = judgeMatch(history, sameArtist, PRIOR_MATCH_MODEL, NOW);
    expect(Object.keys(j.subScores).sort()).toEqual([...MATCH_QUESTIONS].sort());
    for (const q of MATCH_QUESTIONS) {
      expect(j.subScores[q]).toBeGreaterThanOrEqual(0);
      expect(j.subScores[q]).toBeLessThanOrEqual(1);
    }
    let z = PRIOR_MATCH_MODEL.bias;
    for (const q of MATCH_QUESTIONS) z += PRIOR_MATCH_MODEL.weights[q] * j.subScores[q];
    // σ(bias + Σ w·s) through the prior's calibration map (lib/engine/calibration.ts).
    expect(j.probability).toBeCloseTo(
      applyCalibration(PRIOR_MATCH_MODEL.calibration, 1 / (1 + Math.exp(-z))),
      3,
    );
    expect(j.model).toBe(MATCH_MODEL_NAME);
    expect(j.subScores.artist).toBeGreaterThan(0.6);
    expect(j.subScores.engagement).toBeGreaterThan(0.9);
    expect(j.probability).toBeGreaterThan(0.9);
    // A work of another medium, artist and price by the same contact comes out far lower.
    const other = work({
      medium: "Archival pigment print",
      artistId: "a_p",
      artistName: "Nils Moreau",
      priceCents: 90_000_000,
    });
    expect(judgeMatch(history, other, PRIOR_MATCH_MODEL, NOW).probability).toBeLessThan(0.1);
  });

  it("evidence ids resolve to the rows it came from, labels in gallery words, never the work's price", () => {
    const j = judgeMatch(history, sameArtist, PRIOR_MATCH_MODEL, NOW);
    const ids = new Set(["con_1", "pn_1", "sale_1", "int_1", "eng_1", "mfb_1"]);
    expect(j.evidence.length).toBeGreaterThan(3);
    for (const e of j.evidence) {
      if (e.kind === "work_fact") expect(e.evidence_id).toBeNull();
      else expect(ids.has(e.evidence_id!)).toBe(true);
      expect(e.label).not.toMatch(/12[,.]?000/);
      if (e.source_label !== "Private note") expect(e.label).not.toMatch(/€|EUR/);
    }
    const labels = j.evidence.map((e) => `${e.source_label}: ${e.label}`);
    expect(labels).toContain("Sale: Bought an oil on canvas by Ines Marchetti in March 2024");
    expect(labels).toContain("Viewing room: Viewed this work in October 2026");
    expect(labels).toContain("Feedback: A member marked this work a good match");
    expect(labels).toContain("Inquiry by email: Asked about this work in October 2026");
    expect(labels).toContain("Collecting focus: Collecting focus: Post-war abstraction and oil paintings");
    // Strongest first.
    const weights = j.evidence.map((e) => e.weight);
    expect([...weights].sort((a, b) => b - a)).toEqual(weights);
  });

  it("an unpriced work is neutral on price; a work dearer than the contact spends is not", () => {
    const unpriced = work({ priceCents: null });
    expect(judgeMatch(history, unpriced, PRIOR_MATCH_MODEL, NOW).subScores.price).toBe(0.5);
    expect(judgeMatch(contact(), work(), PRIOR_MATCH_MODEL, NOW).subScores.price).toBe(0.5);
    const dear = work({ priceCents: 40_000_000 });
    expect(judgeMatch(history, dear, PRIOR_MATCH_MODEL, NOW).subScores.price).toBeLessThan(0.1);
    expect(judgeMatch(history, work(), PRIOR_MATCH_MODEL, NOW).subScores.price).toBeGreaterThan(0.9);
  });

  it("is deterministic: the same inputs give the same judgment, whatever the order of the history", () => {
    const a = judgeMatch(history, sameArtist, PRIOR_MATCH_MODEL, NOW);
    const b = judgeMatch(structuredClone(history), structuredClone(sameArtist), PRIOR_MATCH_MODEL, NOW);
    expect(b).toEqual(a);
    const reversed = { ...history, facts: [...history.facts].reverse() };
    expect(judgeMatch(reversed, sameArtist, PRIOR_MATCH_MODEL, NOW).probability).toBe(a.probability);
  });

  it("a member's good match raises that pair, with the feedback as its evidence", () => {
    const elsewhere = work({ medium: "Bronze, edition of 8", artistId: "a_b", artistName: "Noor Olsen" });
    const c = contact({
      feedback: [
        { id: "mfb_2", artworkId: elsewhere.id, action: "good_match", at: "2026-11-01T00:00:00.000Z" },
      ],
    });
    const j = judgeMatch(c, elsewhere, PRIOR_MATCH_MODEL, NOW);
    expect(j.subScores.engagement).toBeGreaterThan(0.9);
    expect(j.evidence[0]).toMatchObject({ kind: "feedback", evidence_id: "mfb_2", question: "engagement" });
    expect(judgeMatch(contact(), elsewhere, PRIOR_MATCH_MODEL, NOW).subScores.engagement).toBe(0);
  });

  it("ignores history after `now` (no leakage from the future)", () => {
    const before = new Date("2024-01-01T00:00:00Z");
    const j = judgeMatch(history, sameArtist, PRIOR_MATCH_MODEL, before);
    expect(j.subScores.artist).toBe(0);
    expect(j.subScores.engagement).toBe(0);
  });
});

describe("matchContact", () => {
  const owned = work();
  const dismissed = work();
  const c = contact({
    purchases: [bought(owned)],
    feedback: [
      { id: "mfb_9", artworkId: dismissed.id, action: "not_interested", at: "2026-01-01T00:00:00.000Z" },
    ],
  });

  it("drops works it bought and pairs it dismissed; keeps the floor, the cap and the order", () => {
    const candidates = [
      owned,
      dismissed,
      ...Array.from({ length: 80 }, (_, i) => work({ priceCents: 1_000_000 + i * 5_000 })),
    ];
    const out = matchContact(c, candidates, PRIOR_MATCH_MODEL, NOW);
    expect(out.map((j) => j.artworkId)).not.toContain(owned.id);
    expect(out.map((j) => j.artworkId)).not.toContain(dismissed.id);
    expect(out.length).toBe(MAX_STORED_MATCHES);
    for (const j of out) expect(j.probability).toBeGreaterThanOrEqual(MATCH_STORE_FLOOR);
    for (let i = 1; i < out.length; i++) {
      const [a, b] = [out[i - 1]!, out[i]!];
      expect(
        a.probability > b.probability || (a.probability === b.probability && a.artworkId < b.artworkId),
      ).toBe(true);
    }
    expect(matchContact(c, [...candidates].reverse(), PRIOR_MATCH_MODEL, NOW)).toEqual(out);
    // A pair judged alone is judged the same.
    const third = candidates.find((w) => w.id === out[3]!.artworkId)!;
    expect(judgeMatch(c, third, PRIOR_MATCH_MODEL, NOW)).toEqual(out[3]);
  });

  it("takes a dismissal back when a later unhide says so, and keeps it when the unhide came first", () => {
    const candidates = [
      dismissed,
      ...Array.from({ length: 5 }, (_, i) => work({ priceCents: 1_000_000 + i })),
    ];
    const unhide = (at: string) => ({ id: "mfb_10", artworkId: dismissed.id, action: "unhide" as const, at });
    const later = contact({ ...c, feedback: [...c.feedback, unhide("2026-02-01T00:00:00.000Z")] });
    const earlier = contact({ ...c, feedback: [unhide("2025-12-01T00:00:00.000Z"), ...c.feedback] });
    const ids = (x: MatchContact) =>
      matchContact(x, candidates, PRIOR_MATCH_MODEL, NOW).map((j) => j.artworkId);
    expect(ids(c)).not.toContain(dismissed.id);
    expect(ids(earlier)).not.toContain(dismissed.id);
    // Judged, not dropped: whether it clears the store floor is the judge's call, so compare with no feedback.
    const plain = contact({ ...c, feedback: [] });
    expect(ids(plain)).toContain(dismissed.id);
    expect(ids(later)).toContain(dismissed.id);
    expect(judgeMatch(later, dismissed, PRIOR_MATCH_MODEL, NOW).probability).toBe(
      judgeMatch(plain, dismissed, PRIOR_MATCH_MODEL, NOW).probability,
    );
  });

  it("judges one contact against 300 candidates in a few milliseconds", () => {
    const contacts = COLLECTORS.slice(0, 20).map((x) => toContact(x));
    const candidates = WORKS.slice(0, 300);
    for (const x of contacts.slice(0, 5)) matchContact(x, candidates, PRIOR_MATCH_MODEL, NOW);
    const start = performance.now();
    for (const x of contacts) matchContact(x, candidates, PRIOR_MATCH_MODEL, NOW);
    const perContact = (performance.now() - start) / contacts.length;
    console.log(`matchContact: ${perContact.toFixed(2)} ms per contact against 300 candidates`);
    // Loose on a shared machine (4–7 ms measured under load); per-pair NLP would cost far more.
    expect(perContact).toBeLessThan(50);
    // The fitted model with its artist affinity costs about the same.
    const fitted = fittedModel();
    expect(fitted.affinity).toBeDefined();
    for (const x of contacts.slice(0, 5)) matchContact(x, candidates, fitted, NOW);
    const t = performance.now();
    for (const x of contacts) matchContact(x, candidates, fitted, NOW);
    const withAffinity = (performance.now() - t) / contacts.length;
    console.log(`matchContact with artist affinity: ${withAffinity.toFixed(2)} ms per contact`);
    expect(withAffinity).toBeLessThan(50);
  });
});

describe("any input", () => {
  const at = fc
    .integer({ min: Date.parse("2015-01-01T00:00:00Z"), max: Date.parse("2027-06-01T00:00:00Z") })
    .map((t) => new Date(t).toISOString());
  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      "Not interested in photography.",
      "No more prints; loves ceramics",
      "Budget around €8,000 a piece",
      "Contemporary only",
      "Nothing over 80 cm",
      "",
      "5k_25k",
      "Only interested in colour-field painting",
      "Not into abstraction",
    ),
  );
  const arbWork = fc.record({
    id: fc.constantFrom("w1", "w2", "w3", "w4"),
    title: fc.option(fc.string({ maxLength: 10 })),
    artistId: fc.option(fc.constantFrom("a1", "a2")),
    artistName: fc.option(fc.constantFrom("Ines Marchetti", "Al", "")),
    medium: fc.option(
      fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("Oil on canvas", "Etching", "Bronze")),
    ),
    year: fc.option(fc.integer({ min: -100, max: 3000 })),
    heightCm: fc.option(fc.double({ min: 0, max: 1000, noNaN: true })),
    widthCm: fc.option(fc.double({ min: 0, max: 1000, noNaN: true })),
    priceCents: fc.option(fc.integer({ min: -10, max: 1e10 })),
    currency: fc.option(fc.constantFrom("EUR", "USD")),
    createdAt: at,
    tags: fc.array(
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("Color field", "Minimalism", "Pop")),
      {
        maxLength: 2,
      },
    ),
    description: fc.option(
      fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("A non-figurative abstraction", "抽象表現主義")),
    ),
  });
  const arbContact = fc.record({
    id: fc.constant("con_p"),
    name: fc.constant("P"),
    priceBand: fc.option(fc.constantFrom("under_5k", "5k_25k", "25k_100k", "over_100k", "odd")),
    totalSpendCents: fc.constant(null),
    facts: fc.array(
      fc.record({
        id: fc.constantFrom("f1", "f2"),
        kind: fc.constantFrom("notes", "collecting_focus", "private_note", "budget_band"),
        text,
        at: fc.option(at),
      }),
      { maxLength: 3 },
    ),
    purchases: fc.array(
      fc.record({
        id: fc.constantFrom("s1", "s2"),
        at,
        priceCents: fc.option(fc.integer({ min: 0, max: 1e9 })),
        currency: fc.option(fc.constantFrom("EUR", "USD")),
        work: fc.option(arbWork),
      }),
      { maxLength: 3 },
    ),
    interactions: fc.array(
      fc.record({
        id: fc.constant("i1"),
        at,
        type: fc.constantFrom("email", "call", "other"),
        direction: fc.option(fc.constantFrom("inbound", "outbound")),
        summary: fc.option(text),
        work: fc.option(arbWork),
      }),
      { maxLength: 2 },
    ),
    engagements: fc.array(
      fc.record({
        id: fc.constant("e1"),
        at,
        kind: fc.constantFrom("artwork_viewed", "favorite_added", "room_opened"),
        work: fc.option(arbWork),
        room: fc.option(fc.string({ maxLength: 12 })),
      }),
      { maxLength: 3 },
    ),
    feedback: fc.array(
      fc.record({
        id: fc.constant("fb1"),
        artworkId: fc.constantFrom("w1", "w2"),
        action: fc.constantFrom("hide", "unhide", "not_interested", "good_match"),
        at,
      }),
      { maxLength: 2 },
    ),
  }) as fc.Arbitrary<MatchContact>;

  it("gives sub-scores in 0–1, a finite probability and evidence pointing at its inputs", () => {
    fc.assert(
      fc.property(arbContact, fc.array(arbWork, { maxLength: 4 }), (c, works) => {
        const ids = new Set<string>([
          c.id,
          ...c.facts.map((f) => f.id),
          ...c.purchases.map((p) => p.id),
          ...c.interactions.map((i) => i.id),
          ...c.engagements.map((e) => e.id),
          ...c.feedback.map((f) => f.id),
        ]);
        for (const j of matchContact(c, works, PRIOR_MATCH_MODEL, NOW)) {
          expect(Number.isFinite(j.probability)).toBe(true);
          for (const q of MATCH_QUESTIONS) {
            expect(j.subScores[q]).toBeGreaterThanOrEqual(0);
            expect(j.subScores[q]).toBeLessThanOrEqual(1);
          }
          for (const e of j.evidence) if (e.evidence_id !== null) expect(ids.has(e.evidence_id)).toBe(true);
        }
        const q = candidateQuery(c, NOW);
        if (q.priceRange) expect(q.priceRange.min).toBeLessThanOrEqual(q.priceRange.max);
      }),
      { numRuns: 300, seed: 21 },
    );
  });
});

describe("vocabulary shared with the candidate lookups", () => {
  it("medium words and price bands", () => {
    expect(mediumWords("Etching, edition of 20")).toEqual(["print", "paper"]);
    expect(mediumWords("Oil on linen")).toEqual(["painting"]);
    expect(mediumWords(null)).toEqual([]);
    expect(priceBandOf(null)).toBeNull();
    expect(priceBandOf(499_999)).toBe("under_5k");
    expect(priceBandOf(500_000)).toBe("5k_25k");
    expect(priceBandOf(2_500_000)).toBe("25k_100k");
    expect(priceBandOf(10_000_000)).toBe("over_100k");
  });

  it("candidateQuery points at the artists, media, price range and works of the history", () => {
    const oil = work();
    const viewed = work({ medium: "Stoneware, ash glaze", artistId: "a_c", artistName: "Jonas Blom" });
    const c = contact({
      purchases: [bought(oil)],
      engagements: [{ id: "eng_2", at: "2026-09-01T00:00:00.000Z", kind: "artwork_viewed", work: viewed }],
      facts: [fact("Not interested in photography. Collects prints.")],
    });
    const q = candidateQuery(c, NOW);
    expect(q.artistIds).toEqual(["a_c", "artist_marchetti"]);
    expect(q.media).toContain("painting");
    expect(q.media).toContain("print");
    expect(q.media).toContain("ceramics");
    expect(q.media).not.toContain("photography");
    expect(q.artworkIds).toEqual([viewed.id]);
    expect(q.priceRange!.min).toBeLessThan(1_200_000);
    expect(q.priceRange!.max).toBeGreaterThan(1_200_000);
    expect(mediumWords(viewed.medium).some((m) => q.media.includes(m))).toBe(true);
  });
});

describe("artist affinity: collectors of A also buy B", () => {
  const byA = (id: string, artist = "a_a", name = "Ada Arden") =>
    work({ id, artistId: artist, artistName: name, medium: "Oil on canvas" });
  const byB = (id: string) => work({ id, artistId: "a_b", artistName: "Bruno Berg", medium: "Oil on linen" });
  const byC = (id: string) => work({ id, artistId: "a_c", artistName: "Cleo Cruz", medium: "Oil on canvas" });
  const byP = (id: string) => work({ id, artistId: "a_p", artistName: "Pia Park", medium: "Oil on canvas" });
  // Six collectors buy A and B; six others buy C; every one of them buys P, the gallery's best seller.
  const gallery = [
    ...Array.from({ length: 6 }, (_, i) =>
      contact({
        id: `con_ab${i}`,
        purchases: [
          bought(byA(`wa${i}`), "2025-01-01T00:00:00.000Z", `sa${i}`),
          bought(byB(`wb${i}`), "2025-06-01T00:00:00.000Z", `sb${i}`),
          bought(byP(`wpa${i}`), "2025-08-01T00:00:00.000Z", `spa${i}`),
        ],
      }),
    ),
    ...Array.from({ length: 6 }, (_, i) =>
      contact({
        id: `con_c${i}`,
        purchases: [
          bought(byC(`wc${i}`), "2025-01-01T00:00:00.000Z", `sc${i}`),
          bought(byP(`wpc${i}`), "2025-06-01T00:00:00.000Z", `spc${i}`),
        ],
      }),
    ),
  ];

  it("is learned from shared collectors above chance, bounded and deterministic", () => {
    const affinity = fitArtistAffinity(gallery);
    expect(affinity.contacts).toBe(12);
    const ofA = affinity.neighbours.a_a!;
    expect(ofA[0]!.artistId).toBe("a_b");
    expect(ofA[0]!.strength).toBeGreaterThan(0.2);
    expect(ofA[0]!.strength).toBeLessThanOrEqual(1);
    expect((affinity.neighbours.a_b ?? []).map((n) => n.artistId)).toContain("a_a");
    // P shares collectors with A only as often as chance gives (everyone buys P): no neighbour; C none at all.
    expect(ofA.map((n) => n.artistId)).toEqual(["a_b"]);
    expect(affinity.neighbours.a_p).toBeUndefined();
    expect(fitArtistAffinity([...gallery].reverse())).toEqual(affinity);
    expect(fitArtistAffinity([])).toEqual({ neighbours: {}, contacts: 0 });

    // Bounds: 40 collectors each buy 12 of 30 artists in a sliding window, so every artist has more than
    // AFFINITY_MAX_NEIGHBOURS kin; the strongest are kept, nearest in the window first.
    const many = Array.from({ length: 40 }, (_, i) =>
      contact({
        id: `con_m${i}`,
        purchases: Array.from({ length: 12 }, (_, k) =>
          bought(
            byA(`m${i}_${k}`, `a_m${String((i + k) % 30).padStart(2, "0")}`, `Artist ${k}`),
            "2025-01-01T00:00:00.000Z",
            `s${i}_${k}`,
          ),
        ),
      }),
    );
    const bounded = fitArtistAffinity(many).neighbours;
    expect(Object.keys(bounded).length).toBe(30);
    for (const list of Object.values(bounded)) {
      expect(list.length).toBe(AFFINITY_MAX_NEIGHBOURS);
      for (let k = 1; k < list.length; k++)
        expect(list[k]!.strength).toBeLessThanOrEqual(list[k - 1]!.strength);
    }
    expect(
      bounded
        .a_m10!.slice(0, 2)
        .map((n) => n.artistId)
        .sort(),
    ).toEqual(["a_m09", "a_m11"]);
    expect(AFFINITY_MAX_ARTISTS).toBe(2_000);
  });

  it("raises the artist question for a neighbour's work, with the purchase that leads there as evidence", () => {
    const model: MatchModel = { ...PRIOR_MATCH_MODEL, affinity: fitArtistAffinity(gallery) };
    const buyer = contact({
      id: "con_new",
      purchases: [bought(byA("wa_new"), "2026-05-01T00:00:00.000Z", "sale_a")],
    });
    const candidate = byB("wb_new");
    const plain = judgeMatch(buyer, candidate, PRIOR_MATCH_MODEL, NOW);
    const taught = judgeMatch(buyer, candidate, model, NOW);
    expect(plain.subScores.artist).toBe(0);
    expect(taught.subScores.artist).toBeGreaterThan(0.1);
    expect(taught.probability).toBeGreaterThan(plain.probability);
    const reason = taught.evidence.find((e) => e.question === "artist")!;
    expect(reason).toMatchObject({
      kind: "purchase",
      evidence_id: "sale_a",
      label: "Collectors of Ada Arden often buy Bruno Berg",
    });
    // A work by C or P, no neighbour of A, is judged as without the affinity; so is every pair by a model
    // without it.
    expect(judgeMatch(buyer, byP("wp_new"), model, NOW).subScores).toEqual(
      judgeMatch(buyer, byP("wp_new"), PRIOR_MATCH_MODEL, NOW).subScores,
    );
    expect(judgeMatch(buyer, byC("wc_new"), model, NOW).subScores).toEqual(
      judgeMatch(buyer, byC("wc_new"), PRIOR_MATCH_MODEL, NOW).subScores,
    );
    const { affinity: _, ...without } = model;
    expect(judgeMatch(buyer, candidate, without, NOW)).toEqual(plain);
    // The candidate lookups follow the neighbours.
    expect(candidateQuery(buyer, NOW).artistIds).toEqual(["a_a"]);
    expect(candidateQuery(buyer, NOW, model).artistIds).toEqual(["a_a", "a_b"]);
  });

  it("training examples see the affinity of the other contacts only (its own outcomes do not teach it)", () => {
    const one = gallery[0]!;
    // Its outcomes in time order: A, B, P. Alone, its purchase of A is no evidence for its purchase of B:
    // nobody else teaches A → B.
    const alone = trainingExamples([one], [], NOW, { affinity: true });
    expect(alone[1]!.label).toBe(1);
    expect(alone[1]!.subScores.artist).toBe(0);
    // With the gallery's other collectors of A and B, it is.
    const withOthers = trainingExamples(gallery, [], NOW, { affinity: true }).filter((e) => e.label === 1);
    const without = trainingExamples(gallery, [], NOW).filter((e) => e.label === 1);
    expect(withOthers.length).toBe(without.length);
    expect(Math.max(...withOthers.map((e) => e.subScores.artist))).toBeGreaterThan(0.1);
    expect(Math.max(...without.map((e) => e.subScores.artist))).toBe(0);
  });
});

describe("new arrivals", () => {
  it("a new work scores on recency for a contact who buys new arrivals, more than for one who does not", () => {
    const fresh = work({ createdAt: "2026-11-01T00:00:00.000Z" });
    const old = work({ createdAt: "2021-01-01T00:00:00.000Z" });
    const early = (id: string) =>
      bought(work({ id, createdAt: "2025-02-01T00:00:00.000Z" }), "2025-02-20T00:00:00.000Z", `s_${id}`);
    const late = (id: string) =>
      bought(work({ id, createdAt: "2020-02-01T00:00:00.000Z" }), "2025-02-20T00:00:00.000Z", `s_${id}`);
    const newBuyer = contact({ purchases: [early("n1"), early("n2"), early("n3")] });
    const oldBuyer = contact({ purchases: [late("o1"), late("o2"), late("o3")] });
    const recency = (c: MatchContact, w: MatchWork) =>
      judgeMatch(c, w, PRIOR_MATCH_MODEL, NOW).subScores.recency;
    expect(recency(newBuyer, fresh)).toBeGreaterThan(0.7);
    expect(recency(oldBuyer, fresh)).toBeLessThan(0.45);
    expect(recency(newBuyer, old)).toBeLessThan(0.01);
    const j = judgeMatch(newBuyer, fresh, PRIOR_MATCH_MODEL, NOW);
    expect(j.evidence.filter((e) => e.question === "recency").map((e) => e.label)).toEqual(
      expect.arrayContaining(["New to the inventory", expect.stringMatching(/^Buys new arrivals: bought /)]),
    );
  });
});

describe("the model", () => {
  it("with no examples is the prior; with few stays near it; with the gallery's outcomes moves", () => {
    const none = fitMatchModel([]);
    expect(none.bias).toBeCloseTo(PRIOR_MATCH_MODEL.bias, 6);
    for (const q of MATCH_QUESTIONS) expect(none.weights[q]).toBeCloseTo(PRIOR_MATCH_MODEL.weights[q], 6);
    expect(none.examples).toBe(0);

    const train = COLLECTORS.filter((c) => c.split === "train").map((c) => toContact(c, true));
    const examples = trainingExamples(train, WORKS, NOW);
    expect(examples.length).toBeGreaterThan(1000);
    expect(examples.filter((e) => e.label === 1).length).toBeGreaterThan(300);

    const few = fitMatchModel(examples.slice(0, 6));
    const distance = (m: MatchModel) =>
      Math.max(
        Math.abs(m.bias - PRIOR_MATCH_MODEL.bias),
        ...MATCH_QUESTIONS.map((q) => Math.abs(m.weights[q] - PRIOR_MATCH_MODEL.weights[q])),
      );
    expect(distance(few)).toBeLessThan(0.6);
    const fitted = fitMatchModel(examples);
    expect(distance(fitted)).toBeGreaterThan(1);
    expect(fitted.examples).toBe(examples.length);
    // Fitting lowers the log loss on its own data, and is deterministic.
    const logLoss = (m: MatchModel) =>
      examples.reduce((s, e) => {
        let z = m.bias;
        for (const q of MATCH_QUESTIONS) z += m.weights[q] * e.subScores[q];
        const p = 1 / (1 + Math.exp(-z));
        return s - Math.log(e.label === 1 ? p : 1 - p);
      }, 0);
    expect(logLoss(fitted)).toBeLessThan(logLoss(PRIOR_MATCH_MODEL));
    expect(fitMatchModel(examples)).toEqual(fitted);
  });

  it("training examples are computed from history strictly before the outcome", () => {
    const w = work();
    const c = contact({ purchases: [bought(w, "2025-01-01T00:00:00.000Z")] });
    const [positive] = trainingExamples([c], [w], NOW);
    expect(positive!.label).toBe(1);
    // Its own purchase is not evidence for itself: no artist, no engagement, no purchase-based price.
    expect(positive!.subScores.artist).toBe(0);
    expect(positive!.subScores.engagement).toBe(0);
    expect(positive!.subScores.price).toBe(0.5);
  });

  it("reliability table bins predictions", () => {
    const table = reliabilityTable([
      { p: 0.05, label: 0 },
      { p: 0.62, label: 1 },
      { p: 0.65, label: 0 },
      { p: 1, label: 1 },
    ]);
    expect(table).toEqual([
      { bin: "0.0–0.1", predicted: 0.05, observed: 0, n: 1 },
      { bin: "0.6–0.7", predicted: 0.635, observed: 0.5, n: 2 },
      { bin: "0.9–1.0", predicted: 1, observed: 1, n: 1 },
    ]);
  });
});

describe("the labelled collectors (scripts/engine-score/matcher.ts)", () => {
  let model: MatchModel;
  const scored: Record<string, MatcherFigures> = {};
  beforeAll(() => {
    model = fittedModel();
    for (const split of ["tune", "holdout", "hand"])
      scored[split] = figures(
        COLLECTORS.filter((c) => c.split === split),
        model,
      );
  }, 120_000);

  it("ranks the hidden purchase ahead of both baselines, with probabilities better than the base rate", () => {
    for (const split of ["tune", "holdout", "hand"]) {
      const f = scored[split]!;
      expect(f.recall10, split).toBeGreaterThan(Math.max(f.popularRecall10, f.artistRecall10));
      expect(f.mrr, split).toBeGreaterThan(Math.max(f.popularMrr, f.artistMrr));
      expect(f.brier, split).toBeLessThan(f.baseBrier);
    }
  });

  it("meets recall@10 ≥ 0.6 on the hand-written histories; holds its measured level on the generated ones", () => {
    expect(scored.hand!.recall10).toBeGreaterThanOrEqual(0.6);
    // Generated: 0.638 (tune) and 0.605 (held out, no longer first sight: 0.581 at first sight, before the
    // second round), docs/engine-score.md. One collector is about 0.02: the held-out bound allows one slip.
    expect(scored.tune!.recall10).toBeGreaterThanOrEqual(0.6);
    expect(scored.holdout!.recall10).toBeGreaterThanOrEqual(0.58);
  });

  it("is calibrated: in every well-filled bin the share positive is near the mean probability", () => {
    const pairs = [...scored.tune!.pairs, ...scored.holdout!.pairs];
    for (const bin of reliabilityTable(pairs)) {
      if (bin.n < 40) continue;
      // Below 0.8 within 0.1; above, the linear model is known to be underconfident (docs/decisions.md), so
      // the share positive must be at least the probability given.
      if (bin.predicted < 0.8) expect(Math.abs(bin.observed - bin.predicted), bin.bin).toBeLessThan(0.1);
      else expect(bin.observed, bin.bin).toBeGreaterThan(bin.predicted - 0.05);
    }
    // Pairs judged 0.6 or more are right about six in ten times or better.
    const high = pairs.filter((x) => x.p >= 0.6);
    const rate = high.reduce((s, x) => s + x.label, 0) / high.length;
    expect(rate).toBeGreaterThan(0.55);
  });
});

describe("styles and movements (lib/engine/styles.ts)", () => {
  const colourField = work({
    artistId: "a_cf",
    artistName: "Mara Lind",
    medium: "Acrylic on canvas",
    tags: ["Color field"],
  });
  const described = work({
    artistId: "a_cf2",
    artistName: "Jon Vale",
    medium: "Acrylic on canvas",
    description: "Thin veils of stained colour fields in ochre and rose.",
  });
  const figurative = work({ artistId: "a_fig", artistName: "Ada Ruiz", tags: ["Figurative"] });
  const unread = work({ artistId: "a_un", artistName: "Leo Park" });
  const focus = (text: string) => contact({ facts: [fact(text, "collecting_focus")] });

  it("'only interested in colour-field painting' scores works of that style, the focus as evidence", () => {
    const c = focus("Only interested in colour-field painting");
    const tagged = judgeMatch(c, colourField, PRIOR_MATCH_MODEL, NOW);
    expect(tagged.subScores.style).toBeGreaterThan(0.85);
    const ev = tagged.evidence.find((e) => e.question === "style")!;
    expect(ev).toMatchObject({
      kind: "memory_fact",
      evidence_id: "con_1",
      source_label: "Collecting focus",
      label: "Collecting focus: Only interested in colour-field painting",
    });
    // A description says less than the gallery's own tag; still of the style.
    const fromText = judgeMatch(c, described, PRIOR_MATCH_MODEL, NOW).subScores.style;
    expect(fromText).toBeGreaterThan(0.5);
    expect(fromText).toBeLessThan(tagged.subScores.style);
    // "only": a work read as another style is the wrong kind of work; a work with no style reading is unknown.
    const other = judgeMatch(c, figurative, PRIOR_MATCH_MODEL, NOW);
    expect(other.subScores.style).toBe(0);
    expect(other.subScores.medium).toBeLessThan(0.1);
    expect(judgeMatch(c, unread, PRIOR_MATCH_MODEL, NOW).subScores.medium).toBeGreaterThan(0.9);
    expect(judgeMatch(c, unread, PRIOR_MATCH_MODEL, NOW).subScores.style).toBe(0);
  });

  it("reads a style named in other languages, inflected or plural", () => {
    for (const text of [
      "Sammelt vor allem Farbfeldmalerei",
      "Cerca opere di pittura a campi di colore",
      "Colecciona campos de color",
      "カラーフィールドの絵画を収集",
      "Loves colour fields",
    ]) {
      const j = judgeMatch(focus(text), colourField, PRIOR_MATCH_MODEL, NOW);
      expect(j.subScores.style, text).toBeGreaterThan(0.85);
      expect(judgeMatch(focus(text), figurative, PRIOR_MATCH_MODEL, NOW).subScores.style, text).toBe(0);
    }
    const minimal = work({ artistId: "a_min", artistName: "Kai Berg", tags: ["Minimalism"] });
    for (const text of ["Passionnée d'art minimal", "Sammler minimalistischer Kunst", "collects minimalists"])
      expect(judgeMatch(focus(text), minimal, PRIOR_MATCH_MODEL, NOW).subScores.style, text).toBeGreaterThan(
        0.85,
      );
  });

  it("a style named against rules its works out, a broader one too; a narrower style does not make a broad one", () => {
    const c = contact({ facts: [fact("Not into abstraction at all. Loves figurative work.")] });
    const j = judgeMatch(c, colourField, PRIOR_MATCH_MODEL, NOW);
    expect(j.subScores.medium).toBeLessThan(0.05);
    expect(j.subScores.style).toBe(0);
    expect(j.evidence[0]).toMatchObject({
      question: "medium",
      label: "Profile notes: Not into abstraction at all",
    });
    expect(judgeMatch(c, figurative, PRIOR_MATCH_MODEL, NOW).subScores.style).toBeGreaterThan(0.85);
    // Colour field is abstraction; abstraction in general is not colour field.
    const abstract = work({ artistId: "a_ab", artistName: "Uli Stern", tags: ["Abstraction"] });
    const cf = focus("Colour-field painting");
    expect(judgeMatch(cf, abstract, PRIOR_MATCH_MODEL, NOW).subScores.style).toBe(0);
    expect(
      judgeMatch(focus("Abstraction"), colourField, PRIOR_MATCH_MODEL, NOW).subScores.style,
    ).toBeGreaterThan(0.6);
  });

  it("purchases of a style raise other works of it a little, with the purchase as evidence", () => {
    const earlier = work({ artistId: "a_cf3", artistName: "Ola Brun", tags: ["Colour field"] });
    const c = contact({ purchases: [bought(earlier, "2026-03-01T00:00:00.000Z", "sale_cf")] });
    const j = judgeMatch(c, colourField, PRIOR_MATCH_MODEL, NOW);
    expect(j.subScores.style).toBeGreaterThan(0.1);
    expect(j.subScores.style).toBeLessThanOrEqual(0.35);
    const ev = j.evidence.find((e) => e.question === "style")!;
    expect(ev).toMatchObject({ kind: "purchase", evidence_id: "sale_cf", source_label: "Sale" });
    expect(ev.label).toMatch(
      /^Also colour-field painting \(tagged “Color field”\): bought an oil on canvas by Ola Brun/,
    );
    expect(judgeMatch(c, figurative, PRIOR_MATCH_MODEL, NOW).subScores.style).toBe(0);
    expect(judgeMatch(c, unread, PRIOR_MATCH_MODEL, NOW).subScores.style).toBe(0);
  });
});

describe("facts without purchases", () => {
  const colourField = work({
    artistId: "a_cf",
    artistName: "Mara Lind",
    medium: "Acrylic on canvas",
    tags: ["Color field"],
    priceCents: 1_100_000,
  });
  const marchetti = work({ priceCents: 1_400_000 });
  const photo = work({ artistId: "a_ph", artistName: "Tove Ek", medium: "Archival pigment print" });

  it("a specific focus (style, medium and budget; or an artist and a medium) passes the visible floor", () => {
    const styled = contact({
      facts: [fact("Colour-field painting", "collecting_focus"), fact("5k_25k", "budget_band")],
    });
    const a = judgeMatch(styled, colourField, PRIOR_MATCH_MODEL, NOW);
    expect(a.probability).toBeGreaterThan(0.6);
    expect(a.evidence.slice(0, 3).every((e) => e.kind === "memory_fact")).toBe(true);
    expect(a.evidence[0]).toMatchObject({
      source_label: "Collecting focus",
      label: "Collecting focus: Colour-field painting",
    });
    expect(judgeMatch(styled, photo, PRIOR_MATCH_MODEL, NOW).probability).toBeLessThan(0.2);

    const named = contact({
      facts: [fact("Paintings by Ines Marchetti", "collecting_focus"), fact("5k_25k", "budget_band")],
    });
    const b = judgeMatch(named, marchetti, PRIOR_MATCH_MODEL, NOW);
    expect(b.probability).toBeGreaterThan(0.6);
    // With nothing on record of what it spends, the price question is neutral: the raw prior leaves the pair
    // just under the floor, and the prior's calibration (fitted on outcomes its hand-set weights never saw,
    // which show it underconfident) lifts it over, below the priced pair (docs/decisions.md).
    const unpriced = contact({ facts: [fact("Paintings by Ines Marchetti", "collecting_focus")] });
    const u = judgeMatch(unpriced, marchetti, PRIOR_MATCH_MODEL, NOW).probability;
    expect(u).toBeGreaterThan(0.6);
    expect(u).toBeLessThan(b.probability);
    expect(b.evidence[0]).toMatchObject({
      question: "artist",
      kind: "memory_fact",
      source_label: "Collecting focus",
    });
    // A vague focus is not a recommendation.
    const vague = contact({ facts: [fact("Contemporary art", "collecting_focus")] });
    expect(judgeMatch(vague, colourField, PRIOR_MATCH_MODEL, NOW).probability).toBeLessThan(0.6);
  });

  it("candidateQuery points at the styles, surnames, periods, media and budget the facts name", () => {
    const c = contact({
      facts: [
        fact("Colour-field painting, and anything by Marchetti. Not into Pop art.", "collecting_focus"),
        fact("Post-war works; budget around €12,000", "notes"),
      ],
    });
    const q = candidateQuery(c, NOW);
    expect(q.artistIds).toEqual([]);
    expect(q.artistNames).toContain("marchetti");
    expect(q.artistNames).not.toContain("pop");
    expect(q.styleTags).toContain("color field");
    expect(q.styleTags).toContain("farbfeld%");
    expect(q.styleTags.some((t) => t.startsWith("pop"))).toBe(false);
    expect(q.periods).toEqual([{ from: 1945, to: 1989 }]);
    expect(q.media).toEqual(["painting"]);
    expect(q.priceRange!.min).toBeLessThan(1_200_000);
    expect(q.priceRange!.max).toBeGreaterThan(1_200_000);
    // Nothing said, nothing looked up.
    const none = candidateQuery(contact(), NOW);
    expect([none.styleTags, none.artistNames, none.periods, none.media]).toEqual([[], [], [], []]);
  });
});

describe("engagement evidence names the viewing room", () => {
  it("labels a view with the room's title; without a room, as before", () => {
    const w = work();
    const inRoom = contact({
      engagements: [
        {
          id: "eng_r",
          at: "2026-10-20T10:00:00.000Z",
          kind: "artwork_viewed",
          work: w,
          room: "Spring Selection",
        },
      ],
    });
    const e = judgeMatch(inRoom, w, PRIOR_MATCH_MODEL, NOW).evidence.find(
      (x) => x.question === "engagement",
    )!;
    expect(e).toMatchObject({
      kind: "engagement",
      evidence_id: "eng_r",
      source_label: "Viewing room",
      label: "Viewed this work in the viewing room “Spring Selection” in October 2026",
    });
    const bare = contact({
      engagements: [
        { id: "eng_b", at: "2026-10-20T10:00:00.000Z", kind: "favorite_added", work: w, room: null },
      ],
    });
    expect(
      judgeMatch(bare, w, PRIOR_MATCH_MODEL, NOW).evidence.find((x) => x.question === "engagement")!.label,
    ).toBe("Saved this work as a favourite in October 2026");
  });
});
