import { httpDb } from "../../db/client";
import { recordDeadLetters } from "../../db/queries/engine-failures";
import { errorSummary } from "../../lib/dependency-failure";
import type { Env } from "../../lib/env";

/**
 * The dead-letter queues' consumer (`gallery-engine-dlq` in the engine Worker, `gallery-webhooks-dlq` in the cron
 * Worker): each message that exhausted its retries is recorded once, with its body and the Queue's attempts, for
 * the operator's read (GET /v1/gallery/engine/dead-letters), then acked. Nothing else happens to it: the subject
 * stays stale for the sweep, the ticket's deliveries stay pending for the next drain. A failed record retries the
 * batch (the dead-letter queue's own retries).
 */

export type DeadLetterEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">;

export async function recordDeadLetterBatch(
  batch: MessageBatch<unknown>,
  env: DeadLetterEnv,
): Promise<number> {
  const rows = batch.messages.map((m) => {
    const body = typeof m.body === "object" && m.body !== null ? m.body : { value: m.body ?? null };
    const galleryId = (body as { gallery_id?: unknown }).gallery_id;
    return {
      queue: batch.queue,
      message_id: m.id,
      gallery_id: typeof galleryId === "string" ? galleryId : null,
      body,
      attempts: m.attempts,
    };
  });
  try {
    await recordDeadLetters(httpDb(env), rows);
  } catch (error) {
    console.error(
      JSON.stringify({ dead_letters: "record failed", queue: batch.queue, error: errorSummary(error) }),
    );
    batch.retryAll();
    return 0;
  }
  for (const row of rows)
    console.error(JSON.stringify({ dead_letter: row.queue, id: row.message_id, attempts: row.attempts }));
  batch.ackAll();
  return rows.length;
}
