import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../functions/api";
import type { Env } from "../../lib/env";
import { call } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";

/** The Worker called with another database than the test bindings'. */
async function fetchWith(settings: Partial<Env>, url: string): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(url), { ...env, ...settings } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("GET /v1/health", () => {
  it("answers 200 with the database reachable", async () => {
    const response = await call("GET", "/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "reachable" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    // No credential, no personal data: a cache may keep it.
    expect(response.headers.get("cache-control")).toBeNull();
  });

  it("answers 503 service_unavailable when the database is unreachable", async () => {
    const response = await fetchWith(
      { DATABASE_URL: "postgres://postgres:postgres@127.0.0.1:1/nothing" },
      "https://api.test/v1/health",
    );
    const body = await expectProblem(response, 503, "service_unavailable");
    expect(body.details).toEqual({ database: "unreachable" });
    expect(response.headers.get("retry-after")).toBe("5");
  });
});
