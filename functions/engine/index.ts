import { lazy } from "../../lib/engine/lazy";
import { ENGINE_DEAD_LETTERS } from "../../lib/engine-queue";
import type { EngineEnv } from "../../services/engine/consume";
import { recordDeadLetterBatch } from "../../services/engine-failures/record";

/**
 * The judging and the fits, imported on their first use: they bring the language model (wink), the language
 * detector (eld), the shipped learned models and the vocabularies, several megabytes of data that V8 would
 * otherwise build at import, in the Worker's global scope, on every cold start (the 1 s startup limit). Imported
 * here, the dead-letter consumer's cold start never loads them, and the first batch or scheduled run of an isolate
 * loads them once (docs/decisions.md, "Bundles and startup, per Worker"). A failed import is not kept: the next
 * call tries again.
 */
const judging = retried(() => import("../../services/engine/consume"));
const fitting = retried(() => import("../../services/engine/fit"));

function retried<T>(load: () => Promise<T>): () => Promise<T> {
  let loading = lazy(load);
  return () =>
    loading().catch((error: unknown) => {
      loading = lazy(load);
      throw error;
    });
}

/**
 * The engine Worker (wrangler.engine.toml): the consumer of the `gallery-engine` Queue. It judges stale subjects
 * off the request path — readiness and disclosure of artworks, triage of inbox threads, the rubric verdicts of
 * described_as lists, suggested show tags — and writes the judgments back (services/engine/consume.ts). A bundle
 * of its own, so the judges and their language model add nothing to the API Worker's size or CPU. It also
 * consumes the engine's dead-letter queue, `gallery-engine-dlq`, recording what reached it for the operator's read
 * (services/engine-failures/record.ts). Each minute (its cron trigger) it fits what the judges read from each
 * gallery's own outcomes: the match model of a gallery that is due and the triage adjustments of galleries with new
 * corrections (services/engine/fit.ts). The fits run here, beside the models they read, rather than in the cron
 * Worker, whose bundle then carries no language model (docs/decisions.md, "Bundles and startup, per Worker"). It
 * serves no HTTP.
 */
export default {
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(fitting().then(({ runFits }) => runFits(env)));
  },
  async queue(batch, env) {
    if (batch.queue === ENGINE_DEAD_LETTERS) {
      await recordDeadLetterBatch(batch, env);
      return;
    }
    const { handleEngineBatch } = await judging();
    const result = await handleEngineBatch(batch, env);
    if (result.judged > 0 || result.failed > 0 || result.retried > 0)
      console.log(JSON.stringify({ engine_batch: result }));
  },
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler<EngineEnv>;
