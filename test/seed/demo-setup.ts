import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { DEMO_EDITOR, seedDemo } from "../../scripts/seed/index";
import { lazyLocalBucket } from "../../scripts/wrangler";

/**
 * The demo gallery for test/seed/demo.test.ts, seeded as `npm start` seeds it: a database of its own, copied from
 * the run's freshly migrated one (so both run the same migrations), seeded in the background while the other
 * suites start, its pictures stored in a local R2 bucket of its own. The seed writes everything in one transaction,
 * so the demo gallery's row is there exactly when the seed has committed; a failed seed leaves its message in the
 * table `demo_seed_failure` for the suite to report.
 */
export interface DemoSeed {
  /** The demo database's URL, for the Worker bindings of the suite. */
  url: string;
  editor: { email: string; password: string };
  /** Settles when the seed has finished or failed (never rejects). */
  settled: Promise<void>;
}

export async function startDemoSeed(migrated: URL): Promise<DemoSeed> {
  const database = `${migrated.pathname.slice(1)}_demo`;
  const admin = new URL(migrated);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${database}" with (force)`);
    await client.query(`create database "${database}" template "${migrated.pathname.slice(1)}"`);
  } finally {
    await client.end();
  }
  const url = new URL(migrated);
  url.pathname = `/${database}`;
  const persistTo = mkdtempSync(join(tmpdir(), "gallery-demo-r2-"));
  const bucket = lazyLocalBucket(persistTo);
  const settled = seedDemo(url.toString(), { bucket: bucket.open })
    .then(() => undefined)
    .catch(async (error: unknown) => {
      const failed = new pg.Client({ connectionString: url.toString() });
      await failed.connect();
      try {
        await failed.query("create table demo_seed_failure (message text not null)");
        await failed.query("insert into demo_seed_failure values ($1)", [String(error)]);
      } finally {
        await failed.end();
      }
    })
    .catch((error: unknown) => console.error(`demo seed: ${String(error)}`))
    .finally(async () => {
      await bucket.close().catch(() => {});
      rmSync(persistTo, { recursive: true, force: true });
    });
  return { url: url.toString(), editor: { ...DEMO_EDITOR }, settled };
}
