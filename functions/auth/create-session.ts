import { createRoute } from "@hono/zod-openapi";
import { SESSION_TTL_SECONDS } from "../../db/queries/sessions";
import type { Router } from "../../lib/http/app";
import { bodyProblemResponses, problemResponses } from "../../lib/problem";
import { CreatedSession, SessionCreate } from "../../lib/schemas/auth";
import { signIn } from "../../services/auth/sessions";
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
    const session = await signIn(c.env, c.req.valid("json"));
    setSessionCookie(c, session.token, SESSION_TTL_SECONDS);
    c.header("Cache-Control", "no-store");
    return c.json(session, 201);
  });
}
