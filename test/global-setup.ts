import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../scripts/migrate";
import { startNeonLocal } from "../scripts/neon-local";
import { startDatabase } from "../scripts/postgres";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    neonEndpoint: string;
  }
}

const TEST_DATABASE = "gallery_test";

/** A fresh test database on every run (unless DATABASE_URL points at a server of the caller's choosing). */
async function recreate(url: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${TEST_DATABASE}" with (force)`);
    await client.query(`create database "${TEST_DATABASE}"`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const external = Boolean(process.env.DATABASE_URL);
  const database = await startDatabase({ dataDir: ".data/test-postgres", database: TEST_DATABASE });
  if (!external) await recreate(database.url);
  await migrateDatabase(database.url);
  const neon = await startNeonLocal({ port: 0 });
  project.provide("databaseUrl", database.url);
  project.provide("neonEndpoint", neon.url);
  return async () => {
    await neon.close();
    await database.stop();
  };
}
