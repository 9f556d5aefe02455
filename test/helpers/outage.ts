import { afterAll, beforeAll, inject } from "vitest";

/**
 * Databases that go away, for the suites of what happens then. Two kinds:
 * - `DOWN_DATABASE`, an address where nothing listens, for any suite: the driver's settings are global to the
 *   isolate and other files run in it side by side, so it is a database address of its own (db/client.ts chooses
 *   the local endpoint by the connection string's address), and every other file's database stays where it is.
 * - `postgres`, the `outage` project's server, stopped and started for real under the suites of that project.
 */

/** Settings of a database whose endpoint is an address where nothing listens: connections are refused. */
export const DOWN_DATABASE = {
  DATABASE_URL: "postgres://gallery@database-down.test:5432/gallery",
  NEON_LOCAL_ENDPOINT: inject("refusedUrl"),
} as const;

/**
 * The `outage` project's PostgreSQL (test/outage-setup.ts), which its suites stop and start for real: `shutdown`
 * resolves once the postmaster has exited (`immediate`: SIGQUIT, every session cut as in a crash; `fast`: SIGINT),
 * `restart` once it accepts connections again on the same port and data.
 */
export const postgres = {
  shutdown: (mode: "immediate" | "fast" = "immediate") => control("POST", `/shutdown?mode=${mode}`),
  restart: () => control("POST", "/restart"),
  pid: () => control("GET", "/"),
};

async function control(method: string, path: string): Promise<number | null> {
  const base = inject("outageControlUrl");
  if (!base)
    throw new Error("postgres.shutdown/restart: only the `outage` project's suites (*.outage.test.ts)");
  const response = await fetch(`${base}${path}`, { method });
  const body = (await response.json()) as { pid?: number | null; error?: string };
  if (!response.ok) throw new Error(`outage control ${method} ${path}: ${body.error ?? response.status}`);
  return body.pid ?? null;
}

/**
 * Holds the `outage` project's server for this file's tests (call it at the top of every `*.outage.test.ts`): the
 * project's files run beside each other, and only the file holding the server may stop it. After the file, the
 * server is started again if a test left it down, then released.
 */
export function useOutageDatabase(): void {
  const holder = `${crypto.randomUUID()}`;
  beforeAll(async () => {
    await control("POST", `/lease?holder=${holder}`);
  }, 300_000);
  afterAll(async () => {
    await postgres.restart();
    await control("POST", `/release?holder=${holder}`);
  });
}
