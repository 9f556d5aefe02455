/**
 * `npm run engine:train`: fits the learned weights of the triage and disclosure judges on the labelled set
 * (test/engine/labelled/messages*.json, condition-notes*.json, but the score's held-out tail) and writes them to
 * lib/engine/models/. Deterministic:
 * the same labelled set gives the same files. `-- --cv 5` cross-validates instead (fits on four fifths, judges
 * the fifth) and prints the figures of rules alone beside rules with learned weights, without writing anything.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { DISCLOSURE_DENSE, disclosureDense, judgeDisclosureByRules } from "../../lib/engine/disclosure";
import { judgeDisclosureWith } from "../../lib/engine/disclosure-learned";
import { detectLanguage } from "../../lib/engine/language";
import { type LinearModelData, loadModel, textFeatures } from "../../lib/engine/learned";
import { judgeTriageByRules, readRest } from "../../lib/engine/triage";
import {
  DENSE,
  escalatingDense,
  judgeTriageWith,
  readIntent,
  replyDense,
  urgencyDense,
} from "../../lib/engine/triage-learned";
import { INTENTS, type TriageJudgment, URGENCIES } from "../../lib/engine/types";
import type { LabelledNote } from "../engine-score/cases";
import { type LabelledMessage, triageInputOf } from "../engine-score/cases";
import { HELD_OUT as NOTES_HELD_OUT } from "../engine-score/disclosure";
import { HOLDOUT_COUNT as MESSAGES_HELD_OUT } from "../engine-score/triage";
import { type Example, fitSoftmax, ship } from "./fit";

const LABELLED = "test/engine/labelled";

/** Every labelled file whose name starts so: the original set, then each multilingual and blind round's. */
export function labelledCases<T>(prefix: "messages" | "condition-notes"): T[] {
  return readdirSync(LABELLED)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".json"))
    .sort()
    .flatMap((f) => JSON.parse(readFileSync(`${LABELLED}/${f}`, "utf8")) as T[]);
}
/**
 * The ids the score reports as held out: the tail of the original labelled files (scripts/engine-score/triage.ts
 * HOLDOUT_COUNT messages, disclosure.ts HELD_OUT notes). Neither the weights nor the calibration maps are fitted
 * on them, so the score's held-out figures are of cases the judge never saw.
 */
export function heldOutIds(): Set<string> {
  const tail = <T extends { id: string }>(file: string, n: number) =>
    (JSON.parse(readFileSync(`${LABELLED}/${file}`, "utf8")) as T[]).slice(-n).map((c) => c.id);
  return new Set([
    ...tail<LabelledMessage>("messages.json", MESSAGES_HELD_OUT),
    ...tail<LabelledNote>("condition-notes.json", NOTES_HELD_OUT),
  ]);
}

/** The labelled cases the weights are fitted on: every file's, but the score's held-out tail. */
export function trainingCases<T extends { id: string }>(prefix: "messages" | "condition-notes"): T[] {
  const held = heldOutIds();
  return labelledCases<T>(prefix).filter((c) => !held.has(c.id));
}
const BOOL = ["false", "true"];

export function fingerprint(cases: unknown): string {
  return createHash("sha256").update(JSON.stringify(cases)).digest("hex");
}

interface TriageExamples {
  intent: Example[];
  urgency: Example[];
  reply: Example[];
  escalating: Example[];
}

function triageExamples(cases: LabelledMessage[]): TriageExamples {
  const out: TriageExamples = { intent: [], urgency: [], reply: [], escalating: [] };
  for (const c of cases) {
    const input = triageInputOf(c);
    const { reading, features, language, dense } = readIntent(input);
    out.intent.push({ features, dense, label: INTENTS.indexOf(c.intent) });
    // The other three are fitted on the labelled intent: the judge gives them its own.
    const rest = readRest(input, reading, c.intent);
    out.urgency.push({
      features,
      dense: urgencyDense(input, reading, rest, c.intent, language),
      label: URGENCIES.indexOf(c.urgency),
    });
    out.reply.push({ features, dense: replyDense(rest, c.intent, language), label: c.expects_reply ? 1 : 0 });
    out.escalating.push({
      features,
      dense: escalatingDense(reading, rest, c.intent, language),
      label: c.escalating ? 1 : 0,
    });
  }
  return out;
}

export function fitTriage(cases: LabelledMessage[]) {
  const examples = triageExamples(cases);
  const trainedOn = fingerprint(cases);
  const version = trainedOn.slice(0, 8);
  const meta = (name: string, classes: readonly string[], dense: readonly string[]) => ({
    name,
    version,
    classes: [...classes],
    dense: [...dense],
    trainedOn,
    cases: cases.length,
  });
  return {
    intent: ship(fitSoftmax(examples.intent, INTENTS.length), meta("triage-intent", INTENTS, DENSE.intent)),
    urgency: ship(
      fitSoftmax(examples.urgency, URGENCIES.length),
      meta("triage-urgency", URGENCIES, DENSE.urgency),
    ),
    reply: ship(fitSoftmax(examples.reply, 2), meta("triage-reply", BOOL, DENSE.reply)),
    escalating: ship(fitSoftmax(examples.escalating, 2), meta("triage-escalating", BOOL, DENSE.escalating)),
  };
}

