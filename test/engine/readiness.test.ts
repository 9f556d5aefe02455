import { describe, expect, it } from "vitest";
import { judgeReadiness, READINESS_ITEMS } from "../../lib/engine/readiness";
import type { ReadinessInput } from "../../lib/engine/types";

/** The readiness rule (docs/decisions.md "Readiness") on records as a gallery's registrars keep them. */

/** A primary-market painting with everything a buyer-facing record needs. */
const complete: ReadinessInput = {
  title: "Harbour at Low Tide II",
  artistId: "art_01HZX3K4M5N6P7Q8R9S0T1U2V3",
  artistName: "Inès Moreau",
  medium: "Oil on linen",
  year: 2021,
  dateDisplay: "2021",
  description:
    "Painted over a winter in Douarnenez, the second of three harbour pictures; the greys are built up in thin glazes over a warm ground.",
  heightCm: 120,
  widthCm: 150,
  depthCm: 3.5,
  dimensionsText: "47 1/4 x 59 in",
  priceCents: 2_400_000,
  priceOnRequest: false,
  currency: "EUR",
  imageCount: 3,
  market: "primary",
  provenance: null,
  conditionNotes: null,
  inventoryNumber: "IM-2021-014",
};

function judge(changes: Partial<ReadinessInput>) {
  return judgeReadiness({ ...complete, ...changes });
}

describe("judgeReadiness", () => {
  it("a complete primary-market record is ready, with every item present and none missing", () => {
    const j = judge({});
    expect(j.readiness).toBe("ready");
    expect(j.missing).toEqual([]);
    expect(j.present).toEqual([
      "title",
      "artist",
      "image",
      "medium",
      "dimensions",
      "year",
      "price",
      "description",
    ]);
    expect(j.probability).toBeGreaterThanOrEqual(0.95);
    expect(j.model).toMatch(/^readiness-rules@\d+$/);
  });

  it("provenance is required only on the secondary market", () => {
    const resale = judge({ market: "secondary", provenance: null });
    expect(resale.readiness).toBe("thin");
    expect(resale.missing).toEqual(["provenance"]);
    const withHistory = judge({
      market: "secondary",
      provenance:
        "The artist; Galerie Lemaire, Paris (acquired from the above, 2022); private collection, Brussels.",
    });
    expect(withHistory.readiness).toBe("ready");
    expect(withHistory.present).toContain("provenance");
    expect(judge({ provenance: null }).present).not.toContain("provenance");
  });

  it("price on request counts as a price; no price and no request does not", () => {
    expect(judge({ priceCents: null, priceOnRequest: true }).readiness).toBe("ready");
    const unpriced = judge({ priceCents: null, priceOnRequest: false });
    expect(unpriced.missing).toEqual(["price"]);
    expect(unpriced.readiness).toBe("thin");
    expect(judge({ priceCents: 0 }).missing).toEqual(["price"]);
  });

  it("one item from ready is thin with less confidence than a record far from both boundaries", () => {
    const oneShort = judge({ imageCount: 0 });
    expect(oneShort.readiness).toBe("thin");
    expect(oneShort.missing).toEqual(["image"]);
    const farFromBoth = judge({ imageCount: 0, description: null, year: null, dateDisplay: null });
    expect(farFromBoth.readiness).toBe("thin");
    expect(oneShort.probability).toBeLessThan(farFromBoth.probability);
  });

  it("no image and at most two descriptive items is empty", () => {
    const stub = judgeReadiness({
      ...complete,
      artistId: null,
      artistName: null,
      medium: null,
      description: null,
      heightCm: null,
      widthCm: null,
      depthCm: null,
      dimensionsText: null,
      year: null,
      dateDisplay: null,
      priceCents: null,
      imageCount: 0,
    });
    expect(stub.readiness).toBe("empty");
    expect(stub.present).toEqual(["title"]);
    expect(stub.missing).toEqual(["artist", "image", "medium", "dimensions", "year", "price", "description"]);
    expect(stub.probability).toBeGreaterThanOrEqual(0.95);

    // A quick intake entry: artist and medium typed in, nothing else yet. Empty, but at the boundary.
    const intake = judgeReadiness({
      ...complete,
      title: "untitled (blue)",
      medium: "acrylic on canvas",
      description: "",
      heightCm: null,
      widthCm: null,
      dimensionsText: null,
      year: null,
      dateDisplay: null,
      priceCents: null,
      imageCount: 0,
    });
    expect(intake.readiness).toBe("empty");
    expect(intake.probability).toBeLessThan(stub.probability);

    // The same entry with a price added has three descriptive items: thin.
    expect(judgeReadiness({ ...complete, ...intakeOf(), priceCents: 350_000 }).readiness).toBe("thin");
  });

  it("an image alone keeps a work out of empty: there is something to show", () => {
    const photographed = judgeReadiness({ ...complete, ...intakeOf(), medium: null, imageCount: 1 });
    expect(photographed.readiness).toBe("thin");
  });

  it("free-text dimensions and dates count, but a ready record resting on them is less certain", () => {
    const installation = judge({
      heightCm: null,
      widthCm: null,
      depthCm: null,
      dimensionsText: "Dimensions variable",
      year: null,
      dateDisplay: "c. 1968–70",
    });
    expect(installation.readiness).toBe("ready");
    expect(installation.present).toEqual(expect.arrayContaining(["dimensions", "year"]));
    expect(installation.probability).toBeLessThan(judge({}).probability);
    // A height alone, or a dimensions line without a measure, is missing.
    expect(judge({ widthCm: null, dimensionsText: null }).missing).toEqual(["dimensions"]);
    expect(judge({ heightCm: null, widthCm: null, dimensionsText: "tbc" }).missing).toEqual(["dimensions"]);
  });

  it("blank text, dashes and question marks are missing, not present", () => {
    const j = judge({ title: "  ", medium: "—", description: "?", artistId: null, artistName: " " });
    expect(j.missing).toEqual(["title", "artist", "medium", "description"]);
    expect(j.readiness).toBe("thin");
  });

  it("a short description is present, and the record ready, but less certainly", () => {
    const j = judge({ description: "Signed and dated verso." });
    expect(j.readiness).toBe("ready");
    expect(j.probability).toBeLessThan(judge({}).probability);
  });

  it("lists every code it knows, in a stable order, and each item exactly once", () => {
    const j = judge({ market: "secondary", provenance: "Acquired directly from the artist's studio, 1994." });
    expect([...j.present, ...j.missing].sort()).toEqual([...READINESS_ITEMS].sort());
  });
});

/** An intake entry's missing pieces, as the registrar leaves them. */
function intakeOf(): Partial<ReadinessInput> {
  return {
    title: "untitled (blue)",
    medium: "acrylic on canvas",
    description: "",
    heightCm: null,
    widthCm: null,
    dimensionsText: null,
    year: null,
    dateDisplay: null,
    priceCents: null,
    imageCount: 0,
  };
}
