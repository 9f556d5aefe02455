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
    fitMatchModels(env)
      .then((fitted) => {
        if (fitted.length > 0) console.log(JSON.stringify({ match_models_fitted: fitted }));
        return fitted;
      })
      .catch((error) => {
        console.error(JSON.stringify({ match_model_fit: "failed", error: errorSummary(error) }));
        return null;
      }),
    fitTriageAdjustments(env)
      .then((fitted) => {
        if (fitted.length > 0) console.log(JSON.stringify({ triage_adjustments_fitted: fitted }));
        return fitted;
      })
      .catch((error) => {
        console.error(JSON.stringify({ triage_adjustment_fit: "failed", error: errorSummary(error) }));
        return null;
      }),
  ]);
  return { matchModels, triageAdjustments };
}
