/**
 * The project's migrator (docs/decisions.md, "Migrations: one transaction each, never older code on a newer
 * database"). It reads drizzle-kit's journal (`meta/_journal.json`) and SQL files (statements split by
 * `--> statement-breakpoint`) and records what it applied in drizzle's own table,
 * `drizzle.__drizzle_migrations` (hash = SHA-256 of the file, created_at = the journal's `when`), so databases
 * migrated before it need nothing re-run. Unlike drizzle's migrator it
 * - holds a Postgres advisory lock for the whole run, so two migrators at once apply each migration once;
 * - refuses, before applying anything, a database that records a migration this code does not know (one
 *   migrated by a newer release), and a pending migration with a statement that cannot run in a transaction;
 * - applies each pending migration in a transaction of its own, recorded in that same transaction: a failing
 *   one leaves the schema as the one before it left it, is reported by file, statement, message and SQLSTATE,
 *   and stops the run.
 *
 * It takes any connected client with pg's `query(text, values)` (pg's Client in Node, the Neon driver's Client
 * in workerd) and only node:fs, node:path and node:crypto, so the tests run it inside workerd too.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A connected session: pg's Client and @neondatabase/serverless's Client both fit. */
export interface MigrationClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Migration {
  /** The file's name without `.sql` (the journal's `tag`). */
  tag: string;
  /** The journal's `when` (milliseconds), recorded as `created_at`. */
  when: number;
  /** SHA-256 (hex) of the file's text, recorded as `hash`, as drizzle computes it. */
  hash: string;
  statements: MigrationStatement[];
}

export interface MigrationStatement {
  /** 1-based position among the file's statements. */
  index: number;
  /** 1-based line of the file where the statement's first line is. */
  line: number;
  text: string;
}

export interface MigrationReport {
  /** Tags applied by this run, in order. */
  applied: string[];
  /** Tags the database already had. */
  alreadyApplied: number;
}

/** A refusal or a failure the migrator explains in words; `message` is all a person needs (no stack). */
export class MigrationError extends Error {
  constructor(
    message: string,
    readonly kind: "failed" | "database-ahead" | "not-transactional" | "folder",
  ) {
    super(message);
    this.name = "MigrationError";
  }
}

/** Drizzle's table, kept so databases migrated by drizzle's migrator go on without a re-run. */
const TABLE = `"drizzle"."__drizzle_migrations"`;
/** The advisory lock every migrator of this project takes (an arbitrary constant, "gallery migrations"). */
export const MIGRATION_LOCK_KEY = 7_263_118_402_551_001n;

export const STATEMENT_BREAKPOINT = "--> statement-breakpoint";

/** Reads the journal and every file it lists; a missing journal or file is a MigrationError. */
export function readMigrations(folder: string): Migration[] {
  const journalPath = join(folder, "meta", "_journal.json");
  if (!existsSync(journalPath)) throw new MigrationError(`no journal at ${journalPath}`, "folder");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map((entry) => {
    const path = join(folder, `${entry.tag}.sql`);
    if (!existsSync(path)) {
      throw new MigrationError(`the journal lists ${entry.tag} but ${path} does not exist`, "folder");
    }
    const text = readFileSync(path, "utf8");
    return {
      tag: entry.tag,
      when: entry.when,
      hash: createHash("sha256").update(text).digest("hex"),
      statements: splitStatements(text),
    };
  });
}

/** The file's statements as drizzle splits them, with where each starts; blank ones are left out. */
export function splitStatements(text: string): MigrationStatement[] {
  const statements: MigrationStatement[] = [];
  let line = 1;
  let index = 0;
  for (const chunk of text.split(STATEMENT_BREAKPOINT)) {
    index += 1;
    const lines = chunk.split("\n");
    const first = firstCodeLine(lines);
    if (first !== -1) statements.push({ index, line: line + first, text: chunk });
    line += countNewlines(chunk);
  }
  return statements;
}

function countNewlines(text: string): number {
  let n = 0;
  for (const c of text) if (c === "\n") n += 1;
  return n;
}

/** Index of the first line that is neither blank nor a comment (else the first not blank; -1 when all are). */
function firstCodeLine(lines: string[]): number {
  const code = lines.findIndex((l) => l.trim() !== "" && !l.trim().startsWith("--"));
  return code !== -1 ? code : lines.findIndex((l) => l.trim() !== "");
}

