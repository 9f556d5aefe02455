import { httpDb } from "../../db/client";
import { type PurgeCounts, purgeBatch } from "../../db/queries/retention";
import type { Env } from "../../lib/env";

/**
 * The retention purge, as the cron Worker runs it each tick: domain events past EVENT_RETENTION_DAYS with their
 * webhook deliveries and attempts, idempotency keys past their 14 days, expired upload tokens. Batch after batch
 * until one comes back short (nothing more is due) or the tick's share of time or subrequests is spent, so a
 * backlog drains over a few ticks and the steady state is one short batch a tick.
 */

/** The tick's share of wall time; a batch that would end past it is left to the next tick. */
export const DEFAULT_BUDGET_MS = 20_000;
/**
 * Batches per tick at most: each is one subrequest (a round trip to the database), and the tick's other work
 * shares the invocation's subrequest limit.
 */
export const DEFAULT_MAX_BATCHES = 10;

export type RetentionEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">;

export interface PurgeResult extends PurgeCounts {
  batches: number;
  /** The last batch was full: more is due than this tick purged. */
  more: boolean;
  elapsedMs: number;
}

export async function purgeExpired(
  env: RetentionEnv,
  opts: { now?: Date; galleryId?: string; budgetMs?: number; maxBatches?: number } = {},
): Promise<PurgeResult> {
  const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  const maxBatches = opts.maxBatches ?? DEFAULT_MAX_BATCHES;
  const db = httpDb(env);
  const started = Date.now();
  const result: PurgeResult = {
    events: 0,
    deliveries: 0,
    attempts: 0,
    idempotencyKeys: 0,
    uploadTokens: 0,
    batches: 0,
    more: false,
    elapsedMs: 0,
  };
  let slowest = 0;
  for (;;) {
    const batchStarted = Date.now();
    const batch = await purgeBatch(db, { now: opts.now, galleryId: opts.galleryId });
    slowest = Math.max(slowest, Date.now() - batchStarted);
    result.events += batch.events;
    result.deliveries += batch.deliveries;
    result.attempts += batch.attempts;
    result.idempotencyKeys += batch.idempotencyKeys;
    result.uploadTokens += batch.uploadTokens;
    result.batches += 1;
    result.more = batch.full;
    // Another batch only when this one was full and one as slow as the slowest yet still ends within the budget.
    if (!batch.full || result.batches >= maxBatches || Date.now() - started + slowest > budgetMs) break;
  }
  result.elapsedMs = Date.now() - started;
  return result;
}
