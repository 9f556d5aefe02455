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
  /** Every probability the judge gave for its chosen value, with whether that value was right: Brier and reliability. */
  calibration: { p: number; outcome: 0 | 1 }[];
}
