import { env } from "cloudflare:workers";
import { createHash } from "node:crypto";
import type { Client } from "@neondatabase/serverless";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, MigrationError } from "../../scripts/migrator";
import {
  BASE_WHEN,
  connect,
  migrationsFolder,
  recorded,
  repositoryMigrations,
  type ScratchDatabase,
  scratchDatabase,
  tables,
} from "./scratch";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const scratch: ScratchDatabase[] = [];
const sessions: Client[] = [];

/** A new empty database and a session on it; both go when the suite ends. */
async function freshDatabase(): Promise<{ url: string; client: Client }> {
  const database = await scratchDatabase();
  scratch.push(database);
  const client = await connect(database.url);
  sessions.push(client);
  return { url: database.url, client };
}

afterAll(async () => {
  for (const client of sessions) await client.end();
  for (const database of scratch) await database.drop();
});

/** The error `work` fails with; fails the test when it does not. */
async function failure(work: Promise<unknown>): Promise<MigrationError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MigrationError);
  return error as MigrationError;
}

const GOOD = `CREATE TABLE "shelves" ("id" text PRIMARY KEY NOT NULL);`;
const BAD = [
  `CREATE TABLE "boxes" ("id" text PRIMARY KEY NOT NULL);`,
  `--> statement-breakpoint`,
  `ALTER TABLE "shelves"`,
  `  ADD COLUMN "box_id" text REFERENCES "crates"("id");`,
].join("\n");
const FIXED = [
  `CREATE TABLE "boxes" ("id" text PRIMARY KEY NOT NULL);`,
  `--> statement-breakpoint`,
  `ALTER TABLE "shelves"`,
  `  ADD COLUMN "box_id" text REFERENCES "boxes"("id");`,
].join("\n");

