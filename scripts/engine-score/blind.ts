/**
 * Scores a batch of new labelled cases at first sight, before they join the labelled set:
 * `npx tsx scripts/engine-score/blind.ts <messages.json|condition-notes.json>...`. Prints the figures of the rules
 * alone and of the judge the engine runs (rules and learned weights), overall and per language. Run it once per
 * batch, record the figures in docs/engine-score.md (scripts/engine-score/rounds.ts), then fold the batch in.
 * `-- --rubrics <contact-histories.json> <rubrics.json>` scores a batch of segment rubrics the same way.
 */
import { readFileSync } from "node:fs";
import { judgeDisclosureByRules } from "../../lib/engine/disclosure";
import { judgeDisclosure } from "../../lib/engine/disclosure-judge";
import { judgeRubric, readRubric } from "../../lib/engine/rubric";
import { judgeTriageByRules } from "../../lib/engine/triage";
import { judgeTriage } from "../../lib/engine/triage-judge";
import type { ContactProfile, TriageJudgment } from "../../lib/engine/types";
import { type LabelledMessage, type LabelledNote, triageInputOf } from "./cases";

const r3 = (x: number) => Math.round(x * 1000) / 1000;

export function f1(pairs: [boolean, boolean][]): number {
  const tp = pairs.filter(([p, a]) => p && a).length;
  const fp = pairs.filter(([p, a]) => p && !a).length;
  const fn = pairs.filter(([p, a]) => !p && a).length;
  return tp === 0 ? 0 : r3((2 * tp) / (2 * tp + fp + fn));
}

export function triageFigures(cases: LabelledMessage[], judged: TriageJudgment[]) {
  const acc = (f: (i: number) => boolean) =>
    r3(cases.filter((_, i) => f(i)).length / Math.max(1, cases.length));
  return {
    cases: cases.length,
    intent: acc((i) => judged[i]?.intent === cases[i]?.intent),
    urgency: acc((i) => judged[i]?.urgency === cases[i]?.urgency),
    expectsReply: acc((i) => (judged[i]?.expectsReply ?? 0) >= 0.5 === cases[i]?.expects_reply),
    escalationF1: f1(cases.map((c, i) => [(judged[i]?.escalating ?? 0) >= 0.5, c.escalating])),
  };
}

function byLanguage<T extends { lang?: string }>(cases: T[], figure: (subset: number[]) => unknown) {
  const langs = [...new Set(cases.map((c) => c.lang ?? "en"))].sort();
  return Object.fromEntries(
    langs.map((l) => [
      l,
      figure(cases.map((c, i) => ((c.lang ?? "en") === l ? i : -1)).filter((i) => i >= 0)),
    ]),
  );
}

function scoreMessages(cases: LabelledMessage[]) {
  for (const [name, judge] of [
    ["rules alone", judgeTriageByRules],
    ["engine", judgeTriage],
  ] as const) {
    const judged = cases.map((c) => judge(triageInputOf(c)));
    console.log(`messages, ${name}:`, JSON.stringify(triageFigures(cases, judged)));
    console.log(
      "  intent right per language:",
      JSON.stringify(
        byLanguage(
          cases,
          (idx) => `${idx.filter((i) => judged[i]?.intent === cases[i]?.intent).length}/${idx.length}`,
        ),
      ),
    );
  }
}

function scoreNotes(cases: LabelledNote[]) {
  for (const [name, judge] of [
    ["rules alone", judgeDisclosureByRules],
    ["engine", judgeDisclosure],
  ] as const) {
    const judged = cases.map((c) => judge(c.notes).disclosure);
    const pairs = cases.map((c, i): [boolean, boolean] => [judged[i] as boolean, c.disclosure]);
    console.log(
      `notes, ${name}:`,
      JSON.stringify({
        cases: cases.length,
        f1: f1(pairs),
        accuracy: r3(pairs.filter(([p, a]) => p === a).length / cases.length),
      }),
    );
    console.log(
      "  right per language:",
      JSON.stringify(
        byLanguage(
          cases,
          (idx) => `${idx.filter((i) => judged[i] === cases[i]?.disclosure).length}/${idx.length}`,
        ),
      ),
    );
  }
}

/** `--rubrics <contact-histories.json> <rubrics.json>`: rubrics read, pairs judged, accuracy on those. */
function scoreRubricBatch(historiesFile: string, rubricsFile: string) {
  const histories = JSON.parse(readFileSync(historiesFile, "utf8")) as ContactProfile[];
  const rubrics = JSON.parse(readFileSync(rubricsFile, "utf8")) as {
    id: string;
    described_as: string;
    now: string;
    labels: Record<string, boolean>;
  }[];
  const byId = new Map(histories.map((h) => [h.id, h]));
  let pairs = 0;
  let judged = 0;
  let right = 0;
  let read = 0;
  for (const rb of rubrics) {
    const now = new Date(rb.now);
    const reading = readRubric(rb.described_as, now);
    if (reading.readable) read++;
    let mine = 0;
    let mineRight = 0;
    for (const [id, label] of Object.entries(rb.labels)) {
      pairs++;
      const profile = byId.get(id);
      const verdict = profile && reading.readable ? judgeRubric(reading, profile, now) : null;
      if (!verdict) continue;
      judged++;
      mine++;
      if (verdict.verdict === label) {
        right++;
        mineRight++;
      }
    }
    console.log(
      `${rb.id} ${reading.readable ? "read" : `unreadable (${reading.reason})`}: right ${mineRight}/${mine} of ${Object.keys(rb.labels).length} — ${rb.described_as}`,
    );
  }
  console.log(
    "rubrics:",
    JSON.stringify({
      rubrics: rubrics.length,
      read,
      pairs,
      judged: r3(judged / pairs),
      accuracy: r3(right / Math.max(1, judged)),
    }),
  );
}

const args = process.argv.slice(2);
if (args[0] === "--rubrics") scoreRubricBatch(args[1] as string, args[2] as string);
else
  for (const file of args) {
    const cases = JSON.parse(readFileSync(file, "utf8")) as (LabelledMessage | LabelledNote)[];
    console.log(`\n${file}`);
    if (cases.length > 0 && "body" in (cases[0] as object)) scoreMessages(cases as LabelledMessage[]);
    else scoreNotes(cases as LabelledNote[]);
  }
