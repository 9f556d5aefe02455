import { describe, expect, it } from "vitest";
import { DISCLOSURE_MODEL, judgeDisclosure } from "../../lib/engine/disclosure-judge";
import labelled from "./labelled/condition-notes.json";

/**
 * The disclosure judge (design §3), rule family by rule family, on notes written for these tests (not taken from
 * the labelled set), then the whole labelled set scored against its F1 target.
 */

const judged = (notes: string | null) => judgeDisclosure(notes).disclosure;

/** The decisive phrases of a judgment, as written. */
const decisive = (notes: string) =>
  judgeDisclosure(notes)
    .evidence.filter((e) => e.decisive)
    .map((e) => e.phrase);

describe("damage, deterioration, instability and intervention about the work", () => {
  it.each([
    "A tear of about 1 cm at the top edge.",
    "Two small chips to the foot.",
    "Scattered foxing throughout the sheet.",
    "The blue passages have faded.",
    "Cockled sheet.",
    "Paint is flaking along the craquelure in the lower left.",
    "Inpainted losses in the background.",
    "The canvas was relined in the 1960s.",
    "Consolidated in 2012 by a private conservator.",
    "Original base replaced with a later one.",
    "Embroidery stitched to a cotton support fabric for display.",
    "Hinge remnants on the reverse.",
    "Lower corner bumped.",
    "A few pen marks in the lower margin.",
    "The patina has been refreshed.",
  ])("%s → true", (notes) => {
    expect(judged(notes)).toBe(true);
  });

  it("an unremarkable description is not a disclosure", () => {
    expect(judged("Oil on linen, signed lower left, in a simple oak frame.")).toBe(false);
  });
});

describe("negation and its scope", () => {
  it.each([
    ["No tears, no losses and no restoration.", false],
    ["Not faded, not foxed.", false],
    ["The painting has never been restored or relined.", false],
    ["Foxing: none. Losses: none.", false],
    ["Crack-free and stain-free.", false],
    ["Restoration history: none known.", false],
    ["No losses, minor scratches to the lower edge.", true],
    ["No losses except one tiny flake missing at the right edge.", true],
    ["No retouching apart from the signature area.", true],
    ["Free from tears other than a short split at the lower corner.", true],
    ["No restoration, but some surface dirt.", true],
    ["No foxing; light toning overall.", true],
    ["Not in perfect condition: there is a small tear.", true],
    ["Not cleaned, but some surface dirt and minor frame abrasion.", true],
  ] as const)("%s → %s", (notes, expected) => {
    expect(judged(notes)).toBe(expected);
  });

  it("sets the negated term aside as evidence, not as a decision", () => {
    const judgment = judgeDisclosure("No foxing.");
    expect(judgment.disclosure).toBe(false);
    expect(judgment.evidence).toEqual([expect.objectContaining({ phrase: "foxing", decisive: false })]);
    expect(judgment.evidence[0]!.effect).toContain("negates");
  });
});

describe("hedging", () => {
  it.each([
    "Possibly overpainted in the lower corner.",
    "The sky seems to have been retouched.",
    "Suspected old repair to the handle.",
    "Might have been trimmed slightly at the right.",
  ])("a hedged problem still counts: %s", (notes) => {
    const judgment = judgeDisclosure(notes);
    expect(judgment.disclosure).toBe(true);
    expect(judgment.probability).toBeLessThan(
      judgeDisclosure("Overpainted in the lower corner.").probability,
    );
  });

  it.each([
    "Any unevenness of the surface is inherent in the artist's technique.",
    "The paper may yellow if exposed to daylight.",
    "Keep away from direct light to prevent fading.",
    "Unknown whether the work has ever been cleaned.",
  ])("a hedge or a risk that names no actual problem: %s", (notes) => {
    expect(judged(notes)).toBe(false);
  });
});

describe("what is the work", () => {
  it.each([
    "Frame chipped at two corners.",
    "Glazing scratched.",
    "The mat is stained and has been replaced.",
    "Backing board shows water damage.",
    "Crate damaged in shipping; the painting arrived safely.",
  ])("a problem of the frame, glazing, mat, backing or crate is not: %s", (notes) => {
    expect(judged(notes)).toBe(false);
  });

  it("unless the artist made it part of the work", () => {
    expect(
      judged("The frame was carved by the artist for this painting; small loss to the frame's upper edge."),
    ).toBe(true);
  });

  it("a compound with a work noun is still not the work; saying what is not part of the work does not name it", () => {
    expect(judged("The backing paper is torn.")).toBe(false);
    expect(judged("The Perspex cover, which is not part of the work, has a crack.")).toBe(false);
  });

  it("acrylic is the glazing when the notes say the work is glazed with it, and the paint otherwise", () => {
    expect(judged("Framed behind UV acrylic; the acrylic is scratched.")).toBe(false);
    expect(judged("Acrylic on canvas; the acrylic is scratched in two places.")).toBe(true);
  });

  it("a problem shared by the frame and the work counts", () => {
    expect(judged("Minor scuffing to edges of the frame and the sheet.")).toBe(true);
  });

  it("an artist's frame keeps its problems even though the artist made it", () => {
    expect(judged("A small area of paint loss on the frame, which was made by the artist.")).toBe(true);
  });

  it("a problem named beside the frame but on the work counts", () => {
    expect(judged("Frame fine, a scratch to the surface of the painting.")).toBe(true);
    expect(judged("Rubbing to the canvas edges from the frame.")).toBe(true);
  });
});

