import { type Env, publicBaseUrl } from "./env";
import { type ImageType, imageExtensions } from "./image-type";

/**
 * Signed one-time uploads. A mint stores the SHA-256 of a random token and answers the URL that carries it:
 * `PUT <PUBLIC_BASE_URL>/v1/uploads/<token>`. That PUT, with no other credential, stores the bytes in R2 under
 * the storage path the server chose when minting; a later write attaches the stored object to its resource.
 */

export const UPLOAD_TOKEN_PREFIX = "gupl_";
/** `gupl_` and 32 random bytes, base64url. */
export const UPLOAD_TOKEN_SHAPE = /^gupl_[A-Za-z0-9_-]{43}$/;
export const UPLOAD_TOKEN_BYTES = 32;
/** How long a minted upload URL stays usable. */
export const UPLOAD_TTL_SECONDS = 15 * 60;
/** Stored objects never change (every upload gets a new path), so caches may keep them for a year. */
export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** The request path of a signed upload, which carries image bytes rather than a JSON body. */
const SIGNED_UPLOAD_PATH = /^\/v1\/uploads\/[^/]+$/;

/** A signed upload PUT: its body limit is its token's own, checked by the upload while it reads the bytes. */
export function isSignedUpload(method: string, path: string): boolean {
  return method === "PUT" && SIGNED_UPLOAD_PATH.test(path);
}

/**
 * Where an upload is stored: `galleries/<gallery id>/<collection>/<owner id>/<file id>.<ext>`. Always these five
 * segments, so GET /v1/assets/{…} maps a URL onto an object with no lookup; the file id is random, so the path
 * cannot be guessed.
 */
export function storagePath(
  galleryId: string,
  collection: string,
  ownerId: string,
  fileId: string,
  contentType: ImageType,
): string {
  return `galleries/${galleryId}/${collection}/${ownerId}/${fileId}.${imageExtensions[contentType]}`;
}

/** The folder of everything stored for one owner (an artwork's images): `galleries/<gallery>/<collection>/<owner>/`. */
export function storagePrefix(galleryId: string, collection: string, ownerId: string): string {
  return `galleries/${galleryId}/${collection}/${ownerId}/`;
}

/** Deletes every stored object under `prefix` (an owner that is gone), a listing page at a time. */
export async function deleteStoredUnder(bucket: R2Bucket, prefix: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, ...(cursor ? { cursor } : {}) });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

export function signedUploadUrl(env: Pick<Env, "PUBLIC_BASE_URL">, token: string): string {
  return `${publicBaseUrl(env)}/v1/uploads/${token}`;
}

/** The public URL a stored object is served at (GET /v1/assets/…). */
export function assetUrl(env: Pick<Env, "PUBLIC_BASE_URL">, path: string): string {
  return `${publicBaseUrl(env)}/v1/assets/${path}`;
}
