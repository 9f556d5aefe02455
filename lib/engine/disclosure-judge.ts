/**
 * The disclosure judge the engine runs: the rules and the shipped learned weights (lib/engine/models/, fitted by
 * `npm run engine:train`); how they combine is lib/engine/disclosure-learned.ts.
 */

import type { CalibrationMap } from "./calibration";
import { DISCLOSURE_DENSE } from "./disclosure";
import { judgeDisclosureWith } from "./disclosure-learned";
import { lazy } from "./lazy";
import { type LinearModelData, loadModel } from "./learned";
import calibrationData from "./models/calibration.json";
import disclosureData from "./models/disclosure.json";
import type { DisclosureJudgment, ModelName } from "./types";

/** The shipped model, decoded on the first judgment and kept for the isolate's life (lib/engine/lazy.ts). */
const shipped = lazy(() => {
  const model = loadModel(disclosureData as LinearModelData);
  if (model.data.dense.join() !== DISCLOSURE_DENSE.join())
    throw new Error(
      "lib/engine/models/disclosure.json was fitted on other dense features: npm run engine:train",
    );
  return model;
});

/** The version every disclosure judgment names. */
export const DISCLOSURE_MODEL: ModelName = `disclosure-linear@${disclosureData.version}`;

/** Judges notes without the calibration of its probability: the score's "before calibration". */
export function judgeDisclosureUncalibrated(notes: string | null): DisclosureJudgment {
  return judgeDisclosureWith(shipped(), DISCLOSURE_MODEL, notes);
}

export function judgeDisclosure(notes: string | null): DisclosureJudgment {
  return judgeDisclosureWith(
    shipped(),
    DISCLOSURE_MODEL,
    notes,
    calibrationData.disclosure as CalibrationMap,
  );
}
