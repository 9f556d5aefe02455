import { and, eq, isNull, lt, or, type SQLWrapper, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiKey } from "../../lib/schemas/api-keys";
import type { Db } from "../client";
import { isoMs, type RowValues, resource } from "../resource";
import { apiKeys } from "../schema";
import { keysetPage } from "./keyset";
import { asRead } from "./rows";

/** The API representation of a key: never the secret, never its hash. */
export const apiKeyResource = resource({ schema: ApiKey, table: apiKeys, alias: "k" });
const apiKeyJson = apiKeyResource.json({});

export interface ApiKeyState {
  body: Record<string, unknown>;
  /** Needed to purge the credential cache on revoke. */
  keyHash: string;
  revoked: boolean;
  updatedAt: string;
}

/** One key of the gallery with what a revoke needs, or null. One round trip. */
export async function findApiKey(db: Db, galleryId: string, id: string): Promise<ApiKeyState | null> {
  const result = await db.execute<{
    body: Record<string, unknown>;
    key_hash: string;
    revoked: boolean;
    updated_at: string;
  }>(
    sql`select ${apiKeyJson} as body, k.key_hash, k.revoked_at is not null as revoked,
        ${isoMs(sql`k.updated_at`)} as updated_at
      from api_keys k where k.gallery_id = ${galleryId} and k.id = ${id}`,
  );
  const row = result.rows[0];
  return row
    ? { body: row.body, keyHash: row.key_hash, revoked: row.revoked, updatedAt: row.updated_at }
    : null;
}

/** One page (limit + 1 rows) of the gallery's keys, revoked ones included, keyset on (created_at, id). */
export function listApiKeys(db: Db, galleryId: string, page: PageRequest): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: apiKeyJson,
      from: sql`api_keys k`,
      where: [sql`k.gallery_id = ${galleryId}`],
      sortKey: sql`k.created_at`,
      cast: "timestamptz",
      id: sql`k.id`,
    },
    page,
  );
}

export type NewApiKey = Pick<
  RowValues<typeof apiKeys>,
  "id" | "kind" | "name" | "prefix" | "key_hash" | "scopes"
>;

export function createApiKeyStatement(db: Db, galleryId: string, key: NewApiKey, at: string): SQLWrapper {
  return db
    .insert(apiKeys)
    .values(apiKeyResource.row({ ...key, gallery_id: galleryId, created_at: at, updated_at: at }));
}

/** The UPDATE for `guarded()`: matches only the live row as it was read. */
export function revokeApiKeyStatement(
  db: Db,
  galleryId: string,
  id: string,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  return db
    .update(apiKeys)
    .set({ revokedAt: at, updatedAt: at })
    .where(and(asRead(apiKeys, galleryId, id, readUpdatedAt), isNull(apiKeys.revokedAt)));
}

/** How finely a key's `last_used_at` is kept: a use within this long of the recorded one writes nothing. */
export const LAST_USED_PRECISION_MS = 60 * 60 * 1000;

/**
 * Records that a key (secret or publishable) authenticated a request: `last_used_at` becomes now, unless it is
 * already within LAST_USED_PRECISION_MS of now. `updated_at` stays: a use is not a change of the key (and its
 * guarded writes, revoke, match on it).
 */
export async function recordApiKeyUse(db: Db, id: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.id, id),
        or(
          isNull(apiKeys.lastUsedAt),
          lt(apiKeys.lastUsedAt, sql`now() - make_interval(secs => ${LAST_USED_PRECISION_MS / 1000})`),
        ),
      ),
    );
}
