import { env } from "cloudflare:workers";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@neondatabase/serverless";
import { db } from "../helpers/gallery";

/**
 * Scratch databases and migration folders for the migrator's suites. A scratch database is created on the run's
 * server (through the local Neon endpoint, as the Workers reach it) and dropped by the suite; a folder lives in
 * workerd's in-memory /tmp.
 */

/** A session on `url` over the Neon driver's WebSocket client (pg's `query` interface). */
export async function connect(url: string): Promise<Client> {
  db(); // points the driver at the local endpoint
  const client = new Client({ connectionString: url });
  // The proxy closes the socket once the client has ended; that is not an error of the test.
  client.on("error", () => {});
  await client.connect();
  return client;
}

async function onServer(statement: string): Promise<void> {
  const client = await connect(env.DATABASE_URL);
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** An empty database of its own on the run's server. */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  const name = `migrator_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await onServer(`create database "${name}"`);
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`drop database "${name}" with (force)`) };
}

export interface FolderMigration {
  tag: string;
  sql: string;
  /** The journal's `when`; by default a minute apart in the order given. */
  when?: number;
}

export const BASE_WHEN = Date.UTC(2027, 0, 1);

/** Writes the migrations and their drizzle-kit journal into `dir` (a new temporary folder by default). */
export function migrationsFolder(migrations: FolderMigration[], dir?: string): string {
  const folder = dir ?? mkdtempSync(join(tmpdir(), "migrations-"));
  mkdirSync(join(folder, "meta"), { recursive: true });
  const entries = migrations.map((m, idx) => ({
    idx,
    version: "7",
    when: m.when ?? BASE_WHEN + idx * 60_000,
    tag: m.tag,
    breakpoints: true,
  }));
  for (const m of migrations) writeFileSync(join(folder, `${m.tag}.sql`), m.sql);
  writeFileSync(
    join(folder, "meta", "_journal.json"),
    JSON.stringify({ version: "7", dialect: "postgresql", entries }),
  );
  return folder;
}

/** The repository's db/migrations (files byte for byte, from the bundle) copied into a temporary folder. */
export function repositoryMigrations(): { folder: string; files: Record<string, string> } {
  const raw = import.meta.glob("../../db/migrations/**/*.{sql,json}", {
    eager: true,
    query: "?raw",
    import: "default",
  }) as Record<string, string>;
  const folder = mkdtempSync(join(tmpdir(), "db-migrations-"));
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(raw)) {
    const relative = path.replace("../../db/migrations/", "");
    mkdirSync(dirname(join(folder, relative)), { recursive: true });
    writeFileSync(join(folder, relative), text);
    files[relative] = text;
  }
  return { folder, files };
}

/** The rows of drizzle's migrations table, oldest first. */
export async function recorded(client: Client): Promise<{ hash: string; created_at: number }[]> {
  const result = await client.query<{ hash: string; created_at: string }>(
    `select hash, created_at::text as created_at from "drizzle"."__drizzle_migrations" order by created_at, id`,
  );
  return result.rows.map((row) => ({ hash: row.hash, created_at: Number(row.created_at) }));
}

/** The public tables of the database, sorted. */
export async function tables(client: Client): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' order by 1",
  );
  return result.rows.map((row) => row.name);
}
