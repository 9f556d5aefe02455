import { judgeRubric, readRubric } from "../../lib/engine/rubric";
import type { ContactProfile } from "../../lib/engine/types";
import histories from "../../test/engine/labelled/contact-histories.json";
import histories1 from "../../test/engine/labelled/contact-histories-round-1.json";
import histories2 from "../../test/engine/labelled/contact-histories-round-2.json";
import histories3 from "../../test/engine/labelled/contact-histories-round-3.json";
import rubrics from "../../test/engine/labelled/rubrics.json";
import rubrics1 from "../../test/engine/labelled/rubrics-round-1.json";
import rubrics2 from "../../test/engine/labelled/rubrics-round-2.json";
import rubrics3 from "../../test/engine/labelled/rubrics-round-3.json";
import type { ScoreSection } from "./types";

/**
 * Segment rubrics against the labelled set: each labelled (rubric, contact) pair judged or left unjudged.
 * Accuracy counts the judged pairs; coverage is the share of labelled pairs judged at all. Rubrics marked
 * `holdout` were written after the judge was built and are reported on their own; the blind rounds (written by
 * people who never saw the reader, in thirteen languages) are a third section.
 */

interface LabelledRubric {
  id: string;
  described_as: string;
  now: string;
  readable: boolean;
  holdout?: boolean;
  labels: Record<string, boolean>;
}

interface Tally {
  pairs: number;
  judged: number;
  correct: number;
  readableRight: number;
  rubrics: number;
  misjudged: string[];
  unjudged: string[];
  calibration: { p: number; outcome: 0 | 1 }[];
}

// Every round's contacts have ids of their own (con-, con-b, con-c, con-d), so one map holds them all.
const byId = new Map(
  ([...histories, ...histories1, ...histories2, ...histories3] as ContactProfile[]).map((h) => [h.id, h]),
);

function tally(set: LabelledRubric[]): Tally {
  const t: Tally = {
    pairs: 0,
    judged: 0,
    correct: 0,
    readableRight: 0,
    rubrics: set.length,
    misjudged: [],
    unjudged: [],
    calibration: [],
  };
  for (const rb of set) {
    const now = new Date(rb.now);
    const reading = readRubric(rb.described_as, now);
    if (reading.readable === rb.readable) t.readableRight++;
    else {
      t.misjudged.push(
        `- ${rb.id} "${rb.described_as}": read as ${reading.readable ? "readable" : `unreadable (${reading.reason})`}, labelled ${rb.readable ? "readable" : "unreadable"}`,
      );
    }
    for (const [contactId, label] of Object.entries(rb.labels)) {
      t.pairs++;
      const profile = byId.get(contactId);
      if (!profile || !reading.readable) {
        t.unjudged.push(`${rb.id}/${contactId}`);
        continue;
      }
      const verdict = judgeRubric(reading, profile, now);
      if (!verdict) {
        t.unjudged.push(`${rb.id}/${contactId}`);
        continue;
      }
      t.judged++;
      const right = verdict.verdict === label;
      if (right) t.correct++;
      else {
        const why = verdict.reasons
          .filter((r) => r.holds === verdict.verdict || !verdict.verdict)
          .slice(0, 3)
          .map((r) => `${r.criterion}: ${r.label}`)
          .join("; ");
        t.misjudged.push(
          `- ${rb.id} ${contactId}: judged ${verdict.verdict} (p ${verdict.probability}), labelled ${label} — ${why}`,
        );
      }
      t.calibration.push({ p: verdict.probability, outcome: right ? 1 : 0 });
    }
  }
  return t;
}

function section(title: string, t: Tally): ScoreSection {
  const accuracy = t.judged ? t.correct / t.judged : 0;
  const coverage = t.pairs ? t.judged / t.pairs : 0;
  return {
    title,
    cases: t.pairs,
    metrics: [
      { name: "accuracy (judged pairs)", value: accuracy, target: { op: ">=", value: 0.9 } },
      { name: "coverage (labelled pairs judged)", value: coverage, target: { op: ">=", value: 0.85 } },
      { name: "readability accuracy (rubrics)", value: t.rubrics ? t.readableRight / t.rubrics : 0 },
      { name: "rubrics", value: t.rubrics },
    ],
    detail: [
      `Misjudged (${t.misjudged.length}):`,
      ...t.misjudged,
      `Unjudged pairs (${t.unjudged.length}): ${t.unjudged.slice(0, 40).join(", ")}${t.unjudged.length > 40 ? ", …" : ""}`,
    ].join("\n"),
    calibration: t.calibration,
  };
}

export function scoreRubrics(): ScoreSection[] {
  const all = rubrics as unknown as LabelledRubric[];
  return [
    section("Rubric (tuning set)", tally(all.filter((r) => !r.holdout))),
    section("Rubric (held out)", tally(all.filter((r) => r.holdout))),
    // The blind rounds, each scored once at first sight (docs/engine-score.md), then kept as development cases.
    section(
      "Rubric (blind rounds 1–3, 20 rubrics each, many languages)",
      tally([...rubrics1, ...rubrics2, ...rubrics3] as unknown as LabelledRubric[]),
    ),
  ];
}

function print(sections: ScoreSection[]) {
  for (const s of sections) {
    console.log(`\n## ${s.title} (${s.cases} labelled pairs)`);
    for (const m of s.metrics) {
      const target = m.target ? ` (target ${m.target.op} ${m.target.value})` : "";
      console.log(`${m.name}: ${Number.isInteger(m.value) ? m.value : m.value.toFixed(3)}${target}`);
    }
    const brier = s.calibration.reduce((a, c) => a + (c.p - c.outcome) ** 2, 0) / (s.calibration.length || 1);
    console.log(`Brier: ${brier.toFixed(3)}`);
    if (s.detail) console.log(s.detail);
  }
}

if (typeof process !== "undefined" && process.argv?.[1]?.endsWith("engine-score/rubric.ts"))
  print(scoreRubrics());
