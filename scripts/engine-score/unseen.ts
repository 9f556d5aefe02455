import unseen from "./calibration-unseen.json";

/**
 * The cases no part of a judge saw, written by scripts/engine-train/calibrate.ts: every labelled message or note
 * but the held-out tail, each judged by weights fitted without it (a three-fold cross-fit) and mapped by a
 * calibration map fitted without it (five folds). The calibration targets are checked on these: the shipped
 * weights were fitted on every one of them, so the shipped judge's own figures on them would flatter it.
 */
export function unseenOutcomes(
  judge: "intent" | "urgency" | "reply" | "escalating" | "disclosure",
): { p: number; raw: number; outcome: 0 | 1 }[] {
  const rows = ((unseen as unknown as Record<string, number[][]>)[judge] ?? []) as number[][];
  return rows.map(([p = 0, raw = 0, label = 0]) => ({ p, raw, outcome: label === 1 ? 1 : 0 }));
}
