import type { ContactProfile, RubricReading, RubricVerdict } from "./types";

/** Minimal rubric reader: the description's words are its criteria. */
export function readRubric(describedAs: string, _now: Date): RubricReading {
  const words = describedAs.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  if (words.length === 0)
    return { readable: false, model: "rubric-words@0.1", reason: "no criteria could be read" };
  return { readable: true, model: "rubric-words@0.1", criteria: words, summary: words.join(", ") };
}

/** Minimal rubric judge: a contact whose notes or tags share a criterion word holds. */
export function judgeRubric(
  reading: Extract<RubricReading, { readable: true }>,
  profile: ContactProfile,
  _now: Date,
): RubricVerdict | null {
  const words = reading.criteria as string[];
  const texts = [...profile.notes.map((n) => n.text), ...profile.tags].join(" ").toLowerCase();
  const hits = words.filter((w) => texts.includes(w));
  return {
    model: reading.model,
    verdict: hits.length > 0,
    probability: hits.length > 0 ? 0.7 : 0.6,
    reasons: hits.map((w) => ({ kind: "note", id: null, label: w, at: null, criterion: w, holds: true })),
  };
}
