import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { Member } from "../../lib/schemas/members";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { members } from "../schema";
import { keysetPage } from "./keyset";
import { asRead } from "./rows";

/** The API representation of a member (alias `m`): never the password hash. */
export const memberResource = resource({
  schema: Member,
  table: members,
  alias: "m",
  computed: { disabled: () => sql`(m.disabled_at is not null)` },
});
const memberJson = memberResource.json({});

/** One page (limit + 1 rows) of the gallery's members, disabled ones included, keyset on (created_at, id). */
export function listMembers(db: Db, galleryId: string, page: PageRequest): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: memberJson,
      from: sql`members m`,
      where: [sql`m.gallery_id = ${galleryId}`],
      sortKey: sql`m.created_at`,
      cast: "timestamptz",
      id: sql`m.id`,
    },
    page,
  );
}

export interface MemberState {
  body: Record<string, unknown>;
  updatedAt: string;
  /**
   * The SHA-256 of every live session token of the member: the credential cache entries a change of role or a
   * disable must purge.
   */
  sessionHashes: string[];
}

/** One member of the gallery with what a guarded write and the cache purge need, or null. One round trip. */
export async function findMember(db: Db, galleryId: string, id: string): Promise<MemberState | null> {
  const result = await db.execute<{ body: Record<string, unknown>; updated_at: string; hashes: string[] }>(
    sql`select ${memberJson} as body, ${isoMs(sql`m.updated_at`)} as updated_at,
        array(select s.token_hash from sessions s
          where s.gallery_id = m.gallery_id and s.member_id = m.id
            and s.revoked_at is null and s.expires_at > now()) as hashes
      from members m where m.gallery_id = ${galleryId} and m.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at, sessionHashes: row.hashes } : null;
}

/** The UPDATE for `guarded()`: matches only the row as it was read. `disabled` sets or clears disabled_at. */
export function updateMemberStatement(
  db: Db,
  galleryId: string,
  id: string,
  change: { role?: "editor" | "viewer"; disabled?: boolean },
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const disabledAt = change.disabled === undefined ? undefined : change.disabled ? at : null;
  return db
    .update(members)
    .set(memberResource.row({ role: change.role, disabled_at: disabledAt, updated_at: at }))
    .where(asRead(members, galleryId, id, readUpdatedAt));
}

/** Revokes every live session of a member (on disable): re-enabling the member does not bring them back. */
export function revokeMemberSessionsStatement(galleryId: string, memberId: string): SQL {
  return sql`update sessions set revoked_at = now()
    where gallery_id = ${galleryId} and member_id = ${memberId} and revoked_at is null`;
}
