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
import type { CreatedSession, CurrentSession } from "../../lib/schemas/auth";
import { SessionDeleted } from "../../lib/schemas/auth";
import type { ServiceContext } from "../context";
import { deletedBody, executeWrite, guarded } from "../write";

/** The window of the sign-in rate limits (wrangler.toml `[[ratelimits]]`, `simple.period`): the longest wait. */
export const SIGN_IN_RETRY_AFTER_SECONDS = 60;

/**
 * Counts a sign-in attempt against its email and its client address (Cloudflare Rate Limiting bindings) and
 * refuses it with 429 `rate_limited` past either limit. Every attempt counts, before anything is looked up, so
 * the answer says nothing about whether the email exists. The email is counted by its SHA-256: the limiter never
 * sees addresses. Without a client address (no `CF-Connecting-IP`: not through Cloudflare's edge) only the email
 * limit applies.
 */
async function limitSignIn(
  env: Pick<Env, "SIGN_IN_EMAIL_LIMIT" | "SIGN_IN_IP_LIMIT">,
  email: string,
  clientIp: string | null,
): Promise<void> {
  const checks = [env.SIGN_IN_EMAIL_LIMIT.limit({ key: `email:${await sha256Hex(email.toLowerCase())}` })];
  if (clientIp) checks.push(env.SIGN_IN_IP_LIMIT.limit({ key: `ip:${clientIp}` }));
  const outcomes = await Promise.all(checks);
  if (outcomes.every((o) => o.success)) return;
  throw new ApiError(
    "rate_limited",
    `Too many sign-in attempts for this email or from this address. Retry in ${SIGN_IN_RETRY_AFTER_SECONDS} seconds.`,
    null,
    { "Retry-After": String(SIGN_IN_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Exchanges a member's email and password for a new session. An unknown email, a wrong password and a disabled
 * member are one and the same refusal, in the same time. Attempts are rate limited per email and per client
 * address.
 */
export async function signIn(
  env: Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT" | "SIGN_IN_EMAIL_LIMIT" | "SIGN_IN_IP_LIMIT">,
  credentials: { email: string; password: string },
  clientIp: string | null,
): Promise<z.output<typeof CreatedSession>> {
  await limitSignIn(env, credentials.email, clientIp);
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
