import { createRoute } from "@hono/zod-openapi";
import { SESSION_TTL_SECONDS } from "../../db/queries/sessions";
import type { Router } from "../../http/app";
import { bodyProblemResponses, ProblemSchema, problemResponses } from "../../lib/problem";
import { CreatedSession, SessionCreate } from "../../lib/schemas/auth";
import { SIGN_IN_RETRY_AFTER_SECONDS, signIn } from "../../services/auth/sessions";
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
    "Exchanges a member's email and password for a session (`gss_…`, valid 30 days). The token is returned once and also set as the HttpOnly cookie `gallery_session` (Secure, SameSite=Lax, Path=/v1). An unknown email, a wrong password and a disabled member all answer the same 401, in the same time. Attempts are limited per email (5 a minute) and per client address (20 a minute): beyond either, 429 `rate_limited` with `Retry-After`. Not idempotent: every success issues a new session.",
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
    429: {
      description: `Too many sign-in attempts for this email or from this client address (\`rate_limited\`, \`retry: after_delay\`). Wait \`Retry-After\` seconds (at most ${SIGN_IN_RETRY_AFTER_SECONDS}).`,
      headers: {
        "Retry-After": {
          description: "Seconds to wait before the next attempt.",
          schema: { type: "integer" },
        },
      },
      content: { "application/problem+json": { schema: ProblemSchema } },
    },
  },
});

export function registerAuthCreateSession(app: Router): void {
  app.openapi(route, async (c) => {
    // Set by Cloudflare's edge (a client cannot forge it there); absent when the Worker is called otherwise.
    const session = await signIn(c.env, c.req.valid("json"), c.req.header("cf-connecting-ip") ?? null);
    setSessionCookie(c, session.token, SESSION_TTL_SECONDS);
    c.header("Cache-Control", "no-store");
    return c.json(session, 201);
  });
}
