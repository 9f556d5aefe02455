/**
 * Triage with learned weights: the rules (lib/engine/triage.ts) read the thread and propose, four linear models
 * (lib/engine/learned.ts) decide (design §8). Each reads the message's words and character n-grams in any
 * language beside what the rules found: their cue scores and precedence for the intent; their pace, the channel
 * and the hour for urgency; their reading of asks and chasers for a reply and escalation. Where the rules know
 * the language their cues carry most of the weight; where they know nothing, the words decide. The evidence
 * keeps the rules' phrases and adds the words the model leaned on, with exact offsets in the body.
 *
 * The features are built here for both the judge and the fitting script (scripts/engine-train/), so a model is
 * always fitted on exactly what it will be given; lib/engine/triage-judge.ts binds the shipped models.
 */
import { adjustPrediction, type IntentAdjustment } from "./adjustment"; // gallery adjustment
import { type CalibrationMap, calibrateBinary, calibrateChoice } from "./calibration";
import { detectLanguage, LANGUAGE_FEATURES, type Language, languageOneHot } from "./language";
import { type LoadedModel, predict, type TextFeature, textFeatures } from "./learned";
import {
  phraseEvidence,
  readRest,
  readThread,
  ruleIntentDistribution,
  ruleUrgency,
  type TriageReading,
  type TriageRest,
} from "./triage";
import {
  CHANNELS,
  INTENTS,
  type Intent,
  type ModelName,
  type PhraseEvidence,
  type TriageInput,
  type TriageJudgment,
  URGENCIES,
  type Urgency,
} from "./types";

const capped = (x: number) => Math.min(x, 8) / 4;
const oneHot = <T extends string>(values: readonly T[], value: T) => values.map((v) => (v === value ? 1 : 0));

/** The words of the thread the models read: the new text, and the subject apart. */
export function triageFeatures(reading: TriageReading): TextFeature[] {
  const subject = reading.message.subject ?? "";
  // Subject offsets do not index the body: they are features, never evidence.
  const subjectFeatures = textFeatures(subject, "subj.").map((f) => ({ ...f, start: 0, end: 0 }));
  return [...textFeatures(reading.text.text), ...subjectFeatures];
}

/** Names of the dense features, in order, for each model (the fitting script writes them into the model). */
export const DENSE = {
  intent: [
    ...INTENTS.map((i) => `rule_score:${i}`),
    ...INTENTS.map((i) => `rule_intent:${i}`),
    "autoreply",
    "commits",
    ...CHANNELS.map((c) => `channel:${c}`),
    "unanswered>=2",
    "reply_subject",
    "rules_silent",
    ...INTENTS.map((i) => `rule_intent_in_english:${i}`),
    ...LANGUAGE_FEATURES,
  ],
  urgency: [
    ...URGENCIES.map((u) => `rule_urgency:${u}`),
    ...INTENTS.map((i) => `intent:${i}`),
    ...CHANNELS.map((c) => `channel:${c}`),
    "out_of_hours",
    "rule_escalating",
    ...LANGUAGE_FEATURES,
  ],
  reply: [
    "rule_reply",
    "asks",
    "status",
    "rule_escalating",
    ...INTENTS.map((i) => `intent:${i}`),
    ...LANGUAGE_FEATURES,
  ],
  escalating: [
    "rule_escalating",
    "unanswered>=2",
    "unanswered>=3",
    "chase",
    "frustration",
    "walk_away",
    ...INTENTS.map((i) => `intent:${i}`),
    ...LANGUAGE_FEATURES,
  ],
} as const;

/** The judged text's language (lib/engine/language.ts): the rules are surest in English. */
export const languageOf = (r: TriageReading): Language => detectLanguage(r.text.text);

export function intentDense(input: TriageInput, r: TriageReading, language: Language): number[] {
  const english = language === "en" ? 1 : 0;
  return [
    ...INTENTS.map((i) => capped(r.scores[i])),
    ...oneHot(INTENTS, r.ruleIntent),
    r.autoreply ? 1 : 0,
    r.commits ? 1 : 0,
    ...oneHot(CHANNELS, input.channel),
    r.unanswered >= 2 ? 1 : 0,
    r.replySubject ? 1 : 0,
    // Nothing the rules know was found: their "other" says little, the words must decide.
    INTENTS.every((i) => r.scores[i] <= 0) ? 1 : 0,
    ...oneHot(INTENTS, r.ruleIntent).map((x) => x * english),
    ...languageOneHot(language),
  ];
}

export function urgencyDense(
  input: TriageInput,
  r: TriageReading,
  rest: TriageRest,
  intent: Intent,
  language: Language,
): number[] {
  const top = Math.max(...URGENCIES.map((u) => rest.urgencyScores[u]));
  return [
    ...URGENCIES.map((u) => capped(rest.urgencyScores[u] - top + 8)),
    ...oneHot(INTENTS, intent),
    ...oneHot(CHANNELS, input.channel),
    r.outOfHours ? 1 : 0,
    rest.escalating,
    ...languageOneHot(language),
  ];
}