export function fitDisclosure(cases: LabelledNote[]): LinearModelData {
  const examples = cases.map((c) => ({
    features: textFeatures(c.notes),
    dense: disclosureDense(judgeDisclosureByRules(c.notes), detectLanguage(c.notes)),
    label: c.disclosure ? 1 : 0,
  }));
  const trainedOn = fingerprint(cases);
  return ship(fitSoftmax(examples, 2), {
    name: "disclosure",
    version: trainedOn.slice(0, 8),
    classes: BOOL,
    dense: DISCLOSURE_DENSE,
    trainedOn,
    cases: cases.length,
  });
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
function f1(pairs: [boolean, boolean][]) {
  const tp = pairs.filter(([p, a]) => p && a).length;
  const fp = pairs.filter(([p, a]) => p && !a).length;
  const fn = pairs.filter(([p, a]) => !p && a).length;
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

function crossValidate(folds: number) {
  const messages = trainingCases<LabelledMessage>("messages");
  const notes = trainingCases<LabelledNote>("condition-notes");
  const tri = {
    rules: [] as TriageJudgment[],
    learned: [] as TriageJudgment[],
    cases: [] as LabelledMessage[],
  };
  for (let k = 0; k < folds; k++) {
    const train = messages.filter((_, i) => i % folds !== k);
    const test = messages.filter((_, i) => i % folds === k);
    const m = fitTriage(train);
    const models = {
      intent: loadModel(m.intent),
      urgency: loadModel(m.urgency),
      reply: loadModel(m.reply),
      escalating: loadModel(m.escalating),
    };
    for (const c of test) {
      const input = triageInputOf(c);
      tri.cases.push(c);
      tri.rules.push(judgeTriageByRules(input));
      tri.learned.push(judgeTriageWith(models, "cv@0", input));
    }
  }
  const figures = (js: TriageJudgment[], only?: (c: LabelledMessage) => boolean) => {
    const idx = tri.cases.map((c, i) => (only && !only(c) ? -1 : i)).filter((i) => i >= 0);
    const acc = (f: (i: number) => boolean) => r3(idx.filter(f).length / Math.max(1, idx.length));
    return {
      n: idx.length,
      intent: acc((i) => js[i]!.intent === tri.cases[i]!.intent),
      urgency: acc((i) => js[i]!.urgency === tri.cases[i]!.urgency),
      reply: acc((i) => js[i]!.expectsReply >= 0.5 === tri.cases[i]!.expects_reply),
      escalationF1: r3(f1(idx.map((i) => [js[i]!.escalating >= 0.5, tri.cases[i]!.escalating]))),
    };
  };
  const english = (c: LabelledMessage) =>
    !(c as { lang?: string }).lang || (c as { lang?: string }).lang === "en";
  console.log(
    "triage, rules alone:",
    figures(tri.rules),
    "not English:",
    figures(tri.rules, (c) => !english(c)),
  );
  console.log(
    "triage, learned:    ",
    figures(tri.learned),
    "not English:",
    figures(tri.learned, (c) => !english(c)),
  );
  const languages = [...new Set(tri.cases.map((c) => c.lang ?? "en"))].sort();
  console.log(
    "intent right per language (rules → learned):",
    languages
      .map((l) => {
        const only = (c: LabelledMessage) => (c.lang ?? "en") === l;
        return `${l} ${figures(tri.rules, only).intent} → ${figures(tri.learned, only).intent}`;
      })
      .join(", "),
  );
  const pairs = { rules: [] as [boolean, boolean][], learned: [] as [boolean, boolean][] };
  for (let k = 0; k < folds; k++) {
    const train = notes.filter((_, i) => i % folds !== k);
    const model = loadModel(fitDisclosure(train));
    for (const c of notes.filter((_, i) => i % folds === k)) {
      pairs.rules.push([judgeDisclosureByRules(c.notes).disclosure, c.disclosure]);
      pairs.learned.push([judgeDisclosureWith(model, "cv@0", c.notes).disclosure, c.disclosure]);
    }
  }
  console.log("disclosure F1, rules alone:", r3(f1(pairs.rules)), "learned:", r3(f1(pairs.learned)));
}

function train() {
  const messages = trainingCases<LabelledMessage>("messages");
  const notes = trainingCases<LabelledNote>("condition-notes");
  const triage = fitTriage(messages);
  for (const [name, data] of Object.entries(triage))
    writeFileSync(`lib/engine/models/triage-${name}.json`, `${JSON.stringify(data, null, 1)}\n`);
  writeFileSync("lib/engine/models/disclosure.json", `${JSON.stringify(fitDisclosure(notes), null, 1)}\n`);
  // In the repository's JSON style, so `biome check .` passes on the files as written.
  execFileSync("npx", ["biome", "format", "--write", "lib/engine/models"], { stdio: "ignore" });
  const size = (d: LinearModelData) => `${Math.round((d.buckets.length + d.weights.length) / 1024)} KB`;
  console.log(
    `Fitted on ${messages.length} messages and ${notes.length} notes: ${Object.entries(triage)
      .map(([n, d]) => `triage-${n} ${size(d)}`)
      .join(", ")}, disclosure ${size(fitDisclosure(notes))}. Written to lib/engine/models/.`,
  );
}

// Run as a script (scripts/engine-train/calibrate.ts imports the fitting functions without running it).
if (process.argv[1]?.replace(/\\/g, "/").endsWith("engine-train/index.ts")) {
  const cv = process.argv.indexOf("--cv");
  if (cv >= 0) crossValidate(Number(process.argv[cv + 1] ?? 5));
  else train();
}
