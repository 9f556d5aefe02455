import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { httpDb } from "../../db/client";

/**
 * A database that cannot be reached, for the suites of what happens then. The driver's settings are global to the
 * isolate, and other test files run in it side by side, so an outage is always a database address of its own
 * (db/client.ts chooses the local endpoint by the connection string's address): cutting it leaves every other
 * file's database where it is.
 */

/** Settings of a database whose endpoint is an address where nothing listens: connections are refused. */
export const DOWN_DATABASE = {
  DATABASE_URL: "postgres://gallery@database-down.test:5432/gallery",
  NEON_LOCAL_ENDPOINT: inject("refusedUrl"),
} as const;

/**
 * The test database under an address of its own (`localhost` for 127.0.0.1), to cut while work started on it
 * is under way, then restore: `env` for the work, `down()` and `up()` for its endpoint.
 */
export function switchableDatabase() {
  const url = new URL(env.DATABASE_URL);
  url.hostname = "localhost";
  const own = { ...env, DATABASE_URL: url.toString() };
  return {
    env: own,
    down: () =>
      void httpDb({ DATABASE_URL: own.DATABASE_URL, NEON_LOCAL_ENDPOINT: DOWN_DATABASE.NEON_LOCAL_ENDPOINT }),
    up: () => void httpDb(own),
  };
}