export function replyDense(rest: TriageRest, intent: Intent, language: Language): number[] {
  return [
    rest.expectsReply,
    rest.asks ? 1 : 0,
    rest.status ? 1 : 0,
    rest.escalating,
    ...oneHot(INTENTS, intent),
    ...languageOneHot(language),
  ];
}

export function escalatingDense(
  r: TriageReading,
  rest: TriageRest,
  intent: Intent,
  language: Language,
): number[] {
  const has = (k: string) => (rest.escHits.some((h) => h.to === k) ? 1 : 0);
  return [
    rest.escalating,
    r.unanswered >= 2 ? 1 : 0,
    r.unanswered >= 3 ? 1 : 0,
    has("chase"),
    has("frustration"),
    has("walk_away"),
    ...oneHot(INTENTS, intent),
    ...languageOneHot(language),
  ];
}

const round = (x: number, places = 4) => Math.round(x * 10 ** places) / 10 ** places;

/** A distribution rounded to four places that still sums to 1 (the chosen value absorbs the rest). */
function rounded<T extends string>(
  values: readonly T[],
  dist: Record<T, number>,
  best: T,
): Record<T, number> {
  const out = {} as Record<T, number>;
  for (const v of values) out[v] = round(dist[v]);
  const sum = values.reduce((a, v) => a + out[v], 0);
  out[best] = round(out[best] + 1 - sum);
  return out;
}

/** The words the model leaned on, as evidence: at most three, not overlapping the rules' own phrases. */
function learnedEvidence(
  reasons: { start: number; end: number; weight: number }[],
  body: string,
  value: string,
  taken: PhraseEvidence[],
): PhraseEvidence[] {
  const out: PhraseEvidence[] = [];
  for (const r of reasons) {
    if (out.length === 3) break;
    const overlaps = (e: { start: number; end: number }) => r.start < e.end && e.start < r.end;
    if (taken.some(overlaps) || out.some(overlaps)) continue;
    out.push({
      source: "message",
      phrase: body.slice(r.start, r.end),
      start: r.start,
      end: r.end,
      effect: `learned weight: a word of ${value} messages (${value})`,
      decisive: true,
    });
  }
  return out;
}

/** A rule's cue score from which its decision is its own (a cue it knows, not a weak hint). */
const STRONG_CUE = 2.5;
/** The model's belief in the rules' choice below which the model's own choice is taken instead. */
const OVERRULED_BELOW = 0.15;

/** The belief in a higher-ranked ask from which it comes first (design §3's precedence, over learned beliefs). */
const PRECEDES_FROM = 0.3;

/**
 * The model's choice with design §3's precedence between asks it believes in: a sale being agreed comes before
 * its payment and delivery, and purchase_inquiry > price_request > availability. The rules apply the same
 * order to the cues they know; this applies it to what the weights read in any language.
 */
export function precedence(distribution: Record<Intent, number>): Intent {
  const best = INTENTS.reduce((a, i) => (distribution[i] > distribution[a] ? i : a), INTENTS[0] as Intent);
  const buying = ["invoice_payment", "logistics", "price_request", "availability"] as Intent[];
  if (buying.includes(best) && distribution.purchase_inquiry >= PRECEDES_FROM) return "purchase_inquiry";
  if (best === "availability" && distribution.price_request >= PRECEDES_FROM) return "price_request";
  return best;
}

/** The distribution with `chosen` on top: when precedence chose a lower belief, it trades places with the top one. */
function ranked(distribution: Record<Intent, number>, chosen: Intent): Record<Intent, number> {
  const best = INTENTS.reduce((a, i) => (distribution[i] > distribution[a] ? i : a), INTENTS[0] as Intent);
  if (best === chosen) return distribution;
  return { ...distribution, [chosen]: distribution[best], [best]: distribution[chosen] };
}

export interface TriageModels {
  intent: LoadedModel;
  urgency: LoadedModel;
  reply: LoadedModel;
  escalating: LoadedModel;
  /**
   * Calibration of each answer's probability (lib/engine/calibration.ts), fitted on cross-fitted judgments;
   * none: the probabilities as the rules and weights give them.
   */
  calibration?: Partial<Record<"intent" | "urgency" | "reply" | "escalating", CalibrationMap>>;
}

/**
 * A thread as the intent model reads it: the rules' reading, the features, the language and the dense cues. One
 * place for the judge, the fitting script and a gallery adjustment's examples, so all three read alike.
 */
export function readIntent(input: TriageInput) {
  const reading = readThread(input);
  const features = triageFeatures(reading);
  const language = languageOf(reading);
  return { reading, features, language, dense: intentDense(input, reading, language) };
}

/**
 * Judges a thread with the given models; `model` is the version to name in the judgment. `adjustment`: the
 * gallery's own offset to the intent model (lib/engine/adjustment.ts), named in the judgment's model.
 */
