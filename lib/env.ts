import type { Principal } from "./principal";

/** Bindings every Worker of the project receives (wrangler.toml, `.dev.vars`, or secrets in production). */
export interface Env {
  /** Postgres connection string (Neon in production). */
  DATABASE_URL: string;
  /** Set only locally and in tests: origin of the bundled local Neon endpoint (HTTP /sql + WebSocket proxy). */
  NEON_LOCAL_ENDPOINT?: string;
  /** Server secret: the pagination cursor key is derived from it (HKDF), and it signs upload URLs. */
  SIGNING_SECRET: string;
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