describe("features of the making", () => {
  it.each([
    "Small kiln flaw on the underside.",
    "Printer's crease through the lower margin.",
    "Stable craquelure of age.",
    "Casting seams visible on the reverse.",
    "The uneven edge of the sheet is as issued.",
  ])("%s → false", (notes) => {
    expect(judged(notes)).toBe(false);
  });

  it("explaining a change over time does not unmake it; explaining a state does", () => {
    expect(judged("Some toning, inherent to the cheap newsprint the artist used.")).toBe(true);
    expect(judged("Slight waviness inherent to the handmade paper.")).toBe(false);
    expect(judged("Slight crazing to the resin surface.")).toBe(true);
  });

  it("a making feature beside real damage does not hide it", () => {
    expect(judged("Kiln flaw on the foot and a chip to the rim.")).toBe(true);
  });

  it("deterioration of a material the artist used is not a feature of the making", () => {
    expect(judged("Some yellowing of the sellotape used by the artist in the collage.")).toBe(true);
    expect(judged("Slight darkening of the paper from the fixative, present since the work was made.")).toBe(
      false,
    );
  });

  it("an intervention by the artist after making still counts", () => {
    expect(judged("The artist retouched the sky in 2004.")).toBe(true);
  });
});

describe("words of technique, material, subject and handling", () => {
  it.each([
    "Lost-wax bronze, excellent condition.",
    "Selenium-toned gelatin silver print, in excellent condition.",
    "Burnt umber ground; surface in excellent state.",
    "Soak-stain painting on raw canvas.",
    "Always wear cotton gloves when handling.",
    "Certificate of authenticity missing.",
    "Secured with D-rings for hanging.",
    "Tool marks from carving visible on the base.",
    "Kept in a cloth slipcase, which is worn.",
    "Still life of roses in full bloom.",
  ])("are not condition: %s", (notes) => {
    expect(judged(notes)).toBe(false);
  });
});

describe("grades, report pointers and care advice", () => {
  it.each([
    ["Condition: fair.", true],
    ["Overall condition poor.", true],
    ["In fair condition.", true],
    ["Condition: very good.", false],
    ["Good.", false],
    ["Shown at the art fair in Basel in 2019.", false],
    ["Estado de conservación: regular.", true],
    ["Kept in regular rotation in the hang; excellent.", false],
    ["A condition report is available on request.", false],
    ["Our conservator's report (attached) records a repaired tear.", true],
    ["Avoid direct sunlight; dust with a soft brush only.", false],
  ] as const)("%s → %s", (notes, expected) => {
    expect(judged(notes)).toBe(expected);
  });
});

describe("how notes are written", () => {
  it("reads one item a line as one sentence each", () => {
    expect(judged("Frame: chipped corners\nCanvas: excellent")).toBe(false);
    expect(judged("Frame: fine\nSheet: light foxing")).toBe(true);
  });

  it("does not read an edition number as a negation", () => {
    expect(judged("Edition no. 3, scratch to base")).toBe(true);
  });

  it("reads a dropped, doubled or swapped letter, but not a real word one letter away", () => {
    const notes = "some foxin and scratchs, one resored area";
    expect(decisive(notes)).toEqual(["foxin", "scratchs", "resored"]);
    expect(judgeDisclosure(notes).probability).toBeLessThan(0.99);
    expect(judged("Framed under glass; all elements secure.")).toBe(false);
    expect(judged("Created in 1998 and kept in the artist's studio.")).toBe(false);
  });
});

describe("other languages of the trade", () => {
  it.each([
    ["Presenta pequeñas pérdidas de pintura.", true],
    ["Quelques restaurations anciennes.", true],
    ["Très bon état, sans restauration.", false],
    ["Guter Zustand, keine Restaurierungen.", false],
  ] as const)("%s → %s", (notes, expected) => {
    expect(judged(notes)).toBe(expected);
  });
});

describe("empty notes", () => {
  it.each([null, "", "   ", "-", "—", "n/a"])("%j is no disclosure, with near certainty", (notes) => {
    const judgment = judgeDisclosure(notes);
    expect(judgment.disclosure).toBe(false);
    expect(judgment.probability).toBeGreaterThanOrEqual(0.9);
    expect(judgment.model).toBe(DISCLOSURE_MODEL);
  });
});

describe("evidence", () => {
  it("points at each decisive phrase with exact offsets, across sentences and abbreviations", () => {
    const notes = "Sl. foxing to margins.  Cond. fair – mnr losses at lower edge; frame scuffed.";
    const judgment = judgeDisclosure(notes);
    expect(judgment.disclosure).toBe(true);
    for (const e of judgment.evidence) {
      expect(notes.slice(e.start, e.end)).toBe(e.phrase);
      expect(e.source).toBe("condition_notes");
    }
    expect(decisive(notes)).toEqual(["foxing", "fair", "losses"]);
    expect(judgment.evidence.find((e) => e.phrase === "scuffed")).toMatchObject({ decisive: false });
  });

  it("is surer of an unhedged loss than of a single weak cue", () => {
    const strong = judgeDisclosure("Loss to the lower edge.").probability;
    const weak = judgeDisclosure("Some rubbing.").probability;
    expect(strong).toBeGreaterThan(weak);
    expect(strong).toBeLessThanOrEqual(0.99);
  });
});

describe("the labelled set", () => {
  it("is judged with F1 >= 0.95, every phrase of evidence at its exact offsets", () => {
    const cases = labelled as { id: string; notes: string; disclosure: boolean }[];
    expect(cases.length).toBeGreaterThanOrEqual(320);
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const c of cases) {
      const judgment = judgeDisclosure(c.notes);
      for (const e of judgment.evidence) expect(c.notes.slice(e.start, e.end)).toBe(e.phrase);
      const value = judgment.disclosure;
      if (value && c.disclosure) tp++;
      else if (value) fp++;
      else if (c.disclosure) fn++;
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    const f1 = (2 * precision * recall) / (precision + recall);
    expect(f1).toBeGreaterThanOrEqual(0.95);
  });
});