export function judgeTriageWith(
  models: TriageModels,
  model: ModelName,
  input: TriageInput,
  adjustment?: IntentAdjustment | null,
): TriageJudgment {
  const { reading, features, language, dense } = readIntent(input);
  const sharedPrediction = predict<Intent>(models.intent, features, dense);
  // ---- Gallery adjustment (lib/engine/adjustment.ts; docs/decisions.md, "Each gallery's triage adjustment"): the
  // adjusted distribution replaces the shared one; where the gallery's corrections move the choice away from the
  // rules' on this kind of message, a member's correction outranks the rules' gate.
  const adjusted = adjustment
    ? adjustPrediction(
        sharedPrediction,
        models.intent.data.classes as Intent[],
        features,
        adjustment,
        reading.ruleIntent,
      )
    : null;
  const intentPrediction = adjusted?.prediction ?? sharedPrediction;
  const judgedBy: ModelName = adjustment ? `${model}+gallery.${adjustment.version}` : model;
  // ---- end of the gallery adjustment
  // Rules propose, learned weights decide: a rule's decision from a cue it knows stands unless the model all but
  // rules it out; where the rules found nothing, or only a weak cue, the model's choice is the judgment.
  const ruleScore = reading.scores[reading.ruleIntent];
  const ruleKnows =
    language === "en" &&
    (ruleScore >= STRONG_CUE ||
      (ruleScore > 0 && reading.rule !== null && reading.rule !== "no ask recognised"));
  // Nor does the model reorder asks the rules both saw: their precedence (design §3) stands between those.
  const rulesStand =
    !adjusted?.decides && // gallery adjustment
    ruleKnows &&
    ((intentPrediction.distribution[reading.ruleIntent] ?? 0) >= OVERRULED_BELOW ||
      reading.scores[intentPrediction.best] > 0);
  const intent = rulesStand ? reading.ruleIntent : precedence(intentPrediction.distribution);
  const intentDistribution = rulesStand
    ? ruleIntentDistribution(reading.scores, intent)
    : rounded(INTENTS, ranked(intentPrediction.distribution, intent), intent);
  const rest = readRest(input, reading, intent);
  const urgencyPrediction = predict<Urgency>(
    models.urgency,
    features,
    urgencyDense(input, reading, rest, intent, language),
  );
  const ruled = ruleUrgency(rest);
  const urgencyRulesStand =
    rest.urgencyHits.some((h) => h.weight > 0 && h.to === ruled.best) &&
    (urgencyPrediction.distribution[ruled.best] ?? 0) >= OVERRULED_BELOW;
  const urgency = urgencyRulesStand ? ruled.best : urgencyPrediction.best;
  const urgencyDistribution = urgencyRulesStand
    ? ruled.dist
    : rounded(URGENCIES, urgencyPrediction.distribution, urgency);
  const reply = predict<"false" | "true">(models.reply, features, replyDense(rest, intent, language));
  const escalating = predict<"false" | "true">(
    models.escalating,
    features,
    escalatingDense(reading, rest, intent, language),
  );

  const signals = [...reading.signals, ...rest.signals];
  if (rulesStand) {
    if (reading.rule) signals.push(`precedence: ${reading.rule}`);
  } else if (intent === reading.ruleIntent) signals.push(`learned weights agree with the rules: ${intent}`);
  else signals.push(`learned weights chose ${intent} over the rules' ${reading.ruleIntent}`);
  if (adjusted) signals.push(adjusted.signal); // gallery adjustment
  const ruleEvidence = [
    ...phraseEvidence(reading.hits, intent),
    ...phraseEvidence(rest.urgencyHits, urgency),
    ...phraseEvidence(rest.escHits, null),
  ];
  const decisiveRules = ruleEvidence.filter((e) => e.decisive && e.effect.endsWith(`(${intent})`));
  const evidence = [
    ...ruleEvidence,
    ...(decisiveRules.length > 0
      ? []
      : learnedEvidence(intentPrediction.reasons, reading.text.text, intent, ruleEvidence)),
  ].sort((a, b) => a.start - b.start);

  const cal = models.calibration;
  const intentCalibrated = calibrateChoice(cal?.intent, intentDistribution, intent);
  const urgencyCalibrated = calibrateChoice(cal?.urgency, urgencyDistribution, urgency);
  return {
    model: judgedBy, // gallery adjustment
    intent,
    intentProbability: intentCalibrated[intent],
    intentDistribution: intentCalibrated,
    urgency,
    urgencyProbability: urgencyCalibrated[urgency],
    urgencyDistribution: urgencyCalibrated,
    expectsReply: calibrateBinary(cal?.reply, round(reply.distribution.true, 3)),
    escalating: calibrateBinary(cal?.escalating, round(escalating.distribution.true, 3)),
    evidence,
    signals,
  };
}
