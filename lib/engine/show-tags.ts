import type { ShowTagSuggestion, ShowWorkFacts } from "./types";

/** Minimal show-tag suggester: a medium or decade shared by at least half of the show's works. */
export function suggestShowTags(works: ShowWorkFacts[]): ShowTagSuggestion[] {
  const out: ShowTagSuggestion[] = [];
  for (const [facet, pick] of [
    ["medium", (w: ShowWorkFacts) => w.medium],
    ["period", (w: ShowWorkFacts) => (w.year === null ? null : `${Math.floor(w.year / 10) * 10}s`)],
  ] as const) {
    const counts = new Map<string, ShowWorkFacts[]>();
    for (const w of works) {
      const value = pick(w)?.trim();
      if (value) counts.set(value, [...(counts.get(value) ?? []), w]);
    }
    for (const [name, of] of counts) {
      if (of.length * 2 < works.length) continue;
      out.push({
        model: "show-tags-shared@0.1",
        name,
        facet,
        probability: of.length / works.length,
        evidence: of.map((w) => ({ kind: "artwork", id: w.artworkId, label: name, at: null })),
      });
    }
  }
  return out;
}
