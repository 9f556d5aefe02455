/**
 * `npx tsx scripts/engine-train/calibrate.ts`: fits the calibration maps of the engine's probabilities
 * (lib/engine/calibration.ts) and writes lib/engine/models/calibration.json. Deterministic. Each map is fitted on
 * outcomes its judge's weights were not fitted on (docs/decisions.md, "Calibration of the engine's
 * probabilities"):
 * - the matcher: the labelled collectors' train split (every gallery), each outcome judged by the model fitted on
 *   the other four fifths of the split's collectors; the prior model's map on the same outcomes judged by the
 *   hand-set prior;
 * - triage (intent, urgency, expects reply, escalating) and disclosure: every labelled message and note judged
 *   by weights fitted on the other two thirds (3-fold cross-fit, cases taken in turn), the held-out
 *   cases the score reports apart (the last 60 messages of messages.json, the last 80 notes of
 *   condition-notes.json) left out of the fit. A map that does not lower the expected calibration error of
 *   those outcomes is not shipped (the identity instead).
 * `--matcher` refits only the matcher's maps (seconds; the triage cross-fit takes about twenty minutes);
 * `--cached` refits the triage and disclosure maps from the outcomes of the last cross-fit (.data/).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import {
  applyCalibration,
  type CalibrationMap,
  expectedCalibrationError,
  fitCalibration,
  IDENTITY_CALIBRATION,
  type Outcome,
} from "../../lib/engine/calibration";
import { judgeDisclosureWith } from "../../lib/engine/disclosure-learned";
import { loadModel } from "../../lib/engine/learned";
import { judgeTriageWith } from "../../lib/engine/triage-learned";
import type { LabelledMessage, LabelledNote } from "../engine-score/cases";
import { triageInputOf } from "../engine-score/cases";
import { addGalleries, fitGlobalMatchCalibrations } from "../engine-score/matcher";
import { readGalleries } from "../engine-score/matcher-galleries";
import { fingerprint, fitDisclosure, fitTriage, heldOutIds, labelledCases } from "./index";

const PATH = "lib/engine/models/calibration.json";
/** Folds of the triage and disclosure cross-fit (each triage fit takes minutes: three, not five). */
const FOLDS = 3;
/** The cross-fitted outcomes, kept so the maps can be refitted without the cross-fit (`--cached`). */
const CACHE = ".data/calibration-outcomes.json";

type Judge = "intent" | "urgency" | "reply" | "escalating" | "disclosure";

/** Where each judge's unseen outcomes go: scripts/engine-score reads them as the split it checks targets on. */
const UNSEEN_PATH = "scripts/engine-score/calibration-unseen.json";
const unseen: Partial<Record<Judge, [number, number, number][]>> = {};
const MAP_FOLDS = 5;

/** Each outcome's probability mapped by a map fitted on the other folds (outcomes taken in turn). */
function outOfFold(outcomes: Outcome[]): number[] {
  const out = new Array<number>(outcomes.length);
  for (let k = 0; k < MAP_FOLDS; k++) {
    const map = fitCalibration(outcomes.filter((_, i) => i % MAP_FOLDS !== k));
    outcomes.forEach((o, i) => {
      if (i % MAP_FOLDS === k) out[i] = applyCalibration(map, o.p);
    });
  }
  return out;
}

const belief = (pTrue: number, actual: boolean): Outcome => ({
  p: pTrue >= 0.5 ? pTrue : 1 - pTrue,
  label: pTrue >= 0.5 === actual ? 1 : 0,
});

/** Out-of-fold judgments of every labelled message and note, as (probability of the answer, right). */
function crossFitted(held: Set<string>): Record<Judge, Outcome[]> {
  const out: Record<Judge, Outcome[]> = {
    intent: [],
    urgency: [],
    reply: [],
    escalating: [],
    disclosure: [],
  };
  const messages = labelledCases<LabelledMessage>("messages");
  for (let k = 0; k < FOLDS; k++) {
    const t = Date.now();
    const m = fitTriage(messages.filter((_, i) => i % FOLDS !== k));
    const models = {
      intent: loadModel(m.intent),
      urgency: loadModel(m.urgency),
      reply: loadModel(m.reply),
      escalating: loadModel(m.escalating),
    };
    for (const c of messages.filter((_, i) => i % FOLDS === k)) {
      if (held.has(c.id)) continue;
      const j = judgeTriageWith(models, "cv@0", triageInputOf(c));
      out.intent.push({ p: j.intentProbability, label: j.intent === c.intent ? 1 : 0 });
      out.urgency.push({ p: j.urgencyProbability, label: j.urgency === c.urgency ? 1 : 0 });
      out.reply.push(belief(j.expectsReply, c.expects_reply));
      out.escalating.push(belief(j.escalating, c.escalating));
    }
    console.log(`triage fold ${k + 1} of ${FOLDS}: ${Math.round((Date.now() - t) / 1000)} s`);
  }
  const notes = labelledCases<LabelledNote>("condition-notes");
  for (let k = 0; k < FOLDS; k++) {
    const model = loadModel(fitDisclosure(notes.filter((_, i) => i % FOLDS !== k)));
    for (const c of notes.filter((_, i) => i % FOLDS === k)) {
      if (held.has(c.id)) continue;
      const j = judgeDisclosureWith(model, "cv@0", c.notes);
      out.disclosure.push({ p: j.probability, label: j.disclosure === c.disclosure ? 1 : 0 });
    }
  }
  return out;
}

