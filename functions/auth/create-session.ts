import { createRoute } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { createSession, findLoginCandidate, SESSION_TTL_SECONDS } from "../../db/queries/sessions";
import { randomToken, sha256Hex } from "../../lib/crypto";
import type { Router } from "../../lib/http/app";
import { SESSION_TOKEN_PREFIX } from "../../lib/http/auth";
import { newId } from "../../lib/ids";
import { verifyPassword } from "../../lib/password";
import { ApiError, bodyProblemResponses, problemResponses } from "../../lib/problem";
import { CreatedSession, SessionCreate } from "../../lib/schemas/auth";
import { setSessionCookie } from "./cookie";

/**
 * Declared with `createRoute`, not `operation()`: signing in is how a caller obtains a credential, so there is
 * none to check, no gallery to scope an idempotency claim to, and nothing for the generated credential checks.
 */
const route = createRoute({
  operationId: "createSession",
  method: "post",
  path: "/auth/sessions",
  tags: ["Auth"],
  summary: "Sign in a member",
  description:
    "Exchanges a member's email and password for a session (`gss_…`, valid 30 days). The token is returned once and also set as the HttpOnly cookie `gallery_session` (Secure, SameSite=Lax, Path=/v1). An unknown email, a wrong password and a disabled member all answer the same 401, in the same time. Not idempotent: every success issues a new session.",
  security: [],
  request: {
    body: { required: true, content: { "application/json": { schema: SessionCreate } } },
  },
  responses: {
    201: {
      description: "The new session.",
      headers: {
        "Set-Cookie": {
          description: "`gallery_session=<token>; Max-Age=2592000; Path=/v1; HttpOnly; Secure; SameSite=Lax`",
          schema: { type: "string" },
        },
      },
      content: { "application/json": { schema: CreatedSession } },
    },
    ...problemResponses,
    ...bodyProblemResponses,
  },
});

export function registerAuthCreateSession(app: Router): void {
  app.openapi(route, async (c) => {
    const { email, password } = c.req.valid("json");
    const db = httpDb(c.env);
    const member = await findLoginCandidate(db, email);
    // Always derive, so an unknown email costs as much as a wrong password.
    const matches = await verifyPassword(password, member?.passwordHash ?? null);
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
    setSessionCookie(c, token, SESSION_TTL_SECONDS);
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        id,
        token,
        expires_at: expiresAt,
        member: { id: member.id, email: member.email, name: member.name, role: member.role },
        gallery_id: member.galleryId,
      },
      201,
    );
  });
}
