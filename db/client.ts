import { neon, neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle as drizzleHttp, type NeonHttpDatabase } from "drizzle-orm/neon-http";
import { drizzle as drizzlePool, type NeonDatabase } from "drizzle-orm/neon-serverless";
import { PgDialect } from "drizzle-orm/pg-core";
import { DependencyError } from "../lib/dependency-failure";
import type { Env } from "../lib/env";

export type Db = NeonHttpDatabase;
export type PoolDb = NeonDatabase;

/** The local endpoint of each database address this isolate was given (`hostname:port` of DATABASE_URL). */
const localEndpoints = new Map<string, { given: string; url: URL }>();

function databaseAddress(hostname: string, port: string | number): string {
  return `${hostname}:${port || 5432}`;
}

/** The local endpoint serving the database at `hostname:port`; set by configureDriver before any query to it. */
function endpointOf(hostname: string, port: string | number): URL {
  const endpoint = localEndpoints.get(databaseAddress(hostname, port));
  if (!endpoint) throw new Error("No local Neon endpoint for this database (NEON_LOCAL_ENDPOINT unset)");
  return endpoint.url;
}

/**
 * Points the production driver at the bundled local Neon endpoint when NEON_LOCAL_ENDPOINT is set (local stack
 * and tests); in production the driver talks to Neon directly and nothing here changes. The driver's settings are
 * global to the isolate, so the endpoint is chosen by the address of the connection string, not by the last
 * call: requests of one isolate given different databases and endpoints each reach their own.
 */
function configureDriver(env: Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">): void {
  const endpoint = env.NEON_LOCAL_ENDPOINT;
  if (!endpoint) return;
  const address = addressOf(env.DATABASE_URL);
  if (localEndpoints.get(address)?.given === endpoint) return;
  localEndpoints.set(address, { given: endpoint, url: new URL(endpoint) });
  neonConfig.fetchEndpoint = (hostname, port) => `${endpointOf(hostname, port).origin}/sql`;
  neonConfig.wsProxy = (hostname, port) =>
    `${endpointOf(hostname, port).host}/v2?address=${hostname}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
}

/** Each connection string's database address, parsed once per isolate (two URL parses a request otherwise). */
const addresses = new Map<string, string>();

function addressOf(given: string): string {
  let address = addresses.get(given);
  if (address === undefined) {
    // Read as the driver reads it (as an http: URL, so its host is normalised the same way).
    const database = new URL(`http:${given.slice(new URL(given).protocol.length)}`);
    address = databaseAddress(database.hostname, database.port);
    addresses.set(given, address);
  }
  return address;
}

type Typing = ReturnType<PgDialect["prepareTyping"]>;
const typings = new WeakMap<object, Typing>();

/**
 * drizzle works out a type hint for every parameter of every statement it renders (`prepareTyping`: up to nine
 * `is()` checks, each walking the column's class chain), which neither Neon driver reads; for a write with an
 * insert of every artwork column it was the largest part of rendering the batch. The hint depends only on the
 * parameter's column (its encoder), so each database object's dialect keeps it per column, worked out once.
 */
function rememberTypings<D extends object>(db: D): D {
  const dialect = (db as { dialect?: unknown }).dialect;
  if (!(dialect instanceof PgDialect)) throw new Error("drizzle's database object has no PgDialect");
  dialect.prepareTyping = (encoder) => {
    if (typeof encoder !== "object" || encoder === null) {
      return PgDialect.prototype.prepareTyping.call(dialect, encoder);
    }
    let typing = typings.get(encoder);
    if (typing === undefined) {
      typing = PgDialect.prototype.prepareTyping.call(dialect, encoder);
      typings.set(encoder, typing);
    }
    return typing;
  };
  return db;
}

/** The HTTP client holds no per-request state, so an isolate makes one per connection string and reuses it. */
const httpDbs = new Map<string, Db>();

/** One-shot queries and batches (`db.batch`, one transaction in one HTTP round trip). */
export function httpDb(env: Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">): Db {
  configureDriver(env);
  let db = httpDbs.get(env.DATABASE_URL);
  if (!db) {
    db = rememberTypings(drizzleHttp({ client: neon(env.DATABASE_URL) }));
    httpDbs.set(env.DATABASE_URL, db);
  }
  return db;
}

/**
 * An interactive transaction over the WebSocket Pool, for the rare write that must read before it writes
 * inside one transaction. The pool lives only for this call.
 *
 * The pool's connection failing (the WebSocket refused or dropped, an ErrorEvent saying only "Network connection
 * lost.") is a DependencyError naming the database, so the router answers it 503 (lib/dependency-failure.ts);
 * what the work itself throws is left as it is.
 */
export async function withPoolTransaction<T>(
  env: Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">,
  ctx: Pick<ExecutionContext, "waitUntil"> | undefined,
  work: (tx: PoolDb) => Promise<T>,
): Promise<T> {
  configureDriver(env);
  const pool = new Pool({ connectionString: env.DATABASE_URL });
  let connectionError: unknown = null;
  pool.on("error", (error: unknown) => {
    connectionError ??= error;
  });
  try {
    const client = await pool.connect().catch((error: unknown) => {
      throw new DependencyError("database", "pool", error);
    });
    client.on("error", (error: unknown) => {
      connectionError ??= error;
    });
    try {
      const db = rememberTypings(drizzlePool({ client }));
      return await db.transaction((tx) => work(tx as unknown as PoolDb));
    } catch (error) {
      // A query the dropped connection failed throws pg's own words; the connection's error says why.
      if (connectionError) throw new DependencyError("database", "pool", connectionError);
      throw error;
    } finally {
      client.release();
    }
  } finally {
    if (ctx) ctx.waitUntil(pool.end());
    else await pool.end();
  }
}
