/** One judge's part of `npm run engine:score`: its figures against targets and every probability it gave. */
export interface ScoreSection {
  /** "Disclosure", "Intent", "Urgency", … */
  title: string;
  /** How many labelled cases were scored. */
  cases: number;
  metrics: { name: string; value: number; target?: { op: ">=" | "<="; value: number } }[];
  /** Extra markdown (a confusion matrix, the misjudged cases) printed under the figures. */
  detail?: string;
  /**
   * Wording for a judge whose probabilities are of something else than "the answer is right" (the matcher's:
   * the contact wants the work): what the cases are, what the constant is, what the outcome is.
   */
  wording?: { cases: string; constant: string; reliability: string; outcome: string };
  /**
   * Every probability the judge gave for its chosen value, with whether that value was right: Brier and
   * reliability. `raw`: the same before calibration (lib/engine/calibration.ts); `split`: which split the case is
   * in, when the section holds more than one ("development", "held out").
   */
  calibration: { p: number; outcome: 0 | 1; raw?: number; split?: string }[];
  /**
   * The split whose calibration has targets (ECE ≤ 0.05, every band from 0.5 up with 20 pairs or more within
   * 0.08 of its mean probability); all the section's pairs when it has no splits.
   */
  calibrationTarget?: string;
  /**
   * Outcomes neither the weights nor the calibration map saw (scripts/engine-train/calibrate.ts: each case judged
   * by weights fitted without it, then mapped by a map fitted without it): the split "unseen", kept apart from
   * "all" (they are judgments of other weights than the shipped ones).
   */
  calibrationUnseen?: { p: number; raw: number; outcome: 0 | 1 }[];
  /** What the calibration of this judge was fitted on (lib/engine/models/calibration.json `fittedOn`). */
  calibrationFittedOn?: string;
}
