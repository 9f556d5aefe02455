import { httpDb } from "../../db/client";
import { publicSurfaceChanges } from "../../db/queries/edge-cache";
import type { Env } from "../../lib/env";
import { GENERATION_TTL_SECONDS, generationKey, INVALIDATION_WINDOW_SECONDS } from "../../lib/public-surface";

export type InvalidationEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT" | "EDGE_KV">;

/** Galleries renewed per pass at most (KV operations per invocation are limited); the rest wait a minute. */
export const INVALIDATION_LIMIT = 400;

export interface InvalidationResult {
  /** Galleries with public-surface events in the window. */
  changed: number;
  /** Of those, the galleries whose generation moved in this pass. */
  renewed: number;
}

/**
 * The invalidation pass of the public edge cache, run by the cron Worker each minute: every gallery whose outbox
 * holds an event changing its public surface (lib/public-surface.ts) in the last INVALIDATION_WINDOW_SECONDS gets
 * the id of its newest such event as its generation. The edge-cache keys of its public reads hold the generation,
 * so a new one makes every data center build them afresh. Stateless and idempotent: the same events give the same
 * generation, so a repeated or overlapping pass writes nothing new, and generations only move forward.
 */
export async function renewPublicGenerations(env: InvalidationEnv, now?: Date): Promise<InvalidationResult> {
  const changes = await publicSurfaceChanges(
    httpDb(env),
    INVALIDATION_WINDOW_SECONDS,
    INVALIDATION_LIMIT,
    now,
  );
  const moved = await Promise.all(
    changes.map(async ({ galleryId, generation }) => {
      const key = generationKey(galleryId);
      if ((await env.EDGE_KV.get(key)) === generation) return false;
      await env.EDGE_KV.put(key, generation, { expirationTtl: GENERATION_TTL_SECONDS });
      return true;
    }),
  );
  return { changed: changes.length, renewed: moved.filter(Boolean).length };
}
