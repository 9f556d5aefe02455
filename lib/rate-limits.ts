import { DependencyError } from "./dependency-failure";
import type { Env } from "./env";
import { ApiError } from "./problem";

/**
 * The request limits of every operation, one per credential kind (docs/decisions.md, "Rate limits"). Each is a
 * Cloudflare Rate Limiting binding (wrangler.toml `[[ratelimits]]`, the mechanism of the sign-in limits): the
 * numbers here say what the bindings are configured with, for the headers and the documentation, and
 * test/platform/rate-limits.test.ts holds them equal to wrangler.toml.
 */
export interface RateLimitPolicy {
  /** The policy's name in `RateLimit-Policy` and `RateLimit`. */
  name: string;
  /** The binding that counts it. */
  binding:
    | "SECRET_KEY_LIMIT"
    | "MEMBER_SESSION_LIMIT"
    | "PUBLISHABLE_TOKEN_LIMIT"
    | "CLIENT_IP_LIMIT"
    | "CONNECTOR_LIMIT"
    | "SIGN_IN_EMAIL_LIMIT"
    | "SIGN_IN_IP_LIMIT";
  /** Requests allowed per window. */
  limit: number;
  /** The window in seconds (the binding allows 10 or 60). */
  period: 10 | 60;
  /** What is counted, in words, for the documentation. */
  counts: string;
  /**
   * When the limiter itself fails (its binding throws): `serve` the request uncounted and log it, or `refuse` it
   * 503 `service_unavailable` naming the rate limiter (docs/decisions.md, "When the rate limiter fails").
   */
  whenUnavailable: "serve" | "refuse";
}

export const RATE_LIMIT_POLICIES = {
  secret: {
    name: "secret_key",
    binding: "SECRET_KEY_LIMIT",
    limit: 1000,
    period: 10,
    counts: "per secret API key (gpk_), by its key id",
    whenUnavailable: "serve",
  },
  session: {
    name: "member_session",
    binding: "MEMBER_SESSION_LIMIT",
    limit: 300,
    period: 10,
    counts: "per member session (gss_)",
    whenUnavailable: "serve",
  },
  publishable: {
    name: "publishable_token",
    binding: "PUBLISHABLE_TOKEN_LIMIT",
    limit: 1000,
    period: 10,
    counts: "per publishable token (gpub_), by its token id",
    whenUnavailable: "serve",
  },
  client_ip: {
    name: "client_ip",
    binding: "CLIENT_IP_LIMIT",
    limit: 600,
    period: 60,
    counts:
      "per client address (`CF-Connecting-IP`), for requests without a valid credential, for signed upload URLs and for the routes that are not operations",
    whenUnavailable: "serve",
  },
  connector: {
    name: "connector",
    binding: "CONNECTOR_LIMIT",
    limit: 600,
    period: 10,
    counts:
      "per inbox connection, for its provider's verified deliveries (`/connectors/…/{connection_id}`, and mail to its inbound address); a delivery that does not verify counts per client address",
    whenUnavailable: "serve",
  },
  sign_in_email: {
    name: "sign_in_email",
    binding: "SIGN_IN_EMAIL_LIMIT",
    limit: 5,
    period: 60,
    counts: "per email address a sign-in attempt names",
    whenUnavailable: "refuse",
  },
  sign_in_ip: {
    name: "sign_in_ip",
    binding: "SIGN_IN_IP_LIMIT",
    limit: 20,
    period: 60,
    counts: "per client address (`CF-Connecting-IP`) of sign-in attempts",
    whenUnavailable: "refuse",
  },
} as const satisfies Record<string, RateLimitPolicy>;

export type RateLimitPolicyKey = keyof typeof RATE_LIMIT_POLICIES;

/**
 * `RateLimit-Policy` (IETF draft httpapi-ratelimit-headers): `"secret_key";q=1000;w=10`; a request counted against
 * more than one limit (sign-in) names each, as a list.
 */
export function policyHeader(...policies: RateLimitPolicy[]): string {
  if (policies.length === 1) {
    const policy = policies[0] as RateLimitPolicy;
    let header = singleHeaders.get(policy);
    if (header === undefined) {
      header = policyItem(policy);
      singleHeaders.set(policy, header);
    }
    return header;
  }
  return policies.map(policyItem).join(", ");
}

const policyItem = (policy: RateLimitPolicy) => `"${policy.name}";q=${policy.limit};w=${policy.period}`;

/** Every request sends its policy's header: written once per policy and isolate. */
const singleHeaders = new WeakMap<RateLimitPolicy, string>();

/**
 * `RateLimit` of a refused request: none left (`r=0`) and at most the whole window to wait (`t`). The binding
 * answers only whether a request is within the limit, not how many remain nor when its window ends, so a
 * successful answer carries no `RateLimit` header and a refusal names the longest wait.
 */
export function exhaustedHeader(policy: RateLimitPolicy): string {
  return `"${policy.name}";r=0;t=${policy.period}`;
}

/** The headers of a 429 past `policy`. */
export function rateLimitedHeaders(policy: RateLimitPolicy): Record<string, string> {
  return {
    "Retry-After": String(policy.period),
    RateLimit: exhaustedHeader(policy),
    "RateLimit-Policy": policyHeader(policy),
  };
}

/**
 * Counts one request against `policy` under `key` (the policy's Cloudflare Rate Limiting binding) and refuses it
 * with 429 `rate_limited` past the limit: `retry: after_delay`, `Retry-After`, `RateLimit` and the policy in
 * `RateLimit-Policy`. The one place a limit is enforced, for the operations, the other routes and sign-in alike.
 */
export async function enforceRateLimit(
  env: Pick<Env, RateLimitPolicy["binding"] | "ENVIRONMENT" | "RATE_LIMITS">,
  policy: RateLimitPolicy,
  key: string,
  detail = `Too many requests: the limit is ${policy.limit} requests every ${policy.period} seconds ${policy.counts}. Retry after \`Retry-After\` seconds (at most ${policy.period}).`,
): Promise<void> {
  // Local mode only, and only when asked (npm run bench measures the API's own cost far past a key's limit).
  if (env.ENVIRONMENT === "local" && env.RATE_LIMITS === "off") return;
  let success: boolean;
  try {
    ({ success } = await env[policy.binding].limit({ key }));
  } catch (error) {
    // The limiter failing is not the caller's doing: most limits let the request through (counted by nothing but
    // this log line); sign-in's refuse it, 503 naming the rate limiter (lib/dependency-failure.ts).
    if (policy.whenUnavailable === "refuse") throw new DependencyError("rate_limiter", policy.binding, error);
    console.error(
      JSON.stringify({
        rate_limit: "limiter failed; request served uncounted",
        policy: policy.name,
        error: String(error),
      }),
    );
    return;
  }
  if (success) return;
  throw new ApiError(
    "rate_limited",
    detail,
    { policy: policy.name, limit: policy.limit, window_seconds: policy.period },
    rateLimitedHeaders(policy),
  );
}
