/**
 * `npm run engine:score`: the engine scored on the project's labelled set (test/engine/labelled/). Prints each
 * judge's figures against its target, the Brier score of every probability (beside that of one constant
 * confidence) and a reliability table; writes the same as docs/engine-score.md and the reliability plot as
 * docs/engine-reliability.svg. Exits 1 when a figure misses its target.
 */
import { writeFileSync } from "node:fs";
import {
  BAND_MIN_PAIRS,
  BAND_TOLERANCE,
  expectedCalibrationError,
  type Outcome,
  reliabilityBands,
} from "../../lib/engine/calibration";
import { scoreDisclosure } from "./disclosure";
import { addGalleries, galleries, scoreMatcher } from "./matcher";
import { readGalleries } from "./matcher-galleries";
import { roundsMarkdown } from "./rounds";
import { scoreRubrics } from "./rubric";
import { scoreTriage } from "./triage";
import type { ScoreSection } from "./types";

const BINS = 10;
/** The calibration targets on a section's target split (the brief of issue 31). */
const ECE_TARGET = 0.05;

interface Calibration {
  brier: number;
  /**
   * The Brier score of the same answers given with one constant confidence, the share right: how much the
   * judge's own probabilities tell right answers from wrong ones beyond that (lower is better; information only).
   */
  constantBrier: number;
  bins: { from: number; to: number; count: number; meanP: number; observed: number }[];
}

function calibrate(pairs: ScoreSection["calibration"]): Calibration {
  const n = pairs.length || 1;
  const brier = pairs.reduce((sum, { p, outcome }) => sum + (p - outcome) ** 2, 0) / n;
  const rate = pairs.reduce((sum, { outcome }) => sum + outcome, 0) / n;
  const bins = Array.from({ length: BINS }, (_, i) => {
    const from = i / BINS;
    const to = (i + 1) / BINS;
    const inBin = pairs.filter(({ p }) => (p >= from && p < to) || (i === BINS - 1 && p === 1));
    const count = inBin.length;
    return {
      from,
      to,
      count,
      meanP: count ? inBin.reduce((s, x) => s + x.p, 0) / count : 0,
      observed: count ? inBin.reduce((s, x) => s + x.outcome, 0) / count : 0,
    };
  });
  return { brier, constantBrier: rate * (1 - rate), bins };
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(3));

interface SplitCalibration {
  split: string;
  pairs: number;
  ece: number;
  rawEce: number | null;
  bands: ReturnType<typeof reliabilityBands>;
  /** Bands from 0.5 up with fewer than BAND_MIN_PAIRS pairs (empty ones included). */
  thin: number;
  /** Bands with BAND_MIN_PAIRS pairs or more whose observed rate is off by more than BAND_TOLERANCE. */
  off: number;
  /** Of those, the bands from 0.5 up (the target). */
  offHigh: number;
}

/** ECE and reliability bands of each split of a section ("all" when it has none), after and before calibration. */
function splitCalibrations(section: ScoreSection): SplitCalibration[] {
  const names = [...new Set(section.calibration.map((x) => x.split ?? "all"))];
  if (names.length > 1) names.unshift("all");
  const groups = names.map((split) => ({
    split,
    rows: section.calibration.filter((x) => split === "all" || (x.split ?? "all") === split),
  }));
  if (section.calibrationUnseen) groups.push({ split: "unseen", rows: section.calibrationUnseen });
  return groups.map(({ split, rows }) => {
    const pairs: Outcome[] = rows.map((x) => ({ p: x.p, label: x.outcome }));
    const raws = rows.every((x) => x.raw !== undefined)
      ? rows.map((x) => ({ p: x.raw!, label: x.outcome }))
      : null;
    const bands = reliabilityBands(pairs, BINS);
    const high = bands.filter((b) => b.from >= 0.5 - 1e-9);
    return {
      split,
      pairs: pairs.length,
      ece: expectedCalibrationError(pairs, BINS),
      rawEce: raws ? expectedCalibrationError(raws, BINS) : null,
      bands,
      thin: high.filter((b) => b.n < BAND_MIN_PAIRS).length,
      off: bands.filter((b) => b.off).length,
      offHigh: high.filter((b) => b.off).length,
    };
  });
}

