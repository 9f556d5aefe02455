import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../functions/api";
import { failedDependency } from "../../lib/dependency-failure";
import { apiRequest, type CallOptions, call, createGallery, type TestGallery } from "../helpers/gallery";
import { validateResponse } from "../helpers/openapi";
import { countRows } from "../helpers/seed";

/**
 * A dependency that cannot be reached is a 503 with Retry-After, naming it, never a 500: the real driver pointed at
 * a database endpoint where nothing listens (a closed port), the request otherwise as any client sends it.
 */

/**
 * A database whose endpoint is an address where nothing listens: the driver's connection is refused, as when the
 * database is down. Its own address, so requests of other files running in this isolate keep their endpoint.
 */
const UNREACHABLE = "http://127.0.0.1:9";
const DOWN_DATABASE_URL = "postgres://gallery@database-down.test:5432/gallery";

async function callWithDatabaseDown(method: string, path: string, opts: CallOptions = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    apiRequest(method, path, opts),
    { ...env, DATABASE_URL: DOWN_DATABASE_URL, NEON_LOCAL_ENDPOINT: UNREACHABLE },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  await validateResponse(method, path, response);
  return response;
}

describe("a database that cannot be reached", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
    // The key's lookup is cached at the edge by a first call, so the requests below reach their handlers.
    expect((await call("GET", "/gallery/artworks?limit=1", { key: g.key })).status).toBe(200);
  });

  it("answers a read 503 service_unavailable with Retry-After, naming the database and nothing of it", async () => {
    const response = await callWithDatabaseDown("GET", "/gallery/artworks?limit=1", { key: g.key });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({
      code: "service_unavailable",
      status: 503,
      retry: "after_delay",
      details: { dependency: "database" },
    });
    expect(JSON.stringify(problem)).not.toMatch(
      /127\.0\.0\.1|postgres|:9\b|ECONNREFUSED|stack|Server error/i,
    );
  });

  it("tells a write it may have been applied, and its retry with the same key applies it once", async () => {
    const key = `down-${crypto.randomUUID()}`;
    const request = {
      key: g.key,
      body: { title: "Written while the database was down" },
      headers: { "Idempotency-Key": key },
    };
    const before = await countRows("artworks", g.id);
    const refused = await callWithDatabaseDown("POST", "/gallery/artworks", request);
    expect(refused.status).toBe(503);
    const problem = (await refused.json()) as { detail: string; details: Record<string, unknown> };
    expect(problem.details).toEqual({ dependency: "database", may_have_been_applied: true });
    expect(problem.detail).toContain("same Idempotency-Key");
    const retried = await call("POST", "/gallery/artworks", request);
    expect(retried.status).toBe(201);
    const again = await call("POST", "/gallery/artworks", request);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await countRows("artworks", g.id)).toBe(before + 1);
  });

  it("answers an unknown credential 503 too: it cannot be told unknown without the database", async () => {
    const response = await callWithDatabaseDown("GET", "/gallery/artworks", {
      key: `gpk_${"x".repeat(32)}`,
    });
    expect(response.status).toBe(503);
  });
});

describe("failedDependency", () => {
  const neon = (message: string, code?: string) =>
    Object.assign(new Error(message), { name: "NeonDbError", ...(code ? { code } : {}) });

  it.each([
    ["the driver could not connect", neon("Error connecting to database: fetch failed")],
    ["the endpoint answered a server error", neon("Server error (HTTP status 502): connect ECONNREFUSED")],
    ["the server is shutting down", neon("terminating connection due to administrator command", "57P01")],
    ["the server is starting", neon("the database system is starting up", "57P03")],
    ["too many connections", neon("sorry, too many clients already", "53300")],
    ["a connection exception", neon("connection failure", "08006")],
    [
      "wrapped by the query builder",
      Object.assign(new Error("Failed query: select 1"), { cause: neon("Error connecting to database: x") }),
    ],
  ])("reads %s as the database unavailable", (_, error) => {
    expect(failedDependency(error)).toBe("database");
  });

  it.each([
    ["a bug", new TypeError("undefined is not a function")],
    ["a constraint the statement broke", neon("duplicate key value violates unique constraint", "23505")],
    ["a statement timeout", neon("canceling statement due to statement timeout", "57014")],
    ["a fetch failing elsewhere", new TypeError("fetch failed")],
    ["a driver error of the request's own making", neon("Server error (HTTP status 400): bad request")],
  ])("reads %s as no dependency failing", (_, error) => {
    expect(failedDependency(error)).toBeNull();
  });
});
