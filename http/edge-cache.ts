import type { Context, MiddlewareHandler } from "hono";
import { base64url } from "../lib/crypto";
import type { AppEnv } from "../lib/env";
import { EDGE_TTL_SECONDS, generationKey, PUBLIC_MAX_AGE_SECONDS } from "../lib/public-surface";
import { type GalleryKey, readEdgeKv } from "./edge-reads";

/**
 * The edge read of the public surface. A public read is the same for every visitor of a gallery, so it is served
 * from the data center's cache (Workers Cache API) under a key made of the gallery, its public generation, the
 * path (which holds the slug) and the canonical query: a warm read costs one KV call (the credential and the
 * generation, read together: http/edge-reads.ts) and no database round trip; the isolate keeps its own copy of
 * what it answered lately in front of the Cache API, under the same key and bounds, which saves that lookup too. Entries carry a strong ETag (`If-None-Match` → 304 without a
 * body) and the window they are true in (a room's opens_at and closes_at): an entry is never served outside it,
 * so a closed room is never shown, and no cache is told to keep a read past it.
 *
 * Only 200s are kept: a 404 (private, unknown, closed or not yet open room) is answered by the database each
 * time, so a room opens on time. Invalidation is the generation's (lib/public-surface.ts): the cron Worker moves
 * it when an event changes what the gallery's public reads show; `caches.default` belongs to one data center and
 * a purge by key would not reach the others, a new key does.
 */

/** When a cached answer is true: from `opensAt` (inclusive) until `closesAt` (exclusive), UTC; null is unbounded. */
export interface Validity {
  opensAt: string | null;
  closesAt: string | null;
}

export interface EdgeCacheSpec {
  /** Browser and shared-cache reuse (`max-age`, `s-maxage`); PUBLIC_MAX_AGE_SECONDS by default. */
  maxAgeSeconds?: number;
  /** How long a data center keeps the answer at most; EDGE_TTL_SECONDS by default. */
  edgeTtlSeconds?: number;
  /** The window the 200 body is true in (a room's open and close times); unbounded when absent. */
  validity?: (body: unknown) => Validity;
}

type Timed = { opens_at?: string | null; closes_at?: string | null };

/** The window of a body that carries its own open and close times (a viewing room). */
export function ownWindow(body: unknown): Validity {
  const { opens_at = null, closes_at = null } = body as Timed;
  return { opensAt: opens_at, closesAt: closes_at };
}

/**
 * The window of a page of timed items (`{data: [...]}`): until the first of them closes. A room that opens
 * meanwhile joins the list when the entry ends (at most the edge TTL, then the browser's max-age).
 */
export function pageWindow(body: unknown): Validity {
  const closes = ((body as { data?: Timed[] }).data ?? [])
    .map((item) => item.closes_at ?? null)
    .filter((at): at is string => at !== null)
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  return { opensAt: null, closesAt: closes[0] ?? null };
}

/** Headers of a stored entry that are not sent: the window it may be served in. */
const VALID_FROM = "x-edge-valid-from";
const VALID_UNTIL = "x-edge-valid-until";
/** Not a real host: the Cache API wants URLs as keys, and nothing ever fetches these. */
const KEY_ORIGIN = "https://edge-cache.gallery-platform.invalid";

/**
 * Query parameters ordered by name (the values of one name keep their order, which may matter to the route), so
 * `?a=1&b=2` and `?b=2&a=1` share an entry.
 */
export function canonicalQuery(url: URL): string {
  if (url.search.length <= 1) return "";
  const pairs = [...url.searchParams];
  const order = [...new Set(pairs.map(([name]) => name))].sort();
  const sorted = order.flatMap((name) => pairs.filter(([n]) => n === name));
  return new URLSearchParams(sorted).toString();
}

/** A strong validator: the SHA-256 of the exact bytes sent, base64url, quoted. */
export async function strongEtag(body: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  return `"${base64url(new Uint8Array(digest))}"`;
}

