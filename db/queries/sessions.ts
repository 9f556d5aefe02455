import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { CurrentSession } from "../../lib/schemas/auth";
import type { Db } from "../client";
import { isoMs } from "../resource";

/** How long a member session lives; the cookie's Max-Age matches. */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface LoginCandidate {
  id: string;
  galleryId: string;
  email: string;
  name: string;
  role: "editor" | "viewer";
  passwordHash: string;
  disabled: boolean;
}

/**
 * The member an email signs in as. Login is the one query not scoped by a gallery the caller already holds:
 * the email (unique across galleries, case-insensitively) is what selects the gallery. One round trip.
 */
export async function findLoginCandidate(db: Db, email: string): Promise<LoginCandidate | null> {
  const result = await db.execute<{
    id: string;
    gallery_id: string;
    email: string;
    name: string;
    role: "editor" | "viewer";
    password_hash: string;
    disabled: boolean;
  }>(
    sql`select id, gallery_id, email, name, role, password_hash, disabled_at is not null as disabled
      from members where lower(email) = lower(${email}) limit 1`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    galleryId: row.gallery_id,
    email: row.email,
    name: row.name,
    role: row.role,
    passwordHash: row.password_hash,
    disabled: row.disabled,
  };
}

/**
 * Records a new session for a member whose password was just verified; only the token's SHA-256 is stored.
 * The expiry comes from the database clock, the one the credential lookup compares against. One round trip.
 */
export async function createSession(
  db: Db,
  galleryId: string,
  session: { id: string; memberId: string; tokenHash: string },
): Promise<{ expiresAt: string }> {
  const result = await db.execute<{ expires_at: string }>(
    sql`insert into sessions (id, gallery_id, member_id, token_hash, expires_at)
      values (${session.id}, ${galleryId}, ${session.memberId}, ${session.tokenHash},
        now() + make_interval(secs => ${SESSION_TTL_SECONDS}))
      returning ${isoMs(sql`expires_at`)} as expires_at`,
  );
  return { expiresAt: result.rows[0]!.expires_at };
}

/**
 * Revokes the session presented by the caller, for `guarded()`: the token hash must match the row, so the
 * caller purges exactly the credential cache entry it revoked.
 */
export function revokeSessionStatement(galleryId: string, id: string, tokenHash: string): SQL {
  return sql`update sessions set revoked_at = now()
    where gallery_id = ${galleryId} and id = ${id} and token_hash = ${tokenHash} and revoked_at is null`;
}

/** The signed-in member's session, member and gallery as the API shows them, or null. One round trip. */
export async function findSessionOverview(
  db: Db,
  galleryId: string,
  id: string,
): Promise<Omit<z.output<typeof CurrentSession>, "scopes"> | null> {
  const result = await db.execute<{ body: Omit<z.output<typeof CurrentSession>, "scopes"> }>(
    sql`select jsonb_build_object(
        'id', s.id,
        'created_at', ${isoMs(sql`s.created_at`)},
        'expires_at', ${isoMs(sql`s.expires_at`)},
        'member', jsonb_build_object('id', m.id, 'email', m.email, 'name', m.name, 'role', m.role),
        'gallery', jsonb_build_object('id', g.id, 'name', g.name, 'livemode', g.livemode)
      ) as body
      from sessions s
      join members m on m.id = s.member_id
      join galleries g on g.id = s.gallery_id
      where s.gallery_id = ${galleryId} and s.id = ${id}`,
  );
  return result.rows[0]?.body ?? null;
}
