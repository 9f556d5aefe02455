/**
 * The triage judge against its labelled set (test/engine/labelled/messages.json): intent, urgency, expects
 * reply and escalation, each with its target, a confusion matrix where there are more than two values, and the
 * figures of the held-out cases (the last batch, written after the judge was built and not tuned on) apart.
 * The set grew in batches (80 each, then 60), each written after a round of the judge and scored blind before the next
 * round; those first-sight figures are kept below, as the honest measure of how the judge meets unseen mail.
 * `npx tsx scripts/engine-score/triage.ts` prints it.
 */
import calibrationData from "../../lib/engine/models/calibration.json";
import { judgeTriage, judgeTriageUncalibrated } from "../../lib/engine/triage-judge";
import { INTENTS, type TriageJudgment, URGENCIES } from "../../lib/engine/types";
import labelled from "../../test/engine/labelled/messages.json";
import { type LabelledMessage, triageInputOf } from "./cases";
import type { ScoreSection } from "./types";
import { unseenOutcomes } from "./unseen";

export { type LabelledMessage, triageInputOf };

export const TRIAGE_CASES = labelled as LabelledMessage[];
/** The held-out cases: the last batch of the set. */
export const HOLDOUT_COUNT = 60;

export const TARGETS = { intent: 0.9, urgency: 0.8, reply: 0.95, escalationF1: 0.8 } as const;

/** Earlier batches, scored blind when written; the judge was then revised with them in view. */
const BLIND_ROUNDS = [
  { cases: "msg-243..322", intent: 0.625, urgency: 0.713, reply: 0.913, escalationF1: 1 },
  { cases: "msg-323..402", intent: 0.725, urgency: 0.838, reply: 0.925, escalationF1: 1 },
  { cases: "msg-403..482", intent: 0.738, urgency: 0.85, reply: 0.913, escalationF1: 0.909 },
  { cases: "msg-483..562", intent: 0.663, urgency: 0.725, reply: 0.938, escalationF1: 0.857 },
  { cases: "msg-563..642", intent: 0.763, urgency: 0.775, reply: 0.9, escalationF1: 0.923 },
  { cases: "msg-643..722", intent: 0.813, urgency: 0.838, reply: 0.975, escalationF1: 0.923 },
  { cases: "msg-723..802", intent: 0.825, urgency: 0.825, reply: 0.963, escalationF1: 0.923 },
  { cases: "msg-803..862", intent: 0.583, urgency: 0.633, reply: 0.867, escalationF1: 0.667 },
  { cases: "msg-863..922", intent: 0.767, urgency: 0.767, reply: 0.867, escalationF1: 0.8 },
  { cases: "msg-923..982", intent: 0.617, urgency: 0.65, reply: 0.917, escalationF1: 1 },
  { cases: "msg-983..1042", intent: 0.683, urgency: 0.8, reply: 0.917, escalationF1: 0.857 },
  { cases: "msg-1043..1102", intent: 0.75, urgency: 0.8, reply: 0.917, escalationF1: 0.667 },
] as const;

function blindHistory(key: "intent" | "urgency" | "reply" | "escalationF1"): string {
  return [
    "Earlier batches at first sight (scored blind, then joined the development cases):",
    "",
    "| batch | value |",
    "|---|---:|",
    ...BLIND_ROUNDS.map((r) => `| ${r.cases} | ${r[key]} |`),
  ].join("\n");
}

interface Judged {
  c: LabelledMessage;
  j: TriageJudgment;
  /** The same thread judged without calibration (the same answers, the probabilities before the maps). */
  raw: TriageJudgment;
  holdout: boolean;
}

export function judgeAll(cases: LabelledMessage[] = TRIAGE_CASES): Judged[] {
  const firstHoldout = cases.length - HOLDOUT_COUNT;
  return cases.map((c, i) => ({
    c,
    j: judgeTriage(triageInputOf(c)),
    raw: judgeTriageUncalibrated(triageInputOf(c)),
    holdout: i >= firstHoldout,
  }));
}

