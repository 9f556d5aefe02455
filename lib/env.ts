import type { Principal } from "./principal";

/** Bindings every Worker of the project receives (wrangler.toml, `.dev.vars`, or secrets in production). */
export interface Env {
  /** Postgres connection string (Neon in production). */
  DATABASE_URL: string;
  /** Set only locally and in tests: origin of the bundled local Neon endpoint (HTTP /sql + WebSocket proxy). */
  NEON_LOCAL_ENDPOINT?: string;
  /** HMAC secret for pagination cursors and signed upload URLs. */
  SIGNING_SECRET: string;
  /**
   * The public origin (and path prefix, if any) the API is reached at, without `/v1`: `https://api.example.com`.
   * Problem `type` URLs and the OpenAPI `servers` entry are built from it, never from the request's Host header.
   */
  PUBLIC_BASE_URL: string;
  /** `production` refuses webhook URLs on private networks; `local` allows them for tests. */
  ENVIRONMENT?: string;
  AUTH_CACHE: KVNamespace;
  IDEMPOTENCY_CACHE: KVNamespace;
  UPLOADS: R2Bucket;
}

export interface Variables {
  requestId: string;
  principal: Principal;
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
