import type { z } from "zod";
import { httpDb } from "../../db/client";
import {
  createSession,
  findLoginCandidate,
  findSessionOverview,
  revokeSessionStatement,
} from "../../db/queries/sessions";
import { purgeCredential, SESSION_TOKEN_PREFIX } from "../../lib/credentials";
import { randomToken, sha256Hex } from "../../lib/crypto";
import type { Env } from "../../lib/env";
import { newId } from "../../lib/ids";
import { verifyPassword } from "../../lib/password";
import { ApiError } from "../../lib/problem";
import { enforceRateLimit, RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import type { CreatedSession, CurrentSession } from "../../lib/schemas/auth";
import { SessionDeleted } from "../../lib/schemas/auth";
import type { ServiceContext } from "../context";
import { deletedBody, executeWrite, guarded } from "../write";

/**
 * Counts a sign-in attempt against its email (a Cloudflare Rate Limiting binding) and refuses it with 429
 * `rate_limited` past the limit. Every attempt counts, before anything is looked up, so the answer says nothing
 * about whether the email exists. The email is counted by its SHA-256: the limiter never sees addresses. (The
 * client address is counted before the body is read, by the route: functions/auth/create-session.ts.)
 */
async function limitSignIn(env: Parameters<typeof enforceRateLimit>[0], email: string): Promise<void> {
  const policy = RATE_LIMIT_POLICIES.sign_in_email;
  await enforceRateLimit(
    env,
    policy,
    `email:${await sha256Hex(email.toLowerCase())}`,
    `Too many sign-in attempts for this email: the limit is ${policy.limit} a minute. Retry in ${policy.period} seconds.`,
  );
}

/**
 * Exchanges a member's email and password for a new session. An unknown email, a wrong password and a disabled
 * member are one and the same refusal, in the same time. Attempts are rate limited per email (here) and per client
 * address (by the route).
 */
export async function signIn(
  env: Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT"> & Parameters<typeof enforceRateLimit>[0],
  credentials: { email: string; password: string },
): Promise<z.output<typeof CreatedSession>> {
  await limitSignIn(env, credentials.email);
  const db = httpDb(env);
  const member = await findLoginCandidate(db, credentials.email);
  // Always derive, so an unknown email costs as much as a wrong password.
  const matches = await verifyPassword(credentials.password, member?.passwordHash ?? null);
  if (!member || member.disabled || !matches) {
    throw new ApiError("unauthenticated", "The email or password is incorrect.");
  }
  const token = randomToken(SESSION_TOKEN_PREFIX);
  const id = newId("ses");
  const { expiresAt } = await createSession(db, member.galleryId, {
    id,
    memberId: member.id,
    tokenHash: await sha256Hex(token),
  });
  return {
    id,
    token,
    expires_at: expiresAt,
    member: { id: member.id, email: member.email, name: member.name, role: member.role },
    gallery_id: member.galleryId,
  };
}

/** Who is signed in, as the session row says (the credential cache may outlive a member's deletion). */
export async function currentSession(ctx: ServiceContext): Promise<z.output<typeof CurrentSession>> {
  const { principal } = ctx;
  const overview = await findSessionOverview(ctx.db, principal.galleryId, principal.credentialId);
  if (!overview) throw new ApiError("unauthenticated", "The credential is unknown, revoked or expired.");
  return { ...overview, scopes: [...principal.scopes] };
}

/** Revokes the caller's own session; it stops authenticating before this call answers. */
export async function signOut(ctx: ServiceContext) {
  const { principal } = ctx;
  const written = await executeWrite(ctx, {
    schema: SessionDeleted,
    statements: [
      guarded(revokeSessionStatement(principal.galleryId, principal.credentialId, principal.credentialHash)),
    ],
    events: [],
    status: 200,
    body: deletedBody(principal.credentialId),
  });
  // Only after the commit: purged earlier, a concurrent lookup could re-cache the still-live row.
  await purgeCredential(ctx.env, principal.credentialHash);
  return written;
}
