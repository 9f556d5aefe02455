import type { EngineMessage } from "./engine-queue";
import type { MailService } from "./inbound-mail";
import type { McpService } from "./mcp";
import type { Principal } from "./principal";
import type { WebhookTicket } from "./webhook-queue";

/** Bindings every Worker of the project receives (wrangler.toml, `.dev.vars`, or secrets in production). */
export interface Env {
  /** Postgres connection string (Neon in production). */
  DATABASE_URL: string;
  /** Set only locally and in tests: origin of the bundled local Neon endpoint (HTTP /sql + WebSocket proxy). */
  NEON_LOCAL_ENDPOINT?: string;
  /** Server secret: the pagination cursor key is derived from it (HKDF), and it signs upload URLs. */
  SIGNING_SECRET: string;
  /**
   * AES-256-GCM key (base64 of 32 bytes) sealing webhook signing secrets at rest (lib/secret-box.ts). Only the
   * API Worker (sealing new secrets) and the cron Worker (opening them to sign) hold it.
   */
  WEBHOOK_SECRET_KEY: string;
  /** During a rotation of WEBHOOK_SECRET_KEY: the former key, still opening what it sealed. */
  WEBHOOK_SECRET_KEY_PREVIOUS?: string;
  /**
   * The public origin (and path prefix, if any) the API is reached at, without `/v1`: `https://api.example.com`.
   * Problem `type` URLs and the OpenAPI `servers` entry are built from it, never from the request's Host header.
   */
  PUBLIC_BASE_URL: string;
  /**
   * The domain whose mail Cloudflare Email Routing sends to the API Worker's email handler (which passes it on to
   * the Email Worker): an email connection's inbound address is `in+<token>@` this domain. Without it, `inbox.`
   * and the host of PUBLIC_BASE_URL.
   */
  INBOUND_EMAIL_DOMAIN?: string;
  /** `production` refuses webhook URLs on private networks; `local` allows them for tests. */
  ENVIRONMENT?: string;
  /** `off` stops counting requests against the rate limits, in local mode only (the API bench sets it). */
  RATE_LIMITS?: string;
  /** Sign-in attempts per email address (Cloudflare Rate Limiting binding; wrangler.toml `[[ratelimits]]`). */
  SIGN_IN_EMAIL_LIMIT: RateLimit;
  /** Sign-in attempts per client IP address. */
  SIGN_IN_IP_LIMIT: RateLimit;
  /** Requests per secret API key, by key id (lib/rate-limits.ts, wrangler.toml `[[ratelimits]]`). */
  SECRET_KEY_LIMIT: RateLimit;
  /** Requests per member session. */
  MEMBER_SESSION_LIMIT: RateLimit;
  /** Requests per publishable token, by token id. */
  PUBLISHABLE_TOKEN_LIMIT: RateLimit;
  /** Requests per client address without a valid credential, and through signed upload URLs. */
  CLIENT_IP_LIMIT: RateLimit;
  /** A provider's verified deliveries per inbox connection (the connectors). */
  CONNECTOR_LIMIT: RateLimit;
  /** The API Worker's static assets (wrangler.toml `[assets]`): the reference page's bundle. */
  ASSETS?: Fetcher;
  /**
   * The edge's small hot records, in one namespace so that a request reads what it needs of them in one call
   * (http/edge-reads.ts): credentials (lib/credentials.ts), idempotent replays (lib/idempotency.ts) and each
   * gallery's public generation (lib/public-surface.ts), which the cron Worker moves. Both Workers bind it.
   */
  EDGE_KV: KVNamespace;
  UPLOADS: R2Bucket;
  /**
   * The engine Queue's producer (`gallery-engine`): the API Worker sends the subjects a write marked stale, the
   * cron Worker's sweep those left stale too long. Absent, marked subjects wait for the sweep.
   */
  ENGINE_QUEUE?: Queue<EngineMessage>;
  /**
   * The webhook Queue (`gallery-webhooks`), bound in the cron Worker only: its drain sends one ticket per endpoint
   * with due deliveries, and its consumer sends them. Absent (tests), tickets are returned to the caller.
   */
  WEBHOOK_QUEUE?: Queue<WebhookTicket>;
  /**
   * The Email Worker (wrangler.email.toml), bound in the API Worker: its email handler passes each routed mail on
   * to it, which reads and stores it (functions/email.ts).
   */
  MAIL: MailService;
  /**
   * The MCP Worker (wrangler.mcp.toml), bound in the API Worker: it serves POST /v1/mcp once the API's gate has
   * authenticated the request (functions/mcp/index.ts, functions/mcp/worker.ts).
   */
  MCP: McpService;
}

export interface Variables {
  requestId: string;
  principal: Principal;
  /** The `RateLimit-Policy` of the limit the request was counted against (http/rate-limit.ts), once counted. */
  rateLimitPolicy?: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: Variables;
}

/** The settings a Worker cannot answer without, each with what is wrong; empty when all are in place. */
export function missingSettings(env: Partial<Env> | undefined): string[] {
  const missing: string[] = [];
  if (!env?.DATABASE_URL) missing.push("DATABASE_URL is not set");
  if (!env?.SIGNING_SECRET) missing.push("SIGNING_SECRET is not set");
  if (!env?.PUBLIC_BASE_URL) missing.push("PUBLIC_BASE_URL is not set");
  else if (!/^https?:\/\/[^/]/.test(env.PUBLIC_BASE_URL))
    missing.push(`PUBLIC_BASE_URL must be an absolute http(s) URL, got "${env.PUBLIC_BASE_URL}"`);
  return missing;
}

/** PUBLIC_BASE_URL without a trailing slash. */
export function publicBaseUrl(env: Pick<Env, "PUBLIC_BASE_URL">): string {
  return env.PUBLIC_BASE_URL.replace(/\/+$/, "");
}

/** The inbound mail domain (INBOUND_EMAIL_DOMAIN, else `inbox.` and the host of PUBLIC_BASE_URL), lower-cased. */
export function inboundEmailDomain(env: Pick<Env, "PUBLIC_BASE_URL" | "INBOUND_EMAIL_DOMAIN">): string {
  const configured = env.INBOUND_EMAIL_DOMAIN?.trim();
  if (configured) return configured.toLowerCase();
  return `inbox.${new URL(publicBaseUrl(env)).hostname.toLowerCase()}`;
}
