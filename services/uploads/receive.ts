import type { z } from "@hono/zod-openapi";
import { consumeUploadToken, releaseUploadToken } from "../../db/queries/uploads";
import { failedDependency } from "../../lib/dependency-failure";
import { type DetectedImage, detectImage } from "../../lib/image-type";
import { ApiError } from "../../lib/problem";
import type { StoredUpload } from "../../lib/schemas/uploads";
import { ASSET_CACHE_CONTROL, assetUrl } from "../../lib/uploads";
import type { ServiceContext } from "../context";

/** Seconds a client waits before retrying an upload that storage refused (its URL stays valid meanwhile). */
const STORAGE_RETRY_AFTER_SECONDS = 5;

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `This upload accepts at most ${maxBytes} bytes.`, {
    max_bytes: maxBytes,
  });
}

/** The body's bytes, refusing more than `maxBytes` as soon as they arrive (the rest is never read). */
async function readAtMost(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * Checks the upload before anything is spent: the declared type is the one minted, the size within the limit
 * (Content-Length first, then the bytes as they arrive), and the bytes really are that image type.
 */
async function checkedImage(
  request: Request,
  expected: string,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; image: DetectedImage }> {
  const declared = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (declared !== expected) {
    throw new ApiError(
      "unsupported_media_type",
      `This upload URL takes Content-Type ${expected}${declared ? `, not ${declared}` : "; none was sent"}.`,
      { expected_content_type: expected, content_type: declared || null },
    );
  }
  const length = request.headers.get("content-length");
  if (length !== null && Number(length) > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readAtMost(request.body, maxBytes);
  if (bytes.byteLength === 0) {
    const issue = { location: "body" as const, field: "(root)", message: "is empty" };
    throw new ApiError("invalid_request", "The upload has no bytes.", [issue]);
  }
  const image = detectImage(bytes);
  if (image?.contentType !== expected) {
    throw new ApiError(
      "unsupported_media_type",
      `The bytes are not a ${expected} image${image ? ` (they are ${image.contentType})` : ""}.`,
      { expected_content_type: expected, detected_content_type: image?.contentType ?? null },
    );
  }
  return { bytes, image };
}

/**
 * The signed upload itself: checks the bytes, consumes the one-time token atomically (of two concurrent PUTs one
 * wins; the other is 410), then stores the object in R2 at the path chosen when minting. Should storage fail
 * after the token was consumed, the token is given back and the answer is 503 with Retry-After: the same URL
 * works again until it expires.
 */
export async function receiveUpload(
  ctx: ServiceContext,
  request: Request,
): Promise<z.infer<typeof StoredUpload>> {
  const { principal } = ctx;
  const grant = principal.upload;
  if (!grant) throw new ApiError("internal_error", "An upload needs an upload token.");
  const { bytes, image } = await checkedImage(request, grant.contentType, grant.maxBytes);
  const consumed = await consumeUploadToken(ctx.db, principal.credentialHash);
  if (!consumed.consumed) {
    throw consumed.reason === "used"
      ? new ApiError("upload_token_used", "This upload URL was used by another request; each works once.")
      : new ApiError("upload_token_expired", `This upload URL expired at ${grant.expiresAt}.`, {
          expires_at: grant.expiresAt,
        });
  }
  try {
    await ctx.env.UPLOADS.put(grant.storagePath, bytes, {
      httpMetadata: { contentType: image.contentType, cacheControl: ASSET_CACHE_CONTROL },
      customMetadata: {
        ...(image.width !== null ? { width: String(image.width) } : {}),
        ...(image.height !== null ? { height: String(image.height) } : {}),
      },
    });
  } catch (error) {
    await releaseUploadToken(ctx.db, principal.credentialHash, consumed.usedAt);
    // Storage that cannot serve now is a 503 that also says the URL works again (lib/dependency-failure.ts
    // decides which failures are that); anything else is a bug, a 500 like any other.
    const dependency = failedDependency(error);
    if (!dependency) throw error;
    console.error("upload storage failed", ctx.requestId, error);
    throw new ApiError(
      "service_unavailable",
      "The upload could not be stored. The URL was not used up: retry it after Retry-After.",
      { dependency },
      { "Retry-After": String(STORAGE_RETRY_AFTER_SECONDS) },
    );
  }
  return {
    storage_path: grant.storagePath,
    url: assetUrl(ctx.env, grant.storagePath),
    content_type: image.contentType,
    size_bytes: bytes.byteLength,
    width: image.width,
    height: image.height,
    uploaded_at: consumed.usedAt,
  };
}
