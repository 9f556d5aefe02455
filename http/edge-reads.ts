import type { Context } from "hono";
import type { AppEnv } from "../lib/env";

/**
 * The EDGE_KV reads of a request that depend on its credential's gallery — the replay of an idempotent write
 * (lib/idempotency.ts), the public generation of an edge-cached read (lib/public-surface.ts) — made in the same
 * call as the credential's own read (KV's bulk read, one subrequest for both) whenever this isolate already knows
 * which gallery the credential belongs to. That is known once the credential has been resolved in the isolate:
 * a credential never changes gallery, so remembering its gallery lets nothing in that the credential's own read,
 * made on every request as before, would refuse. The first request of a credential in an isolate reads them one
 * after the other.
 */

/** The key of a read that needs the credential's gallery. */
export type GalleryKey = (galleryId: string) => string;

/** How an operation names the read it makes beside the credential's, if any, for this request. */
export type BesideCredential = (c: Context<AppEnv>) => GalleryKey | null | Promise<GalleryKey | null>;

/** Values read beside each request's credential: key → value (null: no such key). */
const readBeside = new WeakMap<Request, ReadonlyMap<string, string | null>>();

/** Keeps what was read beside the request's credential (http/auth.ts). */
export function keepReadBeside(request: Request, values: ReadonlyMap<string, string | null>): void {
  if (values.size > 0) readBeside.set(request, values);
}

/** The text under `key` in EDGE_KV (null when absent): as read beside the credential, or read now. */
export function readEdgeKv(c: Context<AppEnv>, key: string): Promise<string | null> {
  const read = readBeside.get(c.req.raw);
  if (read?.has(key)) return Promise.resolve(read.get(key) ?? null);
  return c.env.EDGE_KV.get(key);
}

/** Credential hash → gallery, for the credentials this isolate resolved. */
const galleries = new Map<string, string>();
const GALLERIES_LIMIT = 10_000;

/** The gallery of a credential this isolate has resolved before, if any. */
export function knownGallery(credentialHash: string): string | undefined {
  return galleries.get(credentialHash);
}

/** Remembers a resolved credential's gallery (a fact that never changes). */
export function rememberGallery(credentialHash: string, galleryId: string): void {
  if (galleries.get(credentialHash) === galleryId) return;
  if (galleries.size >= GALLERIES_LIMIT) galleries.clear();
  galleries.set(credentialHash, galleryId);
}
