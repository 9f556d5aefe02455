import { fileURLToPath, pathToFileURL } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

const migrationsFolder = fileURLToPath(new URL("../db/migrations", import.meta.url));

/** Applies the checked-in SQL migrations (idempotent: applied ones are skipped). */
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
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "Set DATABASE_URL to the database to migrate (for Neon: the direct, non-pooled connection string).",
    );
    process.exit(1);
  }
  await migrateDatabase(url);
  console.log("migrations applied");
}