describe("the migrator", () => {
  it("a failing migration is rolled back alone, named by file, statement and SQLSTATE; the fixed one applies alone", async () => {
    const { client } = await freshDatabase();
    const folder = migrationsFolder([
      { tag: "0000_shelves", sql: GOOD },
      { tag: "0001_boxes", sql: BAD },
    ]);
    const error = await failure(applyMigrations(client, folder));
    expect(error.kind).toBe("failed");
    expect(error.message).toContain(
      'migration 0001_boxes.sql failed at statement 2 (line 3): ALTER TABLE "shelves"',
    );
    expect(error.message).toContain('relation "crates" does not exist (SQLSTATE 42P01)');
    // The good one stays applied and recorded; nothing of the bad one is left (its first statement included).
    expect(await tables(client)).toEqual(["shelves"]);
    expect(await recorded(client)).toEqual([{ hash: sha256(GOOD), created_at: BASE_WHEN }]);
    // The session is usable again (the transaction was rolled back, the advisory lock released).
    const locks = await client.query(
      "select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = current_database()",
    );
    expect(locks.rows[0]).toEqual({ n: 0 });

    migrationsFolder(
      [
        { tag: "0000_shelves", sql: GOOD },
        { tag: "0001_boxes", sql: FIXED },
      ],
      folder,
    );
    const report = await applyMigrations(client, folder);
    expect(report).toEqual({ applied: ["0001_boxes"], alreadyApplied: 1 });
    expect(await tables(client)).toEqual(["boxes", "shelves"]);
    expect((await recorded(client)).map((r) => r.hash)).toEqual([sha256(GOOD), sha256(FIXED)]);
  });

  it("a database that records a migration the code lacks is refused before anything is applied", async () => {
    const { client } = await freshDatabase();
    await applyMigrations(client, migrationsFolder([{ tag: "0000_shelves", sql: GOOD }]));
    // A later release applied 0001_labels; this code knows 0000 and 0001_boxes only.
    const newer = BASE_WHEN + 10 * 60_000;
    await client.query(`insert into "drizzle"."__drizzle_migrations" (hash, created_at) values ($1, $2)`, [
      sha256("0001_labels"),
      newer,
    ]);
    const before = await recorded(client);
    const folder = migrationsFolder([
      { tag: "0000_shelves", sql: GOOD },
      { tag: "0001_boxes", sql: FIXED },
    ]);
    const error = await failure(applyMigrations(client, folder));
    expect(error.kind).toBe("database-ahead");
    expect(error.message).toContain("the database is newer than this code");
    expect(error.message).toContain(`recorded with the journal time ${new Date(newer).toISOString()}`);
    expect(error.message).toContain(
      `this code's latest is 0001_boxes (${new Date(BASE_WHEN + 60_000).toISOString()})`,
    );
    expect(await tables(client)).toEqual(["shelves"]);
    expect(await recorded(client)).toEqual(before);

    // An unknown one older than the code's latest (a branch's migration this code never had) is refused too.
    await client.query(`update "drizzle"."__drizzle_migrations" set created_at = $1 where created_at = $2`, [
      BASE_WHEN + 30_000,
      newer,
    ]);
    expect((await failure(applyMigrations(client, folder))).kind).toBe("database-ahead");
    expect(await tables(client)).toEqual(["shelves"]);
  });

  it("two migrators at once apply each migration exactly once", async () => {
    const { url, client } = await freshDatabase();
    const other = await connect(url);
    sessions.push(other);
    // Each migration takes a while and would fail if run twice (a second CREATE TABLE of the same name).
    const folder = migrationsFolder(
      ["shelves", "boxes", "labels"].map((name, i) => ({
        tag: `000${i}_${name}`,
        sql: `SELECT pg_sleep(0.2);\n--> statement-breakpoint\nCREATE TABLE "${name}" ("id" text PRIMARY KEY);`,
      })),
    );
    const reports = await Promise.all([applyMigrations(client, folder), applyMigrations(other, folder)]);
    expect(reports.map((r) => r.applied.length).sort()).toEqual([0, 3]);
    expect(reports.find((r) => r.applied.length === 0)?.alreadyApplied).toBe(3);
    expect(await tables(client)).toEqual(["boxes", "labels", "shelves"]);
    expect((await recorded(client)).length).toBe(3);
  });

  it("a pending migration that cannot run in a transaction is refused, and nothing of the run is applied", async () => {
    const { client } = await freshDatabase();
    const folder = migrationsFolder([
      { tag: "0000_shelves", sql: GOOD },
      {
        tag: "0001_shelves_name",
        sql: `ALTER TABLE "shelves" ADD COLUMN "name" text;\n--> statement-breakpoint\n-- by name\nCREATE INDEX CONCURRENTLY "shelves_name_idx" ON "shelves" ("name");`,
      },
    ]);
    const error = await failure(applyMigrations(client, folder));
    expect(error.kind).toBe("not-transactional");
    expect(error.message).toContain(
      `migration 0001_shelves_name.sql, statement 2 (line 4: CREATE INDEX CONCURRENTLY "shelves_name_idx" ON "shelves" ("name");): CREATE INDEX CONCURRENTLY cannot run inside a transaction`,
    );
    expect(await tables(client)).toEqual([]);
    expect(await recorded(client)).toEqual([]);
  });

  it("the repository's migrations apply to an empty database, as the run's own were, and a second run applies nothing", async () => {
    const { folder, files } = repositoryMigrations();
    const journal = JSON.parse(files["meta/_journal.json"] as string) as { entries: { tag: string }[] };
    const { client } = await freshDatabase();
    const first = await applyMigrations(client, folder);
    expect(first.applied).toEqual(journal.entries.map((e) => e.tag));
    expect(await applyMigrations(client, folder)).toEqual({
      applied: [],
      alreadyApplied: first.applied.length,
    });
    // The run's database was migrated in Node from db/migrations itself (test/global-setup.ts): the same files
    // (same hashes) and the same tables.
    const run = await connect(env.DATABASE_URL);
    sessions.push(run);
    expect(await recorded(client)).toEqual(await recorded(run));
    expect(await tables(client)).toEqual(await tables(run));
    // And that database, migrated before, is up to date for this migrator (nothing to re-run).
    expect(await applyMigrations(run, folder)).toEqual({ applied: [], alreadyApplied: first.applied.length });
  });
});