/** The calibration figures of a section's target split, as metrics with targets. */
function calibrationMetrics(section: ScoreSection, splits: SplitCalibration[]): ScoreSection["metrics"] {
  if (!section.calibrationTarget) return [];
  const s = splits.find((x) => x.split === section.calibrationTarget) ?? splits[0]!;
  const where = s.split === "all" ? "" : ` (${s.split})`;
  return [
    { name: `ECE, ${BINS} equal-width bands${where}`, value: s.ece, target: { op: "<=", value: ECE_TARGET } },
    {
      name: `bands from 0.5 up with ≥ ${BAND_MIN_PAIRS} pairs off by more than ${BAND_TOLERANCE}${where}`,
      value: s.offHigh,
      target: { op: "<=", value: 0 },
    },
    { name: `bands from 0.5 up with fewer than ${BAND_MIN_PAIRS} pairs${where}`, value: s.thin },
  ];
}

function calibrationMarkdown(section: ScoreSection, splits: SplitCalibration[], outcome: string): string {
  const lines = [
    `Calibration (lib/engine/calibration.ts): expected calibration error over ${BINS} equal-width bands, after the calibration map and before it.${
      section.calibrationFittedOn ? ` The map was fitted on ${section.calibrationFittedOn}.` : ""
    }`,
    "",
    "| split | pairs | ECE | ECE before calibration | bands ≥ 0.5 under 20 pairs | bands off (≥ 20 pairs, > 0.08) |",
    "|---|---|---|---|---|---|",
    ...splits.map(
      (s) =>
        `| ${s.split} | ${s.pairs} | ${s.ece.toFixed(3)} | ${s.rawEce === null ? "" : s.rawEce.toFixed(3)} | ${s.thin} | ${s.off} |`,
    ),
  ];
  for (const s of splits) {
    if (splits.length > 1 && s.split === "all") continue;
    lines.push(
      "",
      `Reliability${s.split === "all" ? "" : ` (${s.split})`}, after calibration:`,
      "",
      `| band | pairs | mean p | ${outcome} | gap | |`,
      "|---|---|---|---|---|---|",
    );
    for (const b of s.bands.filter((x) => x.n > 0))
      lines.push(
        `| ${b.from.toFixed(1)}–${b.to.toFixed(1)} | ${b.n} | ${fmt(b.meanP)} | ${fmt(b.observed)} | ${(b.observed - b.meanP).toFixed(3)} | ${
          b.off ? "OFF" : b.n < BAND_MIN_PAIRS ? "few pairs" : ""
        } |`,
      );
  }
  return lines.join("\n");
}

function meets(metric: ScoreSection["metrics"][number]): boolean | null {
  if (!metric.target) return null;
  return metric.target.op === ">="
    ? metric.value >= metric.target.value
    : metric.value <= metric.target.value;
}

function sectionMarkdown(section: ScoreSection, cal: Calibration, splits: SplitCalibration[]): string {
  const words = section.wording ?? {
    cases: "labelled cases",
    constant: "Brier score of one constant confidence (the share right), for comparison",
    reliability: "Reliability (probability the judge gave its answer → how often that answer was right):",
    outcome: "right",
  };
  const lines = [`## ${section.title}`, "", `${section.cases} ${words.cases}.`, ""];
  lines.push("| figure | value | target | |", "|---|---|---|---|");
  for (const metric of section.metrics) {
    const ok = meets(metric);
    const target = metric.target ? `${metric.target.op} ${metric.target.value}` : "";
    lines.push(
      `| ${metric.name} | ${fmt(metric.value)} | ${target} | ${ok === null ? "" : ok ? "met" : "MISSED"} |`,
    );
  }
  lines.push(`| Brier score | ${fmt(cal.brier)} | | |`);
  lines.push(`| ${words.constant} | ${fmt(cal.constantBrier)} | | |`);
  lines.push("", words.reliability, "");
  lines.push(`| p | cases | mean p | ${words.outcome} |`, "|---|---|---|---|");
  for (const bin of cal.bins.filter((b) => b.count > 0))
    lines.push(
      `| ${bin.from.toFixed(1)}–${bin.to.toFixed(1)} | ${bin.count} | ${fmt(bin.meanP)} | ${fmt(bin.observed)} |`,
    );
  lines.push("", calibrationMarkdown(section, splits, words.outcome));
  if (section.detail) lines.push("", section.detail);
  return lines.join("\n");
}

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];

