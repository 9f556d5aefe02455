import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/**
 * Tests run inside workerd against real PostgreSQL: test/global-setup.ts (Node) starts the embedded database
 * and the local Neon endpoint, and hands their addresses to the Worker bindings here.
 */
export default defineConfig({
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      main: "./functions/api.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          DATABASE_URL: inject("databaseUrl"),
          NEON_LOCAL_ENDPOINT: inject("neonEndpoint"),
          SIGNING_SECRET: "test-signing-secret-not-for-production",
          // Not for production: base64 of 32 bytes, sealing webhook signing secrets in tests.
          WEBHOOK_SECRET_KEY: "dGVzdC13ZWJob29rLWtleS0zMi1ieXRlcy1leGFjdCE=",
          ENVIRONMENT: "local",
          PUBLIC_BASE_URL: "https://api.test",
        },
      },
    })),
  ],
  test: {
    globalSetup: ["./test/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