/**
 * `If-None-Match` against the current ETag, by weak comparison (RFC 9110 §13.1.2): `*`, or any listed tag whose
 * opaque part equals ours, with or without `W/`.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const ours = etag.replace(/^W\//, "");
  return (header.match(/(W\/)?"[^"]*"/g) ?? []).some((tag) => tag.replace(/^W\//, "") === ours);
}

function millis(at: string | null): number | null {
  if (at === null) return null;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? null : ms;
}

/** The Cache-Control of a public read: reusable `maxAge` seconds, never past the end of its window. */
function cacheControl(maxAge: number, untilMs: number | null, now: number): string {
  const left = untilMs === null ? maxAge : Math.min(maxAge, Math.floor((untilMs - now) / 1000));
  const seconds = Math.max(0, left);
  return `public, max-age=${seconds}, s-maxage=${seconds}`;
}

/** What every public read answer carries, fresh or cached, 200 or 304. */
function answerHeaders(etag: string, control: string): Record<string, string> {
  // The answer depends on the token's gallery: a browser or shared cache keys it by the token too.
  return { ETag: etag, "Cache-Control": control, Vary: "Authorization" };
}

/**
 * A 304 when the request already holds this ETag, else the 200. The body is a function so that a cached entry's
 * is read (or its stream passed on) only when it is sent.
 */
