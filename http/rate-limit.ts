import type { Context } from "hono";
import type { AppEnv } from "../lib/env";
import type { Principal } from "../lib/principal";
import { ApiError } from "../lib/problem";
import {
  policyHeader,
  RATE_LIMIT_POLICIES,
  type RateLimitPolicy,
  rateLimitedHeaders,
} from "../lib/rate-limits";

/**
 * What a request is counted against: its credential's limit, keyed by the credential's id, or, without a valid
 * credential (and for a signed upload URL, which anyone holding the URL presents), its client address. The
 * address is `CF-Connecting-IP`, set by Cloudflare's edge; a request that did not come through it (the tests,
 * a local call) has none and is not counted by address, as for sign-in.
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
    default: {
      const address = c.req.header("cf-connecting-ip");
      return { policy: RATE_LIMIT_POLICIES.client_ip, key: address ? `ip:${address}` : null };
    }
  }
}

/**
 * Counts the request against its limit (the Cloudflare Rate Limiting binding of its credential kind) and refuses
 * it with 429 `rate_limited` past the limit. Called by the authentication gate (http/auth.ts) of every operation,
 * once the credential is resolved and before anything else the operation does; the router writes the policy's
 * `RateLimit-Policy` header on whatever the operation answers (http/app.ts).
 */
export async function countRequest(c: Context<AppEnv>, principal: Principal | null): Promise<void> {
  const { policy, key } = subjectOf(c, principal);
  c.set("rateLimitPolicy", policyHeader(policy));
  if (key === null) return;
  // Local mode only, and only when asked (npm run bench measures the API's own cost far past a key's limit).
  if (c.env.ENVIRONMENT === "local" && c.env.RATE_LIMITS === "off") return;
  const { success } = await c.env[policy.binding].limit({ key });
  if (success) return;
  throw new ApiError(
    "rate_limited",
    `Too many requests: the limit is ${policy.limit} requests every ${policy.period} seconds ${policy.counts}. Retry after \`Retry-After\` seconds (at most ${policy.period}).`,
    { policy: policy.name, limit: policy.limit, window_seconds: policy.period },
    rateLimitedHeaders(policy),
  );
}
