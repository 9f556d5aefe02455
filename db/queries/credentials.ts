import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { apiKeys, galleries, members, sessions } from "../schema";

export interface CredentialRecord {
  kind: "secret" | "publishable" | "session";
  id: string;
  galleryId: string;
  livemode: boolean;
  scopes: string[];
  memberId: string | null;
  role: "editor" | "viewer" | null;
  expiresAt: string | null;
}

/** Resolves an API key or publishable token by the SHA-256 of its secret. One round trip. */
export async function findApiKeyByHash(db: Db, keyHash: string): Promise<CredentialRecord | null> {
  const rows = await db
    .select({
      id: apiKeys.id,
      kind: apiKeys.kind,
      galleryId: apiKeys.galleryId,
      scopes: apiKeys.scopes,
      livemode: galleries.livemode,
    })
    .from(apiKeys)
    .innerJoin(galleries, eq(galleries.id, apiKeys.galleryId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return { ...row, memberId: null, role: null, expiresAt: null };
}

/** Resolves a live member session by the SHA-256 of its token. One round trip. */
export async function findSessionByHash(db: Db, tokenHash: string): Promise<CredentialRecord | null> {
  const rows = await db
    .select({
      id: sessions.id,
      galleryId: sessions.galleryId,
      memberId: sessions.memberId,
      role: members.role,
      expiresAt: sessions.expiresAt,
      livemode: galleries.livemode,
    })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .innerJoin(galleries, eq(galleries.id, sessions.galleryId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        isNull(members.disabledAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return { ...row, kind: "session", scopes: [] };
}
