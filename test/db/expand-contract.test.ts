import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { destructiveStatements, isContractMigration } from "../../scripts/migration-rules";
import { applyMigrations } from "../../scripts/migrator";
import { connect, repositoryMigrations, scratchDatabase } from "./scratch";

/**
 * Expand, deploy, contract (docs/decisions.md, "Migrations: expand, deploy, contract"): a migration runs before
 * the Workers that need it are deployed, so it must not break the Workers of the release before. Whatever could
 * (a drop, a rename, a new type, a stricter column) is a contract migration, declared in its header, naming the
 * release that stopped using the thing.
 */

/**
 * The last migration written before the first release (CHANGELOG.md: no version has been deployed yet): no
 * live gallery ran the Workers before these, so they were free to drop and retype. After it, the rule holds.
 */
const BEFORE_FIRST_RELEASE = "0020_inbox_connectors";

/** What the rule finds in those, so an edit to one of them (or to the rule) is seen here. */
const FOUND_BEFORE_FIRST_RELEASE: Record<string, string[]> = {
  "0005_idempotency_response_text": ["1: ALTER COLUMN TYPE"],
  "0006_artworks_whole": ["1: ALTER COLUMN TYPE", "33: SET NOT NULL"],
  "0007_contacts_crm": ["30: SET NOT NULL", "45: DROP COLUMN"],
  "0008_inbox_invoices_fair_runs": ["49: DROP COLUMN", "53: DROP COLUMN"],
  "0014_matcher": ["24: SET NOT NULL", "25: SET NOT NULL"],
};

function migrations(): { tag: string; text: string }[] {
  const { files } = repositoryMigrations();
  const journal = JSON.parse(files["meta/_journal.json"] as string) as { entries: { tag: string }[] };
  return journal.entries.map((e) => ({ tag: e.tag, text: files[`${e.tag}.sql`] as string }));
}

const found = (text: string) => destructiveStatements(text).map((f) => `${f.line}: ${f.rule}`);

