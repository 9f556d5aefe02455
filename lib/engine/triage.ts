import {
  INTENTS,
  type Intent,
  type TriageInput,
  type TriageJudgment,
  URGENCIES,
  type Urgency,
} from "./types";

/** Minimal triage judge: the last inbound message's asks, by a few cues, until the full judge replaces it. */
export function judgeTriage(input: TriageInput): TriageJudgment {
  const last = [...input.messages].reverse().find((m) => m.direction === "inbound");
  const text = `${last?.subject ?? ""} ${last?.body ?? ""}`.toLowerCase();
  const intent: Intent = /\b(buy|purchase|hold|reserve)\b/.test(text)
    ? "purchase_inquiry"
    : /\b(price|cost|how much)\b/.test(text)
      ? "price_request"
      : /\bavailab/.test(text)
        ? "availability"
        : "other";
  const urgency: Urgency = intent === "other" ? "this_week" : "today";
  const intentDistribution = Object.fromEntries(
    INTENTS.map((i) => [i, i === intent ? 0.6 : 0.4 / (INTENTS.length - 1)]),
  ) as Record<Intent, number>;
  const urgencyDistribution = Object.fromEntries(
    URGENCIES.map((u) => [u, u === urgency ? 0.7 : 0.1]),
  ) as Record<Urgency, number>;
  return {
    model: "triage-cues@0.1",
    intent,
    intentProbability: 0.6,
    intentDistribution,
    urgency,
    urgencyProbability: 0.7,
    urgencyDistribution,
    expectsReply: text.includes("?") ? 0.8 : 0.3,
    escalating: 0.1,
    evidence: [],
    signals: [],
  };
}
