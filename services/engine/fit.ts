import { errorSummary } from "../../lib/dependency-failure";
import type { Env } from "../../lib/env";
import { type FitResult, fitMatchModels } from "./fit-matches";
import { fitTriageAdjustments, type TriageFitResult } from "./fit-triage";

/**
 * The fits, as the engine Worker's scheduled handler runs them each tick (functions/engine/index.ts): the match
 * model of a gallery that is due (services/engine/fit-matches.ts: one gallery a tick, each at most once a day) and
 * the triage adjustment of galleries with new corrected intents (services/engine/fit-triage.ts: two a tick). Side
 * by side; a failed fit is logged and tried again next tick (null in the result), the other goes on. They run in
 * the engine Worker, which carries the language model and the engine's tables already, so that the cron Worker,
 * the webhook Queue's consumer, does not (docs/decisions.md, "Bundles and startup, per Worker").
 */

export type FitsEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">;

export interface FitsResult {
  /** The galleries whose match model was fitted; null when the fit failed. */
  matchModels: FitResult[] | null;
  /** The galleries whose triage adjustment was fitted; null when the fit failed. */
  triageAdjustments: TriageFitResult[] | null;
}

export async function runFits(env: FitsEnv): Promise<FitsResult> {
  const [matchModels, triageAdjustments] = await Promise.all([
    logged("match_models_fitted", "match_model_fit", fitMatchModels(env)),
    logged("triage_adjustments_fitted", "triage_adjustment_fit", fitTriageAdjustments(env)),
  ]);
  return { matchModels, triageAdjustments };
}

/** A fit's outcome, logged: what it fitted (when anything), or its failure, as null. */
async function logged<T>(fitted: string, failure: string, fit: Promise<T[]>): Promise<T[] | null> {
  try {
    const result = await fit;
    if (result.length > 0) console.log(JSON.stringify({ [fitted]: result }));
    return result;
  } catch (error) {
    console.error(JSON.stringify({ [failure]: "failed", error: errorSummary(error) }));
    return null;
  }
}
