import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { SESSION_TTL_SECONDS } from "../../db/queries/sessions";
import type { Router } from "../../http/app";
import { clientAddress, countsItsRequests } from "../../http/rate-limit";
import type { AppEnv } from "../../lib/env";
import {
  bodyProblemResponses,
  ProblemSchema,
  problemResponses,
  rateLimitedHeadersDoc,
} from "../../lib/problem";
import { enforceRateLimit, policyHeader, RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import { CreatedSession, SessionCreate } from "../../lib/schemas/auth";
import { signIn } from "../../services/auth/sessions";
import { setSessionCookie } from "./cookie";

const { sign_in_email: byEmail, sign_in_ip: byAddress } = RATE_LIMIT_POLICIES;

/**
 * Sign-in's own limits, in place of an operation's: every attempt is counted by its client address here, before
 * its body is read (so a malformed one counts too), and by its email in the service (services/auth/sessions.ts).
 * Every answer names both in `RateLimit-Policy`.
 */
const limitSignInAddress = countsItsRequests<MiddlewareHandler<AppEnv>>(async (c, next) => {
  c.set("rateLimitPolicy", policyHeader(byEmail, byAddress));
  const address = clientAddress(c);
  if (address) {
    await enforceRateLimit(
      c.env,
      byAddress,
      `ip:${address}`,
      `Too many sign-in attempts from this address: the limit is ${byAddress.limit} a minute. Retry in ${byAddress.period} seconds.`,
    );
  }
  await next();
});

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
  description: `Exchanges a member's email and password for a session (\`gss_…\`, valid 30 days). The token is returned once and also set as the HttpOnly cookie \`gallery_session\` (Secure, SameSite=Lax, Path=/v1). An unknown email, a wrong password and a disabled member all answer the same 401, in the same time. Attempts are limited per email (${byEmail.limit} a minute) and per client address (${byAddress.limit} a minute), named in \`RateLimit-Policy\` on every answer: beyond either, 429 \`rate_limited\` with \`Retry-After\` and \`RateLimit\`. Not idempotent: every success issues a new session.`,
  middleware: [limitSignInAddress] as const,
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
      description: `Too many sign-in attempts for this email or from this client address (\`rate_limited\`, \`retry: after_delay\`; \`details.policy\` says which). Wait \`Retry-After\` seconds (at most ${Math.max(byEmail.period, byAddress.period)}).`,
      headers: rateLimitedHeadersDoc,
      content: { "application/problem+json": { schema: ProblemSchema } },
    },
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
