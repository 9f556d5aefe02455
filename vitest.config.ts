import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { AUXILIARY_WORKERS, auxiliaryWorker } from "./test/auxiliary-workers";

/**
 * Four projects, one `npm test`:
 * - `workers` (the endpoint groups) and `platform` (test/platform/): the API's suites run inside workerd against
 *   real PostgreSQL: test/global-setup.ts (Node) starts the embedded database and the local Neon endpoint once for
 *   both, and hands their addresses to the Worker bindings here.
 * - `outage` (`*.outage.test.ts` in the groups' folders): in workerd too, against an embedded PostgreSQL of its own
 *   that its suites shut down and start again mid-request (test/outage-setup.ts).
 * - `live`: suites in Node against the API Worker (and the cron Worker, run when a test asks) under `wrangler dev`,
 *   one stack started once for all of them by
 *   test/browser/global-setup.ts: the example page (examples/viewing-room/) in headless Chromium from another
 *   origin (test/browser/; skipped, said in one line, when Chromium is not installed), and the typed client
 *   (clients/typescript/) making real calls (test/client/), the integrator scripts of examples/ run against it
 *   (test/examples/), an MCP client over HTTP (test/live-mcp/), the webhook listener (`npm run webhooks:listen`) and the Postman collection against the
 *   live API (test/listen/), and the stack itself: no process's command line shows the Workers' secrets, which
 *   reach wrangler in an env file (test/browser/stack.test.ts).
 */
/**
 * A project whose suites run inside workerd against the one test stack (test/global-setup.ts). Two of them, each
 * with a workerd of its own: the platform-wide suites (test/platform/, the generated ones among them) and the
 * endpoint groups; one isolate's heap then holds half the modules and data a single project's would.
 */
function workerdProject(
  name: string,
  include: string[],
  exclude: string[],
  database: { url: "databaseUrl" | "outageDatabaseUrl"; setup: string } = {
    url: "databaseUrl",
    setup: "./test/global-setup.ts",
  },
) {
  return {
    plugins: [
      cloudflareTest(async ({ inject }) => {
        const stack = {
          DATABASE_URL: inject(database.url),
          NEON_LOCAL_ENDPOINT: inject("neonEndpoint"),
          ENVIRONMENT: "local",
          PUBLIC_BASE_URL: "https://api.test",
        };
        return {
          main: "./functions/api.ts",
          wrangler: { configPath: "./wrangler.toml" },
          miniflare: {
            bindings: {
              ...stack,
              SIGNING_SECRET: "test-signing-secret-not-for-production",
              // Not for production: base64 of 32 bytes, sealing webhook signing secrets in tests.
              WEBHOOK_SECRET_KEY: "dGVzdC13ZWJob29rLWtleS0zMi1ieXRlcy1leGFjdCE=",
            },
            // The Workers the API Worker's service bindings name, built and bound as deployed, on the same database
            // (test/auxiliary-workers.ts).
            workers: await Promise.all(AUXILIARY_WORKERS.map((config) => auxiliaryWorker(config, stack))),
            // Bindings whose backing fails for real (test/platform/dependency-failure.test.ts): the KV namespace
            // and bucket behind them are reached through miniflare's proxy of a remote binding, at an address
            // where nothing listens or at the test receiver, which answers as the test tells it (429, 503 and
            // R2's error header), so workerd's own bindings throw what they throw in production.
            kvNamespaces: {
              UNREACHABLE_KV: {
                id: "unreachable-kv",
                remoteProxyConnectionString: new URL(inject("refusedUrl")),
              },
              FAILING_KV: {
                id: "failing-kv",
                remoteProxyConnectionString: new URL(`${inject("receiverUrl")}/dependency/kv`),
              },
            },
            r2Buckets: {
              UNREACHABLE_R2: {
                id: "unreachable-r2",
                remoteProxyConnectionString: new URL(inject("refusedUrl")),
              },
              FAILING_R2: {
                id: "failing-r2",
                remoteProxyConnectionString: new URL(`${inject("receiverUrl")}/dependency/r2`),
              },
            },
          },
        };
      }),
    ],
    test: {
      name,
      // One module graph for every file of a worker: the API Worker and its dependencies are imported once,
      // not once per file (about 8 s each on 2 cores). Files therefore share an isolate, also while running
      // side by side: a test changes no global state (no faked clock, no driver setting, no registry entry
      // left behind); db/client.ts, lib/ids.ts and http/operation.ts `declaredApart` are built for that.
      isolate: false,
      globalSetup: [database.setup],
      include,
      exclude,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig({
  test: {
    // Two test files at a time: a file spends much of its time waiting on PostgreSQL, so two workers keep two
    // cores busy (about a fifth faster than one on a 2-core machine); more adds contention, not speed.
    maxWorkers: 2,
    projects: [
      workerdProject(
        "workers",
        ["test/**/*.test.ts"],
        [
          "test/platform/**",
          "test/browser/**",
          "test/client/**",
          "test/examples/**",
          "test/listen/**",
          "test/live-mcp/**",
          "test/**/*.outage.test.ts",
        ],
      ),
      workerdProject("platform", ["test/platform/**/*.test.ts"], ["test/**/*.outage.test.ts"]),
      // Suites that stop and start PostgreSQL for real (`*.outage.test.ts`, test/outage-setup.ts): a server of
      // their own, which one file at a time holds (test/helpers/outage.ts `useOutageDatabase`).
      workerdProject("outage", ["test/**/*.outage.test.ts"], [], {
        url: "outageDatabaseUrl",
        setup: "./test/outage-setup.ts",
      }),
      {
        test: {
          name: "live",
          environment: "node",
          globalSetup: ["./test/browser/global-setup.ts"],
          include: [
            "test/browser/**/*.test.ts",
            "test/client/**/*.test.ts",
            "test/examples/**/*.test.ts",
            "test/live-mcp/**/*.test.ts",
            "test/listen/**/*.test.ts",
          ],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One file at a time: the cron Worker's scheduled run (test/listen/) delivers to every endpoint with a
          // due delivery, and a receiver of another file (test/examples/) must see only what its test sent it.
          fileParallelism: false,
        },
      },
    ],
  },
});