/** One plot: each judge's reliability curve (bins with cases) against the diagonal of perfect calibration. */
function reliabilitySvg(
  curves: { title: string; cal: Calibration }[],
  heading = "Engine reliability",
  yLabel = "share right",
): string {
  const size = 420;
  const pad = 50;
  const inner = size - 2 * pad;
  const x = (v: number) => pad + v * inner;
  const y = (v: number) => size - pad - v * inner;
  const legend = Math.max(220, ...curves.map(({ title }) => 40 + (title.length + 14) * 6.5));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size + legend}" height="${size}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#999" stroke-dasharray="4 4"/>`,
    `<rect x="${pad}" y="${pad}" width="${inner}" height="${inner}" fill="none" stroke="#333"/>`,
  ];
  for (let i = 0; i <= 10; i += 2) {
    const v = i / 10;
    parts.push(`<text x="${x(v)}" y="${size - pad + 16}" text-anchor="middle">${v.toFixed(1)}</text>`);
    parts.push(`<text x="${pad - 8}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(1)}</text>`);
  }
  parts.push(`<text x="${size / 2}" y="${size - 10}" text-anchor="middle">probability given</text>`);
  parts.push(
    `<text x="14" y="${size / 2}" text-anchor="middle" transform="rotate(-90 14 ${size / 2})">${yLabel}</text>`,
  );
  parts.push(`<text x="${size / 2}" y="24" text-anchor="middle" font-size="14">${heading}</text>`);
  curves.forEach(({ title, cal }, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = cal.bins.filter((b) => b.count > 0);
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map((b) => `${x(b.meanP).toFixed(1)},${y(b.observed).toFixed(1)}`).join(" ")}"/>`,
    );
    for (const b of points)
      parts.push(
        `<circle cx="${x(b.meanP).toFixed(1)}" cy="${y(b.observed).toFixed(1)}" r="${Math.min(7, 2 + Math.sqrt(b.count) / 3).toFixed(1)}" fill="${colour}" fill-opacity="0.6"/>`,
      );
    parts.push(`<rect x="${size + 10}" y="${pad + i * 22 - 9}" width="12" height="12" fill="${colour}"/>`);
    parts.push(
      `<text x="${size + 28}" y="${pad + i * 22 + 1}">${title} (Brier ${cal.brier.toFixed(3)})</text>`,
    );
  });
  parts.push(
    `<text x="${size + 10}" y="${pad + curves.length * 22 + 14}" fill="#666">dot area: cases in the bin</text>`,
  );
  parts.push("</svg>");
  return parts.join("\n");
}

const sections: ScoreSection[] = [...scoreDisclosure(), ...scoreTriage(), ...scoreRubrics()];
// The matcher's probabilities are of a different thing (a contact wants a work, not an answer is right): its
// own plot, docs/matcher-reliability.svg. Its labelled pairs come from every generated gallery.
addGalleries(readGalleries());
const matcherSections = scoreMatcher();
const withCalibration = (section: ScoreSection) => {
  const splits = splitCalibrations(section);
  section.metrics.push(...calibrationMetrics(section, splits));
  return { section, cal: calibrate(section.calibration), splits };
};
const judges = sections.map(withCalibration);
const matchers = matcherSections.map(withCalibration);
const scored = [...judges, ...matchers];
const missed = scored.flatMap(({ section }) =>
  section.metrics.filter((m) => meets(m) === false).map((m) => `${section.title}: ${m.name}`),
);

