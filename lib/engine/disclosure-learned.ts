/**
 * Disclosure with learned weights: the rules (lib/engine/disclosure.ts) read the notes and propose, a linear
 * model (lib/engine/learned.ts) decides from the notes' words and character n-grams in any language beside what
 * the rules found (design §8). Where the rules know the vocabulary their phrases carry the weight; where they
 * know nothing ("Stockflecken", "補彩", "rentoilé"), the words' pieces learned from the labelled set decide. The
 * evidence keeps the rules' phrases and, when the model decided without them, the words it leaned on.
 * lib/engine/disclosure-judge.ts binds the shipped model; scripts/engine-train/ fits it on the same features.
 */
import { type CalibrationMap, calibrateBinary } from "./calibration";
import { disclosureDense, isEmptyNotes, judgeDisclosureByRules } from "./disclosure";
import { detectLanguage } from "./language";
import { type LoadedModel, predict, textFeatures } from "./learned";
import type { DisclosureJudgment, ModelName, PhraseEvidence } from "./types";

const round = (x: number) => Math.round(x * 1000) / 1000;
/** The model's belief in the rules' answer below which the model's own answer is taken instead. */
const OVERRULED_BELOW = 0.15;

/**
 * Judges notes with the given model; `name` is the version to name in the judgment. With `calibration`, the
 * probability of the answer passes through it (lib/engine/calibration.ts); without, as the rules and weights give it.
 */
export function judgeDisclosureWith(
  model: LoadedModel,
  name: ModelName,
  notes: string | null,
  calibration?: CalibrationMap,
): DisclosureJudgment {
  const judged = judgeRaw(model, name, notes);
  if (!calibration) return judged;
  // The probability is of the answer given: calibrated as a yes/no on the answer's side.
  return { ...judged, probability: calibrateBinary(calibration, judged.probability) };
}

function judgeRaw(model: LoadedModel, name: ModelName, notes: string | null): DisclosureJudgment {
  const text = notes ?? "";
  const ruled = judgeDisclosureByRules(notes);
  if (isEmptyNotes(text)) return { ...ruled, model: name };
  const language = detectLanguage(text);
  const prediction = predict<"false" | "true">(model, textFeatures(text), disclosureDense(ruled, language));
  const belief = prediction.distribution.true;
  // Rules propose, learned weights decide: a phrase the rules read and weighed (a loss, a negated foxing, a
  // frame's scratch) stands unless the model all but rules it out; notes where the rules recognised nothing
  // are the model's to judge.
  // English notes are the rules' own (they were written and measured on English): there their answer stands.
  // Elsewhere a phrase the rules read and weighed stands unless the model all but rules it out, and notes where
  // they recognised nothing are the model's to judge.
  const ruleRead = ruled.evidence.length > 0;
  const rulesStand =
    language === "en" ||
    (ruleRead && (ruled.disclosure ? belief >= OVERRULED_BELOW : belief <= 1 - OVERRULED_BELOW));
  const disclosure = rulesStand ? ruled.disclosure : belief >= 0.5;
  const probability = rulesStand ? ruled.probability : round(Math.min(0.97, Math.max(belief, 1 - belief)));
  const evidence: PhraseEvidence[] = ruled.evidence.map((e) =>
    // The rules' decisive phrases pushed toward true; when the model says false they were weighed and outweighed.
    !disclosure && e.decisive ? { ...e, effect: `${e.effect} (outweighed)`, decisive: false } : e,
  );
  if (!rulesStand) {
    const taken = (r: { start: number; end: number }) =>
      evidence.some((e) => r.start < e.end && e.start < r.end);
    for (const r of prediction.reasons.filter((x) => !taken(x)).slice(0, 3))
      evidence.push({
        source: "condition_notes",
        phrase: text.slice(r.start, r.end),
        start: r.start,
        end: r.end,
        effect: disclosure
          ? "learned weight: a word of notes that disclose"
          : "learned weight: a word of notes with nothing to disclose",
        decisive: true,
      });
  }
  evidence.sort((a, b) => a.start - b.start);
  return { model: name, disclosure, probability, evidence };
}
