/**
 * The inbox triage judge the engine runs: the rules and the shipped learned weights (lib/engine/models/, fitted by
 * `npm run engine:train`); how they combine is lib/engine/triage-learned.ts. A gallery's own adjustment of the
 * intent model (lib/engine/adjustment.ts), fitted on its members' corrections, is applied when given.
 */
import { type IntentAdjustment, sharedScores } from "./adjustment";
import type { CalibrationMap } from "./calibration";
import { lazy } from "./lazy";
import { type LinearModelData, type LoadedModel, loadModel, type TextFeature } from "./learned";
import calibrationData from "./models/calibration.json";
import escalatingData from "./models/triage-escalating.json";
import intentData from "./models/triage-intent.json";
import replyData from "./models/triage-reply.json";
import urgencyData from "./models/triage-urgency.json";
import { DENSE, judgeTriageWith, readIntent, type TriageModels } from "./triage-learned";
import type { ModelName, TriageInput, TriageJudgment } from "./types";

/**
 * The shipped models, decoded on the first judgment and kept for the isolate's life (lib/engine/lazy.ts): the
 * engine Worker's cold start, and every path that judges no thread, never pays for them.
 */
const shipped = lazy((): TriageModels => {
  const models: TriageModels = {
    intent: loadModel(intentData as LinearModelData),
    urgency: loadModel(urgencyData as LinearModelData),
    reply: loadModel(replyData as LinearModelData),
    escalating: loadModel(escalatingData as LinearModelData),
    // Fitted on cross-fitted judgments of the labelled messages (scripts/engine-train/calibrate.ts).
    calibration: {
      intent: calibrationData.intent as CalibrationMap,
      urgency: calibrationData.urgency as CalibrationMap,
      reply: calibrationData.reply as CalibrationMap,
      escalating: calibrationData.escalating as CalibrationMap,
    },
  };
  for (const [name, m] of Object.entries({
    intent: models.intent,
    urgency: models.urgency,
    reply: models.reply,
    escalating: models.escalating,
  }))
    if (m.data.dense.join() !== DENSE[name as keyof typeof DENSE].join())
      throw new Error(
        `lib/engine/models/triage-${name}.json was fitted on other features: npm run engine:train`,
      );
  return models;
});

/** Judges a thread without the calibration of its probabilities: the score's "before calibration". */
export function judgeTriageUncalibrated(input: TriageInput): TriageJudgment {
  return judgeTriageWith({ ...shipped(), calibration: undefined }, TRIAGE_MODEL, input, null);
}

/** The version every triage judgment names (the four models are fitted together). */
export const TRIAGE_MODEL: ModelName = `triage-linear@${intentData.version}`;

/** The shared intent model a gallery's adjustment offsets: its classes and feature space. Never changed. */
export const SHARED_INTENT_MODEL: LoadedModel = {
  get data() {
    return shipped().intent.data;
  },
  get index() {
    return shipped().intent.index;
  },
  get weights() {
    return shipped().intent.weights;
  },
};

/** Whether an adjustment applies to the shipped model: fitted over it, in its feature space, on an example or more. */
export function adjustmentApplies(
  adjustment: IntentAdjustment | null | undefined,
): adjustment is IntentAdjustment {
  return (
    !!adjustment &&
    adjustment.examples > 0 &&
    adjustment.shared === TRIAGE_MODEL &&
    adjustment.bits === SHARED_INTENT_MODEL.data.bits &&
    adjustment.bias.length === SHARED_INTENT_MODEL.data.classes.length
  );
}

/** Judges a thread; with the gallery's adjustment when it applies (its judgments then name it in `model`). */
export function judgeTriage(input: TriageInput, adjustment?: IntentAdjustment | null): TriageJudgment {
  const judgment = judgeTriageWith(
    shipped(),
    TRIAGE_MODEL,
    input,
    adjustmentApplies(adjustment) ? adjustment : null,
  );
  const judged = [...input.messages].reverse().find((m) => m.direction === "inbound");
  return judged?.authenticationFailed ? withFailedAuthentication(judgment) : judgment;
}

/**
 * How much more likely a mail whose sender failed authentication is spam than one that passed: the odds of spam
 * (and of `later`) are multiplied by it. Failing DMARC is a strong mark of a forged sender, not proof (a mailing
 * list or a forwarding rule can break it), so a message whose words are a clear ask stays that ask.
 */
export const FAILED_AUTHENTICATION_SPAM_ODDS = 9;

/** A distribution with one value's odds multiplied by `factor`, renormalised; and its most likely value. */
function raiseOdds<K extends string>(distribution: Record<K, number>, value: NoInfer<K>, factor: number) {
  const raised = { ...distribution, [value]: (distribution[value] ?? 0) * factor } as Record<K, number>;
  const total = Object.values<number>(raised).reduce((sum, p) => sum + p, 0);
  const keys = Object.keys(raised) as K[];
  for (const key of keys) raised[key] = Math.round((raised[key] / total) * 1000) / 1000;
  const best = keys.reduce((a, b) => (raised[b] > raised[a] ? b : a));
  return { distribution: raised, best };
}

/**
 * The judgment of a mail whose sender failed authentication (the receiving server's Authentication-Results):
 * the belief in spam raised by FAILED_AUTHENTICATION_SPAM_ODDS. When spam then leads, the thread is judged spam:
 * no reply expected, no escalation, no hurry.
 */
function withFailedAuthentication(judgment: TriageJudgment): TriageJudgment {
  const intent = raiseOdds(judgment.intentDistribution, "spam", FAILED_AUTHENTICATION_SPAM_ODDS);
  const signals = [
    ...judgment.signals,
    "the sender's mail failed authentication (SPF/DKIM/DMARC): likely forged or bulk",
  ];
  if (intent.best !== "spam") return { ...judgment, intentDistribution: intent.distribution, signals };
  const urgency = raiseOdds(judgment.urgencyDistribution, "later", FAILED_AUTHENTICATION_SPAM_ODDS);
  return {
    ...judgment,
    intent: "spam",
    intentProbability: intent.distribution.spam,
    intentDistribution: intent.distribution,
    urgency: urgency.best,
    urgencyProbability: urgency.distribution[urgency.best],
    urgencyDistribution: urgency.distribution,
    expectsReply: Math.min(judgment.expectsReply, 0.03),
    escalating: Math.min(judgment.escalating, 0.02),
    signals,
  };
}

/**
 * A thread as the shared intent model reads it (the features and dense cues judgeTriageWith gives it), with its
 * scores: one example of a gallery's adjustment (services/engine/fit-triage.ts).
 */
export function intentExample(input: TriageInput): { features: TextFeature[]; sharedScores: number[] } {
  const { features, dense } = readIntent(input);
  return { features, sharedScores: sharedScores(shipped().intent, features, dense) };
}
