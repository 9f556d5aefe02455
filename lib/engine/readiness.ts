import type { ReadinessInput, ReadinessJudgment } from "./types";

/** Minimal readiness judge: counts the buyer-facing items a record has. */
export function judgeReadiness(input: ReadinessInput): ReadinessJudgment {
  const items: [string, boolean][] = [
    ["title", Boolean(input.title?.trim())],
    ["artist", input.artistId !== null || Boolean(input.artistName)],
    ["medium", Boolean(input.medium)],
    ["date", input.year !== null || Boolean(input.dateDisplay)],
    ["dimensions", (input.heightCm !== null && input.widthCm !== null) || Boolean(input.dimensionsText)],
    ["price", input.priceCents !== null || input.priceOnRequest],
    ["image", input.imageCount > 0],
  ];
  const present = items.filter(([, has]) => has).map(([code]) => code);
  const missing = items.filter(([, has]) => !has).map(([code]) => code);
  const readiness = missing.length === 0 ? "ready" : present.length <= 2 ? "empty" : "thin";
  return { model: "readiness-count@0.1", readiness, probability: 0.9, missing, present };
}