describe("expand and contract", () => {
  it("no migration after the first release drops, renames, retypes or tightens unless it is a contract migration", () => {
    const all = migrations();
    const baseline = all.findIndex((m) => m.tag === BEFORE_FIRST_RELEASE);
    expect(baseline).toBeGreaterThanOrEqual(0);
    const before: Record<string, string[]> = {};
    for (const m of all.slice(0, baseline + 1)) {
      if (found(m.text).length > 0) before[m.tag] = found(m.text);
    }
    expect(before).toEqual(FOUND_BEFORE_FIRST_RELEASE);
    const undeclared = all
      .slice(baseline + 1)
      .filter((m) => !isContractMigration(m.text))
      .flatMap((m) => found(m.text).map((f) => `${m.tag}.sql line ${f}`));
    expect(undeclared).toEqual([]);
  });

  it("0020_inbox_connectors, an expand migration, finds nothing: new tables, nullable columns or defaults, a backfill", () => {
    const m = migrations().find((x) => x.tag === "0020_inbox_connectors");
    expect(m?.text).toContain('ADD COLUMN "inbound_token" text;');
    expect(found(m?.text as string)).toEqual([]);
  });

  it("the rule finds each kind of change that breaks the Workers of the release before", () => {
    const cases: [string, string][] = [
      [`DROP TABLE "inbox_drafts";`, "DROP TABLE"],
      [`ALTER TABLE "contacts" DROP COLUMN "fax";`, "DROP COLUMN"],
      [`ALTER TABLE contacts DROP fax;`, "DROP COLUMN"],
      [`ALTER TABLE "contacts" RENAME COLUMN "fax" TO "telefax";`, "RENAME"],
      [`ALTER TABLE "contacts" RENAME TO "people";`, "RENAME"],
      [`ALTER TABLE "contacts" ALTER COLUMN "rank" SET DATA TYPE bigint;`, "ALTER COLUMN TYPE"],
      [`ALTER TABLE "contacts" ALTER "rank" TYPE bigint;`, "ALTER COLUMN TYPE"],
      [`ALTER TABLE "contacts" ALTER COLUMN "email" SET NOT NULL;`, "SET NOT NULL"],
      [`ALTER TABLE "contacts" ADD COLUMN "tier" text NOT NULL;`, "ADD COLUMN NOT NULL without a default"],
      [`DROP FUNCTION invoice_total_cents(bigint);`, "DROP FUNCTION"],
      [`DROP VIEW "open_invoices";`, "DROP VIEW"],
      [`TRUNCATE "inbox_messages";`, "TRUNCATE"],
    ];
    for (const [sql, rule] of cases) expect(found(sql), sql).toEqual([`1: ${rule}`]);
    const safe = [
      `ALTER TABLE "contacts" ADD COLUMN "tier" text;`,
      `ALTER TABLE "contacts" ADD COLUMN "tier" text DEFAULT 'a' NOT NULL;`,
      `ALTER TABLE "contacts" ALTER COLUMN "tier" DROP DEFAULT;`,
      `ALTER TABLE "contacts" DROP CONSTRAINT "contacts_tier_check";`,
      `CREATE TABLE "tiers" ("id" text);\n--> statement-breakpoint\nALTER TABLE "tiers" ADD COLUMN "n" int NOT NULL;`,
      `CREATE OR REPLACE FUNCTION f() RETURNS text LANGUAGE sql AS $$ SELECT 'DROP TABLE x' $$;`,
      `-- DROP TABLE "contacts" was considered\nCREATE INDEX "contacts_tier_idx" ON "contacts" ("tier");`,
      `DROP INDEX IF EXISTS "contacts_tier_idx";`,
    ];
    for (const sql of safe) expect(found(sql), sql).toEqual([]);
  });

  it("a contract migration declares itself in its header, naming the release that stopped using the thing", () => {
    const contract = [
      "-- Contract: drops contacts.fax, unread since release 2027-01-12 (its Workers read phones only).",
      `ALTER TABLE "contacts" DROP COLUMN "fax";`,
    ].join("\n");
    expect(isContractMigration(contract)).toBe(true);
    expect(
      isContractMigration(`-- Contract: drops contacts.fax\nALTER TABLE "contacts" DROP COLUMN "fax";`),
    ).toBe(false);
    expect(
      isContractMigration(
        `ALTER TABLE "contacts" DROP COLUMN "fax";\n-- Contract: unread since release 2027-01-12`,
      ),
    ).toBe(false);
  });

  it("the Workers before 0020_inbox_connectors keep writing and reading connections once it is applied", async () => {
    const { files } = repositoryMigrations();
    const journal = JSON.parse(files["meta/_journal.json"] as string) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === "0020_inbox_connectors");
    // db/migrations as it stood before 0020: the same files, the journal up to 0019.
    const before = mkdtempSync(join(tmpdir(), "before-0020-"));
    const after = mkdtempSync(join(tmpdir(), "with-0020-"));
    for (const [folder, entries] of [
      [before, journal.entries.slice(0, at)],
      [after, journal.entries.slice(0, at + 1)],
    ] as const) {
      mkdirSync(join(folder, "meta"));
      writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
      for (const e of entries) writeFileSync(join(folder, `${e.tag}.sql`), files[`${e.tag}.sql`] as string);
    }
    const database = await scratchDatabase();
    const client = await connect(database.url);
    try {
      await applyMigrations(client, before);
      // The connection's gallery and member are beside the point: their foreign keys are not checked here.
      await client.query("set session_replication_role = replica");
      // The release before's insert (db/queries/inbox-writes.ts at 77edbec^), word for word.
      const insertConnection = (address: string) =>
        client.query(
          `insert into inbox_connections (id, gallery_id, member_id, channel, provider, address, status,
            created_at, updated_at)
          values ($1, $2, $3, $4, $5, $6, 'active', $7::timestamptz, $7::timestamptz)`,
          [crypto.randomUUID(), "gal_1", "mem_1", "email", "imap", address, new Date().toISOString()],
        );
      await insertConnection("before@gallery.example");
      expect((await applyMigrations(client, after)).applied).toEqual(["0020_inbox_connectors"]);
      // Between the migration and the deploy, the old Workers go on writing and reading.
      await insertConnection("between@gallery.example");
      const read = await client.query(
        "select address, channel, provider, status, inbound_token, secret_names from inbox_connections order by address",
      );
      expect(read.rows).toEqual([
        // The backfill gave the connection that existed a token...
        expect.objectContaining({
          address: "before@gallery.example",
          inbound_token: expect.stringMatching(/^[0-9a-f]{32}$/),
        }),
        // ...and the one written in the window has none (docs/decisions.md: the gap, and the idempotent backfill).
        expect.objectContaining({
          address: "between@gallery.example",
          inbound_token: null,
          secret_names: [],
        }),
      ]);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
