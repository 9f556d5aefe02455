import { sql } from "drizzle-orm";
import { insertUploadTokenStatement } from "../../db/queries/uploads";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import type { ImageType } from "../../lib/image-type";
import { SignedUploadTarget } from "../../lib/schemas/uploads";
import {
  signedUploadUrl,
  storagePath,
  UPLOAD_TOKEN_BYTES,
  UPLOAD_TOKEN_PREFIX,
  UPLOAD_TTL_SECONDS,
} from "../../lib/uploads";
import type { ServiceContext } from "../context";
import { executeWrite, revealOnce } from "../write";

/** What an upload is for and what it may hold; the caller has checked that the owner exists. */
export interface UploadSpec {
  /** Recorded on the token and checked by the write that attaches the upload: `artwork_image`. */
  purpose: string;
  /** The path segment after the gallery: `artworks`. */
  collection: string;
  /** The resource the upload belongs to: its id is the next path segment. */
  ownerId: string;
  /** The stored object's own id (the last path segment, before the extension): `img_…`. */
  fileId: string;
  contentType: ImageType;
  maxBytes: number;
}

/**
 * Mints a signed one-time upload target: a random token whose SHA-256 alone is stored, with the storage path
 * the server derives (gallery-scoped) and a short expiry. The response shows the token and its URL once; what is
 * stored for an idempotent replay holds null there. No domain event: nothing changes until the upload is attached.
 */
export async function mintUpload(ctx: ServiceContext, spec: UploadSpec) {
  const { db, principal } = ctx;
  const token = randomToken(UPLOAD_TOKEN_PREFIX, UPLOAD_TOKEN_BYTES);
  const path = storagePath(principal.galleryId, spec.collection, spec.ownerId, spec.fileId, spec.contentType);
  const expiresAt = new Date(Date.now() + UPLOAD_TTL_SECONDS * 1000).toISOString();
  const written = await executeWrite(ctx, {
    schema: SignedUploadTarget,
    statements: [
      insertUploadTokenStatement(db, {
        id: newId("upl"),
        galleryId: principal.galleryId,
        tokenHash: await sha256Hex(token),
        storagePath: path,
        purpose: spec.purpose,
        resourceId: spec.ownerId,
        memberId: principal.memberId,
        actorId: principal.credentialId,
        contentType: spec.contentType,
        maxBytes: spec.maxBytes,
        expiresAt,
      }),
    ],
    events: [],
    status: 201,
    body: sql`json_build_object('storage_path', ${path}::text, 'token', null::text, 'signed_url', null::text)`,
  });
  return revealOnce(revealOnce(written, "token", token), "signed_url", signedUploadUrl(ctx.env, token));
}
