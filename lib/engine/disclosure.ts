import type { DisclosureJudgment, PhraseEvidence } from "./types";

/**
 * Minimal disclosure judge: notes naming damage, deterioration or an intervention are a disclosure. A word
 * list, until the full judge (clauses, negation scope, hedging) replaces it.
 */
const PROBLEM =
  /\b(tear|torn|loss(es)?|crack(ed|s)?|damage[d]?|foxing|toning|faded|fading|abrasion|scratch(es)?|stain(s|ed)?|flaking|restor(ed|ation)|relined|lining|inpaint(ed|ing)|retouch(ed|ing)|repair(ed|s)?|poor|fair)\b/gi;

export function judgeDisclosure(notes: string | null): DisclosureJudgment {
  const evidence: PhraseEvidence[] = [];
  for (const m of (notes ?? "").matchAll(PROBLEM)) {
    const start = m.index ?? 0;
    evidence.push({
      source: "condition_notes",
      phrase: m[0],
      start,
      end: start + m[0].length,
      effect: "names a condition problem",
      decisive: true,
    });
  }
  const disclosure = evidence.length > 0;
  return { model: "disclosure-words@0.1", disclosure, probability: disclosure ? 0.8 : 0.7, evidence };
}