const current = JSON.parse(readFileSync(PATH, "utf8")) as Record<string, unknown>;
const next: Record<string, unknown> = {
  ...current,
  about:
    "Calibration maps of the engine's probabilities (lib/engine/calibration.ts): breakpoints [raw, calibrated]. Fitted by npx tsx scripts/engine-train/calibrate.ts; what each was fitted on is its fittedOn.",
};

addGalleries(readGalleries());
const matcher = fitGlobalMatchCalibrations();
next.matcher = matcher.matcher;
next.matcherPrior = matcher.matcherPrior;
console.log(`matcher: ${matcher.matcher.points.length} breakpoints on ${matcher.matcher.outcomes} outcomes`);

if (!process.argv.includes("--matcher")) {
  const held = heldOutIds();
  const outcomes: Record<Judge, Outcome[]> =
    process.argv.includes("--cached") && existsSync(CACHE)
      ? JSON.parse(readFileSync(CACHE, "utf8"))
      : crossFitted(held);
  mkdirSync(".data", { recursive: true });
  writeFileSync(CACHE, JSON.stringify(outcomes));
  const messages = labelledCases<LabelledMessage>("messages").filter((c) => !held.has(c.id));
  const notes = labelledCases<LabelledNote>("condition-notes").filter((c) => !held.has(c.id));
  const words: Record<Judge, string> = {
    intent: "intent",
    urgency: "urgency",
    reply: "expects reply",
    escalating: "escalating",
    disclosure: "disclosure",
  };
  for (const judge of Object.keys(outcomes) as Judge[]) {
    const cases = judge === "disclosure" ? notes : messages;
    const map: CalibrationMap = fitCalibration(
      outcomes[judge],
      undefined,
      `${cases.length} labelled ${judge === "disclosure" ? "condition notes" : "messages"} (every file but the score's held-out tail), each ${words[judge]} judged by weights fitted on the other two thirds (${FOLDS}-fold cross-fit); labelled set ${fingerprint(cases).slice(0, 8)}`,
    );
    // The map's own held-out check: each outcome mapped by a map fitted on the other folds. A map ships only when
    // that lowers the expected calibration error: where the cross-fitted probabilities are already calibrated, a
    // map of a few breakpoints only adds its own error.
    const before = expectedCalibrationError(outcomes[judge]);
    const mapped = outOfFold(outcomes[judge]);
    const after = expectedCalibrationError(
      mapped.map((o, i) => ({ p: o, label: outcomes[judge][i]!.label })),
    );
    const r3 = (x: number) => x.toFixed(3);
    unseen[judge] = outcomes[judge].map((o, i) => [
      Number((after < before ? mapped[i]! : o.p).toFixed(3)),
      Number(o.p.toFixed(3)),
      o.label,
    ]);
    next[judge] =
      after < before
        ? { ...map, fittedOn: `${map.fittedOn}; ECE on unseen cases ${r3(before)} → ${r3(after)}` }
        : {
            ...IDENTITY_CALIBRATION,
            outcomes: map.outcomes,
            fittedOn: `${map.fittedOn}; no map: the ECE on unseen cases ${r3(before)} was not lowered by one (${r3(after)})`,
          };
    console.log(
      `${judge}: ECE ${r3(before)} → ${r3(after)}, shipped ${(next[judge] as CalibrationMap).method}`,
    );
  }
}

writeFileSync(PATH, `${JSON.stringify(next, null, 1)}\n`);
if (Object.keys(unseen).length > 0) {
  // One line per judge: [calibrated, raw, right] per case, read by `npm run engine:score` (split "unseen").
  const lines = Object.entries(unseen).map(
    ([judge, rows]) => `  ${JSON.stringify(judge)}: ${JSON.stringify(rows)}`,
  );
  writeFileSync(UNSEEN_PATH, `{\n${lines.join(",\n")}\n}\n`);
}
// In the repository's JSON style, so `biome check .` passes on the file as written.
execFileSync("npx", ["biome", "format", "--write", PATH], { stdio: "ignore" });
console.log(`Written: ${PATH}`);
