import { sha256Hex } from "./crypto";
import type { Env } from "./env";
import { ApiError } from "./problem";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** Keys and their stored responses are kept 14 days. */
export const IDEMPOTENCY_TTL_SECONDS = 14 * 24 * 60 * 60;

export interface IdempotencyClaim {
  key: string;
  /** Fingerprint of the request: method, path, query and canonical JSON body. */
  requestHash: string;
  method: string;
  path: string;
  /** Where the finished response is kept for replays (cacheKey of the key's SHA-256), computed once per request. */
  cacheKey: string;
}

export interface StoredResponse {
  requestHash: string;
  status: number;
  /** The response body as sent: JSON text (null for an empty body). */
  body: string | null;
}

export function cacheKey(galleryId: string, keyHash: string): string {
  return `idem:${galleryId}:${keyHash}`;
}

/** The replay's cache key of an Idempotency-Key as sent. */
export async function idempotencyCacheKey(galleryId: string, key: string): Promise<string> {
  return cacheKey(galleryId, await sha256Hex(key));
}

export function reusedKey(): ApiError {
  return new ApiError(
    "idempotency_key_reused",
    "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
    [{ location: "header", field: IDEMPOTENCY_HEADER, message: "was used with a different request body" }],
  );
}

/** Keeps the finished response at the edge so the next retry needs no database round trip. */
export async function cacheResponse(
  env: Pick<Env, "EDGE_KV">,
  claim: IdempotencyClaim,
  stored: StoredResponse,
): Promise<void> {
  await env.EDGE_KV.put(claim.cacheKey, JSON.stringify(stored), {
    expirationTtl: IDEMPOTENCY_TTL_SECONDS,
  });
}