/** The statement's first line of SQL (past blank lines and comments), for messages. */
export function firstLine(statement: string): string {
  const lines = statement.split("\n");
  const trimmed = (lines[firstCodeLine(lines)] ?? "").trim();
  return trimmed.length > 120 ? `${trimmed.slice(0, 117)}...` : trimmed;
}

/**
 * The statement's SQL with comments, string literals, quoted identifiers (unless `identifiers`) and dollar-quoted
 * bodies blanked out (same length, newlines kept), so keyword rules see only the statement's own words.
 */
export function sqlCode(statement: string, options: { identifiers?: boolean } = {}): string {
  let out = "";
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  while (i < statement.length) {
    const rest = statement.slice(i);
    let end = -1;
    if (rest.startsWith("--")) {
      end = rest.indexOf("\n");
      if (end === -1) end = rest.length;
    } else if (rest.startsWith("/*")) {
      end = rest.indexOf("*/", 2);
      end = end === -1 ? rest.length : end + 2;
    } else if (rest[0] === "'" || (rest[0] === '"' && !options.identifiers)) {
      const quote = rest[0];
      let j = 1;
      while (j < rest.length) {
        if (rest[j] === quote && rest[j + 1] === quote) j += 2;
        else if (rest[j] === quote) break;
        else j += 1;
      }
      end = Math.min(j + 1, rest.length);
    } else {
      const dollar = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(rest);
      if (dollar && !/[A-Za-z0-9_]/.test(statement[i - 1] ?? "")) {
        const close = rest.indexOf(dollar[0], dollar[0].length);
        end = close === -1 ? rest.length : close + dollar[0].length;
      }
    }
    if (end > 0) {
      out += blank(rest.slice(0, end));
      i += end;
    } else {
      out += statement[i];
      i += 1;
    }
  }
  return out;
}

/**
 * Statements PostgreSQL will not run inside a transaction block. None of the migrations has one (each runs in a
 * transaction of its own), and the migrator refuses one rather than run it outside the transaction the rest of
 * its file is in.
 */
const NOT_IN_TRANSACTION: { pattern: RegExp; what: string }[] = [
  { pattern: /\bcreate\s+(unique\s+)?index\s+concurrently\b/i, what: "CREATE INDEX CONCURRENTLY" },
  { pattern: /\bdrop\s+index\s+concurrently\b/i, what: "DROP INDEX CONCURRENTLY" },
  { pattern: /\breindex\b[^;]*\bconcurrently\b/i, what: "REINDEX CONCURRENTLY" },
  {
    pattern: /\balter\s+table\b[^;]*\bdetach\s+partition\b[^;]*\bconcurrently\b/i,
    what: "DETACH PARTITION CONCURRENTLY",
  },
  { pattern: /\bvacuum\b/i, what: "VACUUM" },
  { pattern: /\b(create|drop)\s+database\b/i, what: "CREATE/DROP DATABASE" },
  { pattern: /\b(create|drop)\s+tablespace\b/i, what: "CREATE/DROP TABLESPACE" },
  { pattern: /\balter\s+system\b/i, what: "ALTER SYSTEM" },
];

/** What in the statement cannot run inside a transaction, or undefined. */
export function notTransactional(statement: string): string | undefined {
  const code = sqlCode(statement);
  return NOT_IN_TRANSACTION.find((rule) => rule.pattern.test(code))?.what;
}

interface Recorded {
  hash: string;
  createdAt: number;
}

function describeWhen(when: number): string {
  return Number.isFinite(when) ? new Date(when).toISOString() : String(when);
}

/**
 * Applies the folder's pending migrations over `client` (connected, not inside a transaction). Throws a
 * MigrationError when it refuses or a migration fails; everything applied before a failure stays applied.
 */
