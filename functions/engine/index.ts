import { ENGINE_DEAD_LETTERS } from "../../lib/engine-queue";
import { type EngineEnv, handleEngineBatch } from "../../services/engine/consume";
import { recordDeadLetterBatch } from "../../services/engine-failures/record";

/**
 * The engine Worker (wrangler.engine.toml): the consumer of the `gallery-engine` Queue. It judges stale subjects
 * off the request path — readiness and disclosure of artworks, triage of inbox threads, the rubric verdicts of
 * described_as lists, suggested show tags — and writes the judgments back (services/engine/consume.ts). A bundle
 * of its own, so the judges and their language model add nothing to the API Worker's size or CPU. It also
 * consumes the engine's dead-letter queue, `gallery-engine-dlq`, recording what reached it for the operator's read
 * (services/engine-failures/record.ts). It serves no HTTP.
 */
export default {
  async queue(batch, env) {
    if (batch.queue === ENGINE_DEAD_LETTERS) {
      await recordDeadLetterBatch(batch, env);
      return;
    }
    const result = await handleEngineBatch(batch, env);
    if (result.judged > 0 || result.failed > 0 || result.retried > 0)
      console.log(JSON.stringify({ engine_batch: result }));
  },
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler<EngineEnv>;
