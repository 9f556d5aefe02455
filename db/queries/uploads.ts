import { type SQLWrapper, sql } from "drizzle-orm";
import type { UploadGrant } from "../../lib/principal";
import type { Db } from "../client";
import { isoMs } from "../resource";
import { uploadTokens } from "../schema";

/** A signed upload target as the database holds it: the grant, whose gallery it is, and its state. */
export interface UploadTokenRecord {
  grant: UploadGrant;
  galleryId: string;
  livemode: boolean;
  memberId: string | null;
  usedAt: string | null;
  expired: boolean;
}

/** Resolves an upload token by the SHA-256 of its secret, used or not. One round trip. */
export async function findUploadTokenByHash(db: Db, tokenHash: string): Promise<UploadTokenRecord | null> {
  const result = await db.execute<{
    id: string;
    gallery_id: string;
    livemode: boolean;
    member_id: string | null;
    storage_path: string;
    purpose: string;
    resource_id: string | null;
    content_type: string;
    max_bytes: number;
    expires_at: string;
    used_at: string | null;
    expired: boolean;
  }>(sql`select t.id, t.gallery_id, g.livemode, t.member_id, t.storage_path, t.purpose, t.resource_id,
      t.content_type, t.max_bytes, ${isoMs(sql`t.expires_at`)} as expires_at, ${isoMs(sql`t.used_at`)} as used_at,
      t.expires_at <= now() as expired
    from upload_tokens t join galleries g on g.id = t.gallery_id where t.token_hash = ${tokenHash}`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    grant: {
      id: row.id,
      storagePath: row.storage_path,
      purpose: row.purpose,
      resourceId: row.resource_id,
      contentType: row.content_type,
      maxBytes: Number(row.max_bytes),
      expiresAt: row.expires_at,
    },
    galleryId: row.gallery_id,
    livemode: row.livemode,
    memberId: row.member_id,
    usedAt: row.used_at,
    expired: row.expired,
  };
}

export interface NewUploadToken {
  id: string;
  galleryId: string;
  tokenHash: string;
  storagePath: string;
  purpose: string;
  resourceId: string;
  memberId: string | null;
  actorId: string;
  contentType: string;
  maxBytes: number;
  expiresAt: string;
}

/** The INSERT of a minted target, for a write's batch. */
export function insertUploadTokenStatement(db: Db, token: NewUploadToken): SQLWrapper {
  return db.insert(uploadTokens).values(token);
}

/** The outcome of consuming a token: consumed now, or why not. */
export type Consumed = { consumed: true; usedAt: string } | { consumed: false; reason: "used" | "expired" };

/**
 * Marks the token used, atomically: of two concurrent uploads with one token, exactly one consumes it. One round
 * trip; the outer select reads the row as it was before this statement, which says why a refusal happened.
 */
export async function consumeUploadToken(db: Db, tokenHash: string): Promise<Consumed> {
  const result = await db.execute<{ consumed_at: string | null; was_used: boolean }>(sql`
    with consumed as (
      update upload_tokens set used_at = now()
      where token_hash = ${tokenHash} and used_at is null and expires_at > now()
      returning used_at)
    select (select ${isoMs(sql`used_at`)} from consumed) as consumed_at, t.used_at is not null as was_used
    from upload_tokens t where t.token_hash = ${tokenHash}`);
  const row = result.rows[0];
  if (row?.consumed_at) return { consumed: true, usedAt: row.consumed_at };
  return { consumed: false, reason: row?.was_used ? "used" : "expired" };
}

/** Gives a consumed token back (its upload could not be stored), unless something else happened to it since. */
export async function releaseUploadToken(db: Db, tokenHash: string, usedAt: string): Promise<void> {
  await db.execute(
    sql`update upload_tokens set used_at = null where token_hash = ${tokenHash} and used_at = ${usedAt}::timestamptz`,
  );
}