export async function applyMigrations(
  client: MigrationClient,
  folder: string,
  options: { log?: (line: string) => void } = {},
): Promise<MigrationReport> {
  const migrations = readMigrations(folder);
  await client.query("set client_min_messages = warning");
  const locked = (await client.query("select pg_try_advisory_lock($1::bigint) as locked", [
    MIGRATION_LOCK_KEY.toString(),
  ])) as { rows: { locked: boolean }[] };
  if (!locked.rows[0]?.locked) {
    options.log?.("another migrator is running on this database; waiting for it to finish");
    await client.query("select pg_advisory_lock($1::bigint)", [MIGRATION_LOCK_KEY.toString()]);
  }
  try {
    await client.query(`create schema if not exists "drizzle"`);
    await client.query(
      `create table if not exists ${TABLE} (id serial primary key, hash text not null, created_at bigint)`,
    );
    const result = (await client.query(
      `select hash, created_at::text as created_at from ${TABLE} order by created_at, id`,
    )) as { rows: { hash: string; created_at: string | null }[] };
    const recorded: Recorded[] = result.rows.map((row) => ({
      hash: row.hash,
      createdAt: Number(row.created_at),
    }));

    refuseUnknown(recorded, migrations);

    const hashes = new Set(recorded.map((r) => r.hash));
    const whens = new Set(recorded.map((r) => r.createdAt));
    // A migration is applied when its text's hash or its journal `when` is recorded: drizzle's own rule is the
    // `when`, and a file edited after it was applied (as happened before the first release) keeps its `when`.
    const pending = migrations.filter((m) => !hashes.has(m.hash) && !whens.has(m.when));

    for (const migration of pending) {
      for (const statement of migration.statements) {
        const what = notTransactional(statement.text);
        if (what) {
          throw new MigrationError(
            `migration ${migration.tag}.sql, statement ${statement.index} (line ${statement.line}: ${firstLine(statement.text)}): ` +
              `${what} cannot run inside a transaction, and every migration runs in one; nothing was applied. ` +
              `Write it so it can (a plain CREATE INDEX, say), or apply it by hand outside this migrator: ` +
              `docs/decisions.md, "Migrations: one transaction each".`,
            "not-transactional",
          );
        }
      }
    }

    const applied: string[] = [];
    for (const migration of pending) {
      await applyOne(client, migration, applied);
      applied.push(migration.tag);
      options.log?.(`applied ${migration.tag}`);
    }
    return { applied, alreadyApplied: migrations.length - pending.length };
  } finally {
    // Ending the session releases the lock too; a session already broken has nothing to release.
    await client
      .query("select pg_advisory_unlock($1::bigint)", [MIGRATION_LOCK_KEY.toString()])
      .catch(() => {});
  }
}

/** A recorded migration the code's journal lacks means the database is newer than the code: refuse. */
function refuseUnknown(recorded: Recorded[], migrations: Migration[]): void {
  const hashes = new Set(migrations.map((m) => m.hash));
  const whens = new Set(migrations.map((m) => m.when));
  const unknown = recorded.filter((r) => !hashes.has(r.hash) && !whens.has(r.createdAt));
  if (unknown.length === 0) return;
  const codeLatest = migrations.at(-1);
  const latest = recorded.at(-1) as Recorded;
  const knownLatest = migrations.find((m) => m.hash === latest.hash || m.when === latest.createdAt);
  const databaseLatest = knownLatest
    ? `${knownLatest.tag} (${describeWhen(latest.createdAt)})`
    : `a migration this code does not have, recorded with the journal time ${describeWhen(latest.createdAt)} (hash ${latest.hash.slice(0, 12)})`;
  const codeSays = codeLatest ? `${codeLatest.tag} (${describeWhen(codeLatest.when)})` : "none";
  throw new MigrationError(
    `the database is newer than this code: it records ${unknown.length} migration(s) this code does not know. ` +
      `The database's latest migration is ${databaseLatest}; this code's latest is ${codeSays}. ` +
      `Nothing was applied. Run the release that wrote those migrations (or a later one), not this one.`,
    "database-ahead",
  );
}

async function applyOne(client: MigrationClient, migration: Migration, applied: string[]): Promise<void> {
  await client.query("begin");
  try {
    for (const statement of migration.statements) {
      try {
        await client.query(statement.text);
      } catch (error) {
        throw failure(migration, statement, error, applied);
      }
    }
    await client.query(`insert into ${TABLE} (hash, created_at) values ($1, $2)`, [
      migration.hash,
      migration.when,
    ]);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
}

function failure(
  migration: Migration,
  statement: MigrationStatement,
  error: unknown,
  applied: string[],
): MigrationError {
  const e = error as { message?: string; code?: string; detail?: string; hint?: string };
  const lines = [
    `migration ${migration.tag}.sql failed at statement ${statement.index} (line ${statement.line}): ${firstLine(statement.text)}`,
    `  ${e.message ?? String(error)}${e.code ? ` (SQLSTATE ${e.code})` : ""}`,
  ];
  if (e.detail) lines.push(`  detail: ${e.detail}`);
  if (e.hint) lines.push(`  hint: ${e.hint}`);
  lines.push(
    `  ${migration.tag} was rolled back; the schema is as the migration before it left it.` +
      (applied.length > 0 ? ` Applied by this run before it: ${applied.join(", ")}.` : ""),
  );
  return new MigrationError(lines.join("\n"), "failed");
}
