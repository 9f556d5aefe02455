import type { ModelName, Readiness, ReadinessInput, ReadinessJudgment } from "./types";

/**
 * Readiness of a work for sale or publication (docs/decisions.md "Readiness"): a deterministic rule over what
 * a buyer-facing record needs. Every item is a stable code, listed as `present` or `missing`:
 *
 *   title, artist, image, medium, dimensions, year, price, description, and provenance for a secondary-market
 *   work.
 *
 * `ready`: nothing missing. `empty`: no image and at most two of the descriptive items (artist, medium,
 * dimensions, year, price, description): nothing a buyer could look at or weigh. `thin`: anything between.
 * The probability is high because the rule decides; it is lower near a boundary (one item from `ready` or from
 * `empty`) and where an item is present only in a weak form (dimensions as free text, a date as free text, a
 * description of a few words), since a person reading the record could count it either way.
 */

export const READINESS_MODEL: ModelName = "readiness-rules@1";

/** The codes, in the order they are listed. */
export const READINESS_ITEMS = [
  "title",
  "artist",
  "image",
  "medium",
  "dimensions",
  "year",
  "price",
  "description",
  "provenance",
] as const;
export type ReadinessItem = (typeof READINESS_ITEMS)[number];

/** The items an empty record may hold at most two of, when it has no image. */
const DESCRIPTIVE: readonly ReadinessItem[] = [
  "artist",
  "medium",
  "dimensions",
  "year",
  "price",
  "description",
];
const EMPTY_AT_MOST = 2;

/** A description shorter than this many characters is present but weak; a blank one is missing. */
const FULL_DESCRIPTION = 80;

const CONFIDENT = 0.97;
const NEAR_BOUNDARY = 0.85;
const WEAK_ITEM_PENALTY = 0.05;

/** Free text that says something (not blank, not a dash or a placeholder question mark). */
function said(text: string | null | undefined): boolean {
  if (text == null) return false;
  const t = text.trim();
  return t.length > 0 && !/^[-–—?.\s]+$/.test(t);
}

/** How an item is held: fully, only weakly (free text where a value is expected, a few words), or not at all. */
type Holding = "full" | "weak" | "none";

function dimensions(input: ReadinessInput): Holding {
  const h = input.heightCm ?? 0;
  const w = input.widthCm ?? 0;
  if (h > 0 && w > 0) return "full";
  // "Dimensions variable" is the catalogue convention for installations: a statement, not a gap.
  if (said(input.dimensionsText) && /\d|variab/i.test(input.dimensionsText ?? "")) return "weak";
  // One measure of two (a height alone) still leaves a buyer guessing.
  return "none";
}

function year(input: ReadinessInput): Holding {
  if (input.year !== null && Number.isFinite(input.year)) return "full";
  // "c. 1965", "late 1970s", "n.d.": a date as written, which a record may rightly show.
  return said(input.dateDisplay) ? "weak" : "none";
}

function price(input: ReadinessInput): Holding {
  if (input.priceOnRequest) return "full";
  if (input.priceCents !== null && input.priceCents > 0) return said(input.currency) ? "full" : "weak";
  return "none";
}

function description(input: ReadinessInput): Holding {
  if (!said(input.description)) return "none";
  return (input.description ?? "").trim().length >= FULL_DESCRIPTION ? "full" : "weak";
}

function holdings(input: ReadinessInput): Map<ReadinessItem, Holding> {
  const held = new Map<ReadinessItem, Holding>();
  held.set("title", said(input.title) ? "full" : "none");
  held.set("artist", input.artistId !== null || said(input.artistName) ? "full" : "none");
  held.set("image", input.imageCount > 0 ? "full" : "none");
  held.set("medium", said(input.medium) ? "full" : "none");
  held.set("dimensions", dimensions(input));
  held.set("year", year(input));
  held.set("price", price(input));
  held.set("description", description(input));
  if (input.market === "secondary") held.set("provenance", said(input.provenance) ? "full" : "none");
  return held;
}

export function judgeReadiness(input: ReadinessInput): ReadinessJudgment {
  const held = holdings(input);
  const present: string[] = [];
  const missing: string[] = [];
  for (const item of READINESS_ITEMS) {
    const holding = held.get(item);
    if (holding === undefined) continue;
    (holding === "none" ? missing : present).push(item);
  }
  const descriptive = DESCRIPTIVE.filter((item) => held.get(item) !== "none").length;
  const hasImage = held.get("image") !== "none";
  const weak = [...held.values()].filter((h) => h === "weak").length;

  let readiness: Readiness;
  let probability: number;
  if (missing.length === 0) {
    readiness = "ready";
    // Ready on a weak item is one reader's judgment away from thin.
    probability = CONFIDENT - Math.min(weak, 3) * WEAK_ITEM_PENALTY;
  } else if (!hasImage && descriptive <= EMPTY_AT_MOST) {
    readiness = "empty";
    probability = descriptive === EMPTY_AT_MOST ? NEAR_BOUNDARY : CONFIDENT;
  } else {
    readiness = "thin";
    const nearReady = missing.length === 1;
    const nearEmpty = !hasImage && descriptive === EMPTY_AT_MOST + 1;
    probability = nearReady || nearEmpty ? NEAR_BOUNDARY : CONFIDENT;
  }
  return { model: READINESS_MODEL, readiness, probability: round(probability), missing, present };
}

function round(p: number): number {
  return Math.round(p * 1000) / 1000;
}