function answer(
  c: Context<AppEnv>,
  body: () => BodyInit | null,
  etag: string,
  control: string,
  contentType: string,
): Response {
  const headers = answerHeaders(etag, control);
  if (noneMatch(c.req.header("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body(), { status: 200, headers: { ...headers, "Content-Type": contentType } });
}

/** The generation an edge-cached read looks up, named for the authentication gate to read with the credential. */
export function generationBesideCredential(c: Context<AppEnv>): GalleryKey | null {
  return c.req.method === "GET" || c.req.method === "HEAD" ? generationKey : null;
}

async function cacheKey(c: Context<AppEnv>): Promise<string> {
  const { galleryId } = c.get("principal");
  const generation = (await readEdgeKv(c, generationKey(galleryId))) ?? "0";
  const url = new URL(c.req.url);
  const query = canonicalQuery(url);
  return `${KEY_ORIGIN}/${galleryId}/${encodeURIComponent(generation)}${url.pathname}${query ? `?${query}` : ""}`;
}

/**
 * The isolate's own copy of the public reads it answered lately: a first level in front of the data center's cache.
 * An entry is held under the same key (gallery, generation, path, query), for no longer than the data center keeps
 * it and never outside its window, so what it answers is exactly what the Cache API would: a moved generation is a
 * new key here too. It saves the Cache API call of a warm read. Bounded by entries and bytes, least recently used
 * first out.
 */
interface Held {
  body: string;
  etag: string;
  contentType: string;
  /** The window the body is true in (ms; -Infinity and null unbounded). */
  from: number;
  until: number | null;
  /** When the data center's copy ends (ms): the entry's own TTL. */
  expires: number;
}

const held = new Map<string, Held>();
let heldBytes = 0;
const HELD_ENTRIES = 256;
const HELD_BYTES = 4 * 1024 * 1024;
/** A body larger than this is left to the Cache API alone. */
const HELD_BODY_BYTES = 256 * 1024;

function release(key: string): void {
  const entry = held.get(key);
  if (!entry) return;
  held.delete(key);
  heldBytes -= entry.body.length;
}

function hold(key: string, entry: Held): void {
  if (entry.body.length > HELD_BODY_BYTES) return;
  release(key);
  held.set(key, entry);
  heldBytes += entry.body.length;
  for (const oldest of held.keys()) {
    if (held.size <= HELD_ENTRIES && heldBytes <= HELD_BYTES) break;
    release(oldest);
  }
}

/** The held entry of `key` while the data center would still serve it (least recently used order kept). */
function heldEntry(key: string, now: number): Held | null {
  const entry = held.get(key);
  if (!entry) return null;
  if (now >= entry.expires) {
    release(key);
    return null;
  }
  held.delete(key);
  held.set(key, entry);
  return entry;
}

/** Whether a cached answer may be served now: inside its window. */
function inWindow(from: number, until: number | null, now: number): boolean {
  return now >= from && (until === null || now < until);
}

/** The headers that carry a stored entry's window and its end (not sent). */
const EXPIRES = "x-edge-expires";

/**
 * The answer from the data center's entry under `key`, inside its window, which the isolate then holds for what is
 * left of the entry's life; null when there is none (an entry outside its window is deleted).
 */
async function fromDataCenter(
  c: Context<AppEnv>,
  cache: Cache,
  key: string,
  now: number,
  maxAge: number,
): Promise<Response | null> {
  const hit = await cache.match(key);
  if (!hit) return null;
  const from = Number(hit.headers.get(VALID_FROM) || Number.NEGATIVE_INFINITY);
  const untilHeader = hit.headers.get(VALID_UNTIL);
  const until = untilHeader ? Number(untilHeader) : null;
  if (!inWindow(from, until, now)) {
    c.executionCtx.waitUntil(cache.delete(key));
    return null;
  }
  const etag = hit.headers.get("etag") ?? "";
  const contentType = hit.headers.get("content-type") ?? "application/json";
  const control = cacheControl(maxAge, until, now);
  const expires = Number(hit.headers.get(EXPIRES) || 0);
  if (expires > now) {
    const body = await hit.text();
    hold(key, { body, etag, contentType, from, until, expires });
    return answer(c, () => body, etag, control, contentType);
  }
  // An entry stored without its end (before the isolate's copies): passed on as it is.
  const response = answer(c, () => hit.body, etag, control, contentType);
  // A 304 sends no body: the stored one is released unread.
  if (response.status === 304) await hit.body?.cancel();
  return response;
}

/**
 * The middleware operation() adds for a route declaring `edgeCache`, after authentication (the key holds the
 * credential's gallery). A hit inside its window (the isolate's own copy, else the data center's) answers without
 * running the route; anything else runs it, and a 200 is stored for the next visitor.
 */
export function edgeCache(spec: EdgeCacheSpec): MiddlewareHandler<AppEnv> {
  const maxAge = spec.maxAgeSeconds ?? PUBLIC_MAX_AGE_SECONDS;
  const edgeTtl = spec.edgeTtlSeconds ?? EDGE_TTL_SECONDS;
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const cache = caches.default;
    const key = await cacheKey(c);
    const now = Date.now();
    const own = heldEntry(key, now);
    if (own && inWindow(own.from, own.until, now)) {
      c.res = answer(c, () => own.body, own.etag, cacheControl(maxAge, own.until, now), own.contentType);
      return;
    }
    // An entry outside its window (the room closed) is never served, the isolate's copy or the data center's (one
    // window for both): it is dropped, and the route answers from the database.
    if (own) {
      release(key);
      c.executionCtx.waitUntil(cache.delete(key));
    } else {
      const served = await fromDataCenter(c, cache, key, now, maxAge);
      if (served) {
        c.res = served;
        return;
      }
    }
    await next();
    if (c.res.status !== 200) return;
    const body = await c.res.text();
    const contentType = c.res.headers.get("content-type") ?? "application/json";
    const etag = await strongEtag(body);
    const window = spec.validity?.(JSON.parse(body)) ?? { opensAt: null, closesAt: null };
    const until = millis(window.closesAt);
    const builtAt = Date.now();
    c.res = answer(c, () => body, etag, cacheControl(maxAge, until, builtAt), contentType);
    // Kept no longer than the edge TTL nor past the window's end; an answer about to expire is not kept.
    const ttl = until === null ? edgeTtl : Math.min(edgeTtl, Math.floor((until - builtAt) / 1000));
    if (ttl < 1) return;
    const from = millis(window.opensAt) ?? Number.NEGATIVE_INFINITY;
    const expires = builtAt + ttl * 1000;
    hold(key, { body, etag, contentType, from, until, expires });
    const stored = new Response(body, {
      headers: {
        "Content-Type": contentType,
        ETag: etag,
        "Cache-Control": `public, max-age=${ttl}`,
        [VALID_FROM]: String(millis(window.opensAt) ?? ""),
        [EXPIRES]: String(expires),
        ...(until === null ? {} : { [VALID_UNTIL]: String(until) }),
      },
    });
    c.executionCtx.waitUntil(cache.put(key, stored));
  };
}
