import type { Context, MiddlewareHandler } from "hono";
import { sha256Hex } from "../lib/crypto";
import type { AppEnv } from "../lib/env";
import {
  IDEMPOTENCY_HEADER,
  type IdempotencyClaim,
  REPLAYED_HEADER,
  cacheKey as replayCacheKey,
  reusedKey,
  type StoredResponse,
} from "../lib/idempotency";
import { canonicalJson } from "../lib/json";
import { ApiError } from "../lib/problem";
import { isDryRun } from "./dry-run";
import { type GalleryKey, readEdgeKv } from "./edge-reads";

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

const claims = new WeakMap<Request, IdempotencyClaim>();

/** Each request's Idempotency-Key hashed (the replay's cache key holds the hash), once per request. */
const keyHashes = new WeakMap<Request, Promise<string>>();

function keyHashOf(c: Context<AppEnv>, key: string): Promise<string> {
  let hash = keyHashes.get(c.req.raw);
  if (!hash) {
    hash = sha256Hex(key);
    keyHashes.set(c.req.raw, hash);
  }
  return hash;
}

/**
 * The replay an idempotent operation looks for, named for the authentication gate to read with the credential
 * (http/edge-reads.ts): none without a well-formed Idempotency-Key.
 */
export async function replayBesideCredential(c: Context<AppEnv>): Promise<GalleryKey | null> {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined || !KEY_SHAPE.test(key)) return null;
  const hash = await keyHashOf(c, key);
  return (galleryId) => replayCacheKey(galleryId, hash);
}

/** The claim for this request, when it carries an Idempotency-Key on an idempotent operation. */
export function claimOf(c: Context<AppEnv>): IdempotencyClaim | undefined {
  return claims.get(c.req.raw);
}

async function fingerprint(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const text = await c.req.text();
  let body = text;
  try {
    if (text !== "") body = canonicalJson(JSON.parse(text));
  } catch {
    // Not JSON: the validator rejects it later; the raw text still identifies the request.
  }
  return sha256Hex(`${c.req.method} ${url.pathname}?${url.searchParams.toString()}\n${body}`);
}

/** The stored response, sent again with `Idempotent-Replayed: true`. */
export function replay(stored: StoredResponse): Response {
  const body =
    stored.body === null || typeof stored.body === "string" ? stored.body : JSON.stringify(stored.body);
  return new Response(body, {
    status: stored.status,
    headers: { "content-type": "application/json", [REPLAYED_HEADER]: "true" },
  });
}

/**
 * Runs before the handler of an idempotent operation: validates the key, answers a replay from the edge cache
 * when the finished response is there (no database work), and otherwise records the claim for lib/write.ts,
 * which makes it durable in Postgres inside the write's own transaction. A dry run (http/dry-run.ts) makes
 * no claim and replays nothing: its key is only checked for shape.
 */
export function idempotency(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    if (!KEY_SHAPE.test(key)) {
      throw new ApiError("invalid_request", "Idempotency-Key must be 1 to 255 visible ASCII characters.", [
        {
          location: "header",
          field: IDEMPOTENCY_HEADER,
          message: "must be 1 to 255 visible ASCII characters",
        },
      ]);
    }
    if (isDryRun(c)) return next();
    const principal = c.get("principal");
    const requestHash = await fingerprint(c);
    const cacheKey = replayCacheKey(principal.galleryId, await keyHashOf(c, key));
    const text = await readEdgeKv(c, cacheKey);
    const cached = text === null ? null : (JSON.parse(text) as StoredResponse);
    if (cached) {
      if (cached.requestHash !== requestHash) throw reusedKey();
      return replay(cached);
    }
    claims.set(c.req.raw, {
      key,
      requestHash,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      cacheKey,
    });
    return next();
  };
}