const markdown = [
  "# Engine score",
  "Made by `npm run engine:score` from the labelled set in test/engine/labelled/ (do not edit by hand).",
  "![Reliability of the engine's probabilities](engine-reliability.svg)",
  "![Reliability of the engine's probabilities on the held-out cases](engine-reliability-held-out.svg)",
  "![Reliability of the engine's probabilities on cases neither the weights nor the calibration saw](engine-reliability-unseen.svg)",
  ...judges.map(({ section, cal, splits }) => sectionMarkdown(section, cal, splits)),
  roundsMarkdown(),
  [
    "# The matcher",
    "",
    `Recommendation matches (lib/engine/matcher.ts) scored on test/engine/labelled/collectors.json and, for the probabilities, ${galleries().length - 1} further generated galleries (collectors-g1.json …, each 1,000 works of its own and 200 collectors made by the same procedure from a seeded stream of its own; the ranking figures are of collectors.json's collectors alone, as measured since the matcher was built). collectors.json: 1,000 works by 48 artists and 222 collectors, 200 of them generated by scripts/engine-score/matcher-collectors.ts (seeded) from explicit taste profiles written apart from the judge (a purchase is the available work of highest utility under the collector's taste plus Gumbel noise, sometimes drawn at random; views and inquiries from the same taste with more noise; profile facts written from the taste in a gallery's words, with negations), and 22 written by hand in test/engine/labelled/collectors-hand.json. Each collector's last purchase is hidden; the matcher ranks every work available at that moment (about 250–370) and the figures ask where the hidden one lands, beside two baselines. The model is fitted on the train collectors' outcomes; Brier and reliability are of the match probability on the scored collectors' labelled outcomes (positives: purchases, inquiries, good matches; negatives: not interested and three works sampled from the inventory per positive). For scale: the generator's own taste, noise-free, ranks the hidden work in the top 10 for 35% of collectors.json's generated collectors, 32% over every gallery (printed by the generator; the rest of a hit comes from a view or an inquiry before the purchase). The model is fitted on the train split of every gallery; its calibration map on the same split's outcomes, cross-fitted (each judged by a model fitted on the other four fifths of the split's collectors).`,
    "",
    "![Reliability of the match probability](matcher-reliability.svg)",
    "",
    "![Matcher reliability, tune split, after and before calibration](matcher-reliability-tune.svg) ![Matcher reliability, held out, after and before calibration](matcher-reliability-held-out.svg)",
  ].join("\n"),
  ...matchers.map(({ section, cal, splits }) => sectionMarkdown(section, cal, splits)),
  "",
].join("\n\n");

writeFileSync("docs/engine-score.md", markdown);
writeFileSync(
  "docs/engine-reliability.svg",
  reliabilitySvg(judges.map(({ section, cal }) => ({ title: section.title, cal }))),
);
writeFileSync(
  "docs/matcher-reliability.svg",
  reliabilitySvg(
    matchers.map(({ section, cal }) => ({ title: section.title, cal })),
    "Matcher reliability",
    "share positive",
  ),
);
// One plot per split: the matcher's tune and held-out pairs after and before calibration; each judge's held-out
// cases after calibration.
const rowsOf = (section: ScoreSection, split?: string, raw = false) =>
  section.calibration
    .filter((x) => !split || x.split === split)
    .map((x) => ({ p: raw ? (x.raw ?? x.p) : x.p, outcome: x.outcome }));
for (const [file, title] of [
  ["docs/matcher-reliability-tune.svg", "Matcher (tune split)"],
  ["docs/matcher-reliability-held-out.svg", "Matcher (held out)"],
] as const) {
  const found = matchers.find(({ section }) => section.title === title);
  if (!found) continue;
  writeFileSync(
    file,
    reliabilitySvg(
      [
        { title: "calibrated", cal: calibrate(rowsOf(found.section)) },
        { title: "before calibration", cal: calibrate(rowsOf(found.section, undefined, true)) },
      ],
      `${title}: reliability`,
      "share positive",
    ),
  );
}
writeFileSync(
  "docs/engine-reliability-held-out.svg",
  reliabilitySvg(
    judges
      .filter(({ section }) => section.calibration.some((x) => x.split === "held out"))
      .map(({ section }) => ({ title: section.title, cal: calibrate(rowsOf(section, "held out")) })),
    "Engine reliability, held-out cases",
  ),
);
writeFileSync(
  "docs/engine-reliability-unseen.svg",
  reliabilitySvg(
    judges
      .filter(({ section }) => section.calibrationUnseen)
      .map(({ section }) => ({
        title: section.title,
        cal: calibrate((section.calibrationUnseen ?? []).map((x) => ({ p: x.p, outcome: x.outcome }))),
      })),
    "Engine reliability, cases unseen by weights and map",
  ),
);
console.log(markdown);
if (missed.length > 0) {
  console.error(`\nMissed targets:\n${missed.map((m) => `  ${m}`).join("\n")}`);
  process.exitCode = 1;
} else
  console.log(
    "\nEvery target met. Written: docs/engine-score.md and the reliability plots (docs/*-reliability*.svg)",
  );
