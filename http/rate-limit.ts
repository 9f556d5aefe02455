import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../lib/env";
import type { Principal } from "../lib/principal";
import {
  enforceRateLimit,
  policyHeader,
  RATE_LIMIT_POLICIES,
  type RateLimitPolicy,
} from "../lib/rate-limits";

/**
 * What a request is counted against: its credential's limit, keyed by the credential's id, or, without a valid
 * credential (and for a signed upload URL, which anyone holding the URL presents, and for every route that is not
 * an operation), its client address. The address is `CF-Connecting-IP`, set by Cloudflare's edge; a request that
 * did not come through it (the tests, a local call) has none and is not counted by address, as for sign-in.
 */
function subjectOf(
  c: Context<AppEnv>,
  principal: Principal | null,
): { policy: RateLimitPolicy; key: string | null } {
  switch (principal?.kind) {
    case "secret":
      return { policy: RATE_LIMIT_POLICIES.secret, key: `key:${principal.credentialId}` };
    case "session":
      return { policy: RATE_LIMIT_POLICIES.session, key: `session:${principal.credentialId}` };
    case "publishable":
      return { policy: RATE_LIMIT_POLICIES.publishable, key: `token:${principal.credentialId}` };
    case "connector":
      return { policy: RATE_LIMIT_POLICIES.connector, key: `connection:${principal.credentialId}` };
    default: {
      const address = clientAddress(c);
      return { policy: RATE_LIMIT_POLICIES.client_ip, key: address ? `ip:${address}` : null };
    }
  }
}

/** The client's address as Cloudflare's edge sets it (a client cannot forge it there); null when not called through it. */
export function clientAddress(c: Context<AppEnv>): string | null {
  return c.req.header("cf-connecting-ip") || null;
}

/**
 * Counts the request against its limit (the Cloudflare Rate Limiting binding of its credential kind) and refuses
 * it with 429 `rate_limited` past the limit; `times` for a request that carries several calls
 * (AuthRequirement.requestCount), none for one marked `countedAlready`. Called by the authentication gate (http/auth.ts) of every operation,
 * once the credential is resolved and before anything else the operation does, and by `countOtherRequests` for
 * every other route; the router writes the policy's `RateLimit-Policy` header on whatever is answered
 * (http/app.ts).
 */
export async function countRequest(
  c: Context<AppEnv>,
  principal: Principal | null,
  times = 1,
): Promise<void> {
  const { policy, key } = subjectOf(c, principal);
  c.set("rateLimitPolicy", policyHeader(policy));
  if (key === null || countedBefore.has(c.req.raw)) return;
  for (let n = 0; n < times; n++) await enforceRateLimit(c.env, policy, key);
}

/** Requests made on behalf of one already counted (an MCP tool call's API request): not counted again. */
const countedBefore = new WeakSet<Request>();

/**
 * Marks a request the Worker makes to itself for a call already counted against the same credential (an MCP
 * message counts each call it carries): the gate lets it through uncounted. Only the Worker's own code holds the
 * Request object, so no client can mark one.
 */
export function countedAlready(request: Request): Request {
  countedBefore.add(request);
  return request;
}

/** The handlers that count their route's requests themselves (the authentication gates, sign-in's limit). */
const countingHandlers = new WeakSet<object>();

/** Marks a route handler (a middleware) as the one that counts its route's requests against a rate limit. */
export function countsItsRequests<H extends MiddlewareHandler<AppEnv>>(handler: H): H {
  countingHandlers.add(handler);
  return handler;
}

/**
 * Every request is counted once. An operation's is counted by its authentication gate, sign-in's by its own
 * limits; every other request (the meta routes, the OpenAPI document, the reference page, stored images, an
 * unknown path's 404, a known path's 405 and a preflight) is counted here, by client address, before it is
 * answered. Run by the top router on every request: it looks at the routes the request matched for a handler
 * marked with `countsItsRequests`.
 */
export const countOtherRequests: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Mounted routers have no error handler of their own (http/app.ts), so Hono keeps their handlers as they are.
  const counted = matchedRoutes(c).some(({ handler }) => countingHandlers.has(handler));
  if (!counted) await countRequest(c, null);
  await next();
};