const accuracy = (xs: boolean[]) => (xs.length === 0 ? 0 : xs.filter(Boolean).length / xs.length);
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function f1(pairs: { predicted: boolean; actual: boolean }[]): {
  f1: number;
  precision: number;
  recall: number;
} {
  const tp = pairs.filter((p) => p.predicted && p.actual).length;
  const fp = pairs.filter((p) => p.predicted && !p.actual).length;
  const fn = pairs.filter((p) => !p.predicted && p.actual).length;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { f1: f, precision, recall };
}

function confusion<T extends string>(values: readonly T[], rows: { actual: T; predicted: T }[]): string {
  const head = `| labelled \\ judged | ${values.join(" | ")} |`;
  const rule = `|---|${values.map(() => "---:").join("|")}|`;
  const lines = values.map((a) => {
    const cells = values.map((p) => rows.filter((r) => r.actual === a && r.predicted === p).length);
    return `| ${a} | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...lines].join("\n");
}

function misjudged(rows: { id: string; actual: string; predicted: string; why: string }[]): string {
  const wrong = rows.filter((r) => r.actual !== r.predicted);
  if (wrong.length === 0) return "No misjudged cases.";
  return [
    "| case | labelled | judged | why labelled so |",
    "|---|---|---|---|",
    ...wrong.map((r) => `| ${r.id} | ${r.actual} | ${r.predicted} | ${r.why.replaceAll("|", "/")} |`),
  ].join("\n");
}

function split<T>(judged: Judged[], f: (x: Judged) => T) {
  return {
    all: judged.map(f),
    dev: judged.filter((x) => !x.holdout).map(f),
    holdout: judged.filter((x) => x.holdout).map(f),
  };
}

export function scoreTriage(): ScoreSection[] {
  const judged = judgeAll();
  const devCount = judged.filter((x) => !x.holdout).length;
  const holdCount = judged.length - devCount;
  const caption = `Development cases: ${devCount}; held out (written after the judge, not tuned on): ${holdCount}.`;

  const intentOk = split(judged, (x) => x.j.intent === x.c.intent);
  const urgencyOk = split(judged, (x) => x.j.urgency === x.c.urgency);
  const replyOk = split(judged, (x) => x.j.expectsReply >= 0.5 === x.c.expects_reply);
  const esc = split(judged, (x) => ({ predicted: x.j.escalating >= 0.5, actual: x.c.escalating }));

  const belief = (b: number, raw: number, actual: boolean, holdout: boolean) => ({
    p: r3(b >= 0.5 ? b : 1 - b),
    raw: r3(raw >= 0.5 ? raw : 1 - raw),
    outcome: (b >= 0.5 === actual ? 1 : 0) as 0 | 1,
    split: holdout ? "held out" : "development",
  });
  const fitted = (key: "intent" | "urgency" | "reply" | "escalating") => ({
    calibrationTarget: "unseen",
    calibrationFittedOn: (calibrationData[key] as { fittedOn?: string }).fittedOn,
    calibrationUnseen: unseenOutcomes(key),
  });

  const intentRows = (xs: Judged[]) => xs.map((x) => ({ actual: x.c.intent, predicted: x.j.intent }));
  const urgencyRows = (xs: Judged[]) => xs.map((x) => ({ actual: x.c.urgency, predicted: x.j.urgency }));
  const holdout = judged.filter((x) => x.holdout);
  const table = (xs: Judged[], f: (x: Judged) => [string, string]) =>
    xs.map((x) => {
      const [actual, predicted] = f(x);
      return { id: x.c.id, actual, predicted, why: x.c.why };
    });

  return [
    {
      title: "Intent",
      cases: judged.length,
      metrics: [
        { name: "accuracy", value: r3(accuracy(intentOk.all)), target: { op: ">=", value: TARGETS.intent } },
        { name: "accuracy (development)", value: r3(accuracy(intentOk.dev)) },
        { name: "accuracy (held out)", value: r3(accuracy(intentOk.holdout)) },
      ],
      detail: [
        caption,
        "All cases:",
        confusion(INTENTS, intentRows(judged)),
        "Held-out cases:",
        confusion(INTENTS, intentRows(holdout)),
        blindHistory("intent"),
        "Misjudged:",
        misjudged(table(judged, (x) => [x.c.intent, x.j.intent])),
      ].join("\n\n"),
      calibration: judged.map((x) => ({
        p: x.j.intentProbability,
        raw: x.raw.intentProbability,
        outcome: (x.j.intent === x.c.intent ? 1 : 0) as 0 | 1,
        split: x.holdout ? "held out" : "development",
      })),
      ...fitted("intent"),
    },
    {
      title: "Urgency",
      cases: judged.length,
      metrics: [
        {
          name: "accuracy",
          value: r3(accuracy(urgencyOk.all)),
          target: { op: ">=", value: TARGETS.urgency },
        },
        { name: "accuracy (development)", value: r3(accuracy(urgencyOk.dev)) },
        { name: "accuracy (held out)", value: r3(accuracy(urgencyOk.holdout)) },
      ],
      detail: [
        caption,
        "All cases:",
        confusion(URGENCIES, urgencyRows(judged)),
        "Held-out cases:",
        confusion(URGENCIES, urgencyRows(holdout)),
        blindHistory("urgency"),
        "Misjudged:",
        misjudged(table(judged, (x) => [x.c.urgency, x.j.urgency])),
      ].join("\n\n"),
      calibration: judged.map((x) => ({
        p: x.j.urgencyProbability,
        raw: x.raw.urgencyProbability,
        outcome: (x.j.urgency === x.c.urgency ? 1 : 0) as 0 | 1,
        split: x.holdout ? "held out" : "development",
      })),
      ...fitted("urgency"),
    },
    {
      title: "Expects reply",
      cases: judged.length,
      metrics: [
        { name: "accuracy", value: r3(accuracy(replyOk.all)), target: { op: ">=", value: TARGETS.reply } },
        { name: "accuracy (development)", value: r3(accuracy(replyOk.dev)) },
        { name: "accuracy (held out)", value: r3(accuracy(replyOk.holdout)) },
      ],
      detail: [
        caption,
        blindHistory("reply"),
        "Misjudged:",
        misjudged(table(judged, (x) => [String(x.c.expects_reply), String(x.j.expectsReply >= 0.5)])),
      ].join("\n\n"),
      calibration: judged.map((x) =>
        belief(x.j.expectsReply, x.raw.expectsReply, x.c.expects_reply, x.holdout),
      ),
      ...fitted("reply"),
    },
    {
      title: "Escalating",
      cases: judged.length,
      metrics: [
        { name: "F1", value: r3(f1(esc.all).f1), target: { op: ">=", value: TARGETS.escalationF1 } },
        { name: "precision", value: r3(f1(esc.all).precision) },
        { name: "recall", value: r3(f1(esc.all).recall) },
        { name: "F1 (development)", value: r3(f1(esc.dev).f1) },
        { name: "F1 (held out)", value: r3(f1(esc.holdout).f1) },
      ],
      detail: [
        caption,
        `Escalating cases: ${esc.all.filter((p) => p.actual).length} of ${judged.length}.`,
        blindHistory("escalationF1"),
        "Misjudged:",
        misjudged(table(judged, (x) => [String(x.c.escalating), String(x.j.escalating >= 0.5)])),
      ].join("\n\n"),
      calibration: judged.map((x) => belief(x.j.escalating, x.raw.escalating, x.c.escalating, x.holdout)),
      ...fitted("escalating"),
    },
  ];
}

function print(sections: ScoreSection[]): void {
  for (const s of sections) {
    console.log(`\n## ${s.title} (${s.cases} cases)\n`);
    for (const m of s.metrics) {
      const target = m.target ? ` (target ${m.target.op} ${m.target.value})` : "";
      console.log(`- ${m.name}: ${m.value}${target}`);
    }
    const brier =
      s.calibration.reduce((a, c) => a + (c.p - c.outcome) ** 2, 0) / Math.max(1, s.calibration.length);
    console.log(`- Brier score: ${r3(brier)}`);
    if (s.detail) console.log(`\n${s.detail}`);
  }
}

if (
  typeof process !== "undefined" &&
  process.argv[1] &&
  import.meta.url.endsWith(process.argv[1].replace(/^.*\//, "/"))
) {
  print(scoreTriage());
}
