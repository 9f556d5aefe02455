import { httpDb } from "../../db/client";
import { sweepStale } from "../../db/queries/engine";
import { type EngineMessage, MAX_ATTEMPTS } from "../../lib/engine-queue";
import type { Env } from "../../lib/env";
import { sendMessages } from "./enqueue";

/**
 * The sweep, as the cron Worker runs it each tick: the database is the truth and the Queue only transport, so
 * subjects stale for longer than SWEEP_AFTER_SECONDS with no live lease — a send that failed, a message lost, a
 * consumer that died mid-batch and whose lease lapsed — are sent to the engine again. Bounded per tick; a subject
 * that failed MAX_ATTEMPTS times in a row stays stale with its last_error, out of the sweep, until a write marks it.
 * It imports nothing of the judges: the fits that read the engine's models run in the engine Worker's own
 * scheduled handler (services/engine/fit.ts), and the cron Worker's bundle carries no language model.
 */

/** How long a subject stays stale before the sweep sends it again (a write's own send normally lands in ~1 s). */
export const SWEEP_AFTER_SECONDS = 30;
/** Subjects sent per tick at most (a tick is a minute deployed, 10 s under npm start). */
export const SWEEP_LIMIT = 2000;
/** Failed claims in a row after which the sweep leaves a subject alone (lib/engine-queue.ts). */
export { MAX_ATTEMPTS };

export type SweepEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT" | "ENGINE_QUEUE">;

export interface SweepResult {
  /** Stale subjects found and sent again. */
  swept: number;
}

export async function sweepEngine(
  env: SweepEnv,
  options: {
    olderThanSeconds?: number;
    limit?: number;
    galleryId?: string;
    send?: (m: EngineMessage[]) => Promise<void>;
  } = {},
): Promise<SweepResult> {
  const queue = env.ENGINE_QUEUE;
  const send = options.send ?? (queue ? (messages: EngineMessage[]) => sendMessages(queue, messages) : null);
  // Without a Queue there is nowhere to send: the subjects are left untouched rather than marked as sent.
  if (!send) return { swept: 0 };
  const due = await sweepStale(httpDb(env), {
    olderThanSeconds: options.olderThanSeconds ?? SWEEP_AFTER_SECONDS,
    limit: options.limit ?? SWEEP_LIMIT,
    maxAttempts: MAX_ATTEMPTS,
    galleryId: options.galleryId,
  });
  if (due.length > 0)
    await send(due.map((d) => ({ gallery_id: d.gallery_id, kind: d.kind, subject_id: d.subject_id })));
  return { swept: due.length };
}
