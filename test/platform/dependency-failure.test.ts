import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { withPoolTransaction } from "../../db/client";
import worker from "../../functions/api";
import { DependencyError, failedDependency } from "../../lib/dependency-failure";
import type { Env } from "../../lib/env";
import { apiRequest, type CallOptions, call, createGallery, db, type TestGallery } from "../helpers/gallery";
import { validateResponse } from "../helpers/openapi";
import { DOWN_DATABASE } from "../helpers/outage";
import { countRows } from "../helpers/seed";
import { mintImageUpload, PNG, putUpload, uploadedImagePath } from "../helpers/uploads";

/**
 * A dependency that cannot be reached is a 503 with Retry-After, naming it, never a 500: the real driver pointed at
 * a database endpoint where nothing listens (a closed port), the request otherwise as any client sends it.
 */

/** Calls the Worker as `call()` does, with some of its bindings or settings replaced. */
async function callWith(overrides: Partial<Env>, method: string, path: string, opts: CallOptions = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(apiRequest(method, path, opts), { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  await validateResponse(method, path, response);
  return response;
}

function callWithDatabaseDown(method: string, path: string, opts: CallOptions = {}) {
  return callWith(DOWN_DATABASE, method, path, opts);
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

/** The receiver behind FAILING_KV and FAILING_R2 (vitest.config.ts) answers as told, until told otherwise. */
async function backingAnswers(
  path: "kv" | "r2",
  behaviour: { status: number; headers?: Record<string, string> },
) {
  const response = await fetch(`${inject("receiverUrl")}/__control/dependency/${path}`, {
    method: "POST",
    body: JSON.stringify(behaviour),
  });
  expect(response.status).toBe(200);
}

/** R2's answer to too many requests, as its front sends it: the code workerd turns into the error's message. */
const R2_SLOW_DOWN = {
  status: 429,
  headers: {
    "cf-r2-error": JSON.stringify({
      version: 1,
      v4code: 10058,
      message: "Reduce your rate of simultaneous reads on the same object.",
    }),
  },
};

/** A 503 naming `dependency` and nothing of it: no address, no binding, no platform message, no stack. */
async function expectUnavailable(response: Response, dependency: string) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("5");
  const text = await response.text();
  const problem = JSON.parse(text) as { code: string; retry: string; details: Record<string, unknown> };
  expect(problem).toMatchObject({ code: "service_unavailable", status: 503, retry: "after_delay" });
  expect(problem.details.dependency).toBe(dependency);
  expect(text).not.toMatch(/127\.0\.0\.1|:\d{4,5}\b|Network connection|\(10058\)|stack|at [\w.]+ \(/i);
  expect(text).not.toMatch(/UNREACHABLE|FAILING|EDGE_KV|UPLOADS|[A-Z]+_LIMIT|KV [A-Z]+ failed/);
  return problem;
}

async function imageCount(artworkId: string): Promise<number> {
  const rows = await db().execute<{ image_count: number }>(
    sql`select image_count from artworks where id = ${artworkId}`,
  );
  return Number(rows.rows[0]!.image_count);
}

describe("a KV namespace that cannot serve", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });
  afterEach(async () => {
    await fetch(`${inject("receiverUrl")}/__control/dependency/kv`, { method: "DELETE" });
  });

  it("answers 503 naming the key-value store when its backing cannot be reached", async () => {
    // Every call with a credential reads the credential cache first.
    const response = await callWith({ EDGE_KV: env.UNREACHABLE_KV }, "GET", "/gallery/artworks?limit=1", {
      key: g.key,
    });
    const problem = await expectUnavailable(response, "kv");
    expect(problem.details).toEqual({ dependency: "kv" });
  });

  it("answers a write 503 when KV says too many requests, and its retry with the same key lands once", async () => {
    await backingAnswers("kv", { status: 429 });
    const key = `kv-${crypto.randomUUID()}`;
    const request = {
      key: g.key,
      body: { title: "Written while KV refused" },
      headers: { "Idempotency-Key": key },
    };
    const before = await countRows("artworks", g.id);
    // A write reads its credential, and with an Idempotency-Key its replay, from EDGE_KV before anything else.
    const refused = await callWith({ EDGE_KV: env.FAILING_KV }, "POST", "/gallery/artworks", request);
    const problem = (await expectUnavailable(refused, "kv")) as unknown as {
      detail: string;
      details: Record<string, unknown>;
    };
    expect(problem.details).toEqual({ dependency: "kv", may_have_been_applied: true });
    expect(problem.detail).toContain("same Idempotency-Key");
    const retried = await call("POST", "/gallery/artworks", request);
    expect(retried.status).toBe(201);
    const again = await call("POST", "/gallery/artworks", request);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await countRows("artworks", g.id)).toBe(before + 1);
  });

  it("answers 503 when KV answers a server error", async () => {
    await backingAnswers("kv", { status: 503 });
    const response = await callWith({ EDGE_KV: env.FAILING_KV }, "GET", "/gallery/artworks?limit=1", {
      key: g.key,
    });
    await expectUnavailable(response, "kv");
  });

  it("leaves a refusal of the request's own making a 500: a bug, not an outage", async () => {
    await backingAnswers("kv", { status: 400 });
    const response = await callWith({ EDGE_KV: env.FAILING_KV }, "GET", "/gallery/artworks?limit=1", {
      key: g.key,
    });
    expect(response.status).toBe(500);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(((await response.json()) as { code: string }).code).toBe("internal_error");
  });
});

describe("an R2 bucket that cannot serve", () => {
  let g: TestGallery;
  let artworkId: string;
  beforeAll(async () => {
    g = await createGallery();
    const created = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Framed" } });
    artworkId = ((await created.json()) as { id: string }).id;
  });
  afterEach(async () => {
    await fetch(`${inject("receiverUrl")}/__control/dependency/r2`, { method: "DELETE" });
  });

  it("answers a write 503 naming object storage, and its retry with the same key attaches the image once", async () => {
    const storage_path = await uploadedImagePath(g, artworkId);
    const request = {
      key: g.key,
      body: { storage_path },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    };
    const path = `/gallery/artworks/${artworkId}/images`;
    // Attaching an upload first asks the bucket whether its bytes are there.
    const refused = await callWith({ UPLOADS: env.UNREACHABLE_R2 }, "POST", path, request);
    const problem = await expectUnavailable(refused, "object_storage");
    expect(problem.details).toEqual({ dependency: "object_storage", may_have_been_applied: true });
    expect(await imageCount(artworkId)).toBe(0);
    const retried = await call("POST", path, request);
    expect(retried.status).toBe(201);
    const again = await call("POST", path, request);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await imageCount(artworkId)).toBe(1);
  });

  it("answers an upload R2 cannot take 503, and gives the URL back", async () => {
    const target = await mintImageUpload(g, artworkId);
    const path = new URL(target.signed_url).pathname.replace(/^\/v1/, "");
    const upload = { rawBody: PNG, headers: { "content-type": "image/png" } };
    const refused = await callWith({ UPLOADS: env.UNREACHABLE_R2 }, "PUT", path, upload);
    const problem = await expectUnavailable(refused, "object_storage");
    expect(problem.details).toEqual({ dependency: "object_storage" });
    expect((await putUpload(target, PNG)).status).toBe(201);
  });

  it("answers a read 503 when R2 asks to slow down (code 10058)", async () => {
    const storage_path = await uploadedImagePath(g, artworkId);
    expect((await call("GET", `/assets/${storage_path}`)).status).toBe(200);
    await backingAnswers("r2", R2_SLOW_DOWN);
    const response = await callWith({ UPLOADS: env.FAILING_R2 }, "GET", `/assets/${storage_path}`);
    const problem = await expectUnavailable(response, "object_storage");
    expect(problem.details).toEqual({ dependency: "object_storage" });
  });

  it("leaves an R2 refusal of the request's own making a 500", async () => {
    const storage_path = await uploadedImagePath(g, artworkId);
    await backingAnswers("r2", {
      status: 400,
      headers: {
        "cf-r2-error": JSON.stringify({ version: 1, v4code: 10020, message: "Invalid object name" }),
      },
    });
    const response = await callWith({ UPLOADS: env.FAILING_R2 }, "GET", `/assets/${storage_path}`);
    expect(response.status).toBe(500);
  });
});

/**
 * The rate limiter cannot be made to fail for real here: the test pool's Rate Limiting binding is an in-memory
 * counter with no backing to take away. The binding is replaced at the Worker's env with one that fails as a
 * binding whose backing is lost does in workerd (the error KV and R2 throw above: "Network connection lost.",
 * marked retryable).
 */
const lostLimiter = {
  limit: () => Promise.reject(Object.assign(new Error("Network connection lost."), { retryable: true })),
} as unknown as RateLimit;

describe("a rate limiter that fails", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("lets an operation's request through, uncounted", async () => {
    const response = await callWith({ SECRET_KEY_LIMIT: lostLimiter }, "GET", "/gallery/artworks?limit=1", {
      key: g.key,
    });
    expect(response.status).toBe(200);
    const anonymous = await callWith({ CLIENT_IP_LIMIT: lostLimiter }, "GET", "/health", {
      headers: { "cf-connecting-ip": "203.0.113.7" },
    });
    expect(anonymous.status).toBe(200);
  });

  it("refuses a sign-in 503 naming the rate limiter: its limits are what stands between a password and guessing", async () => {
    const attempt = { body: { email: "someone@example.com", password: "not-the-password" } };
    const byAddress = await callWith({ SIGN_IN_IP_LIMIT: lostLimiter }, "POST", "/auth/sessions", {
      ...attempt,
      headers: { "cf-connecting-ip": "203.0.113.8" },
    });
    const problem = await expectUnavailable(byAddress, "rate_limiter");
    // Counting comes before anything else: the problem does not say the sign-in may have happened.
    expect(problem.details).toEqual({ dependency: "rate_limiter" });
    const byEmail = await callWith({ SIGN_IN_EMAIL_LIMIT: lostLimiter }, "POST", "/auth/sessions", attempt);
    await expectUnavailable(byEmail, "rate_limiter");
  });
});

describe("the WebSocket pool's interactive transaction", () => {
  it("names the database when its connection cannot be made", async () => {
    const failure = await withPoolTransaction(DOWN_DATABASE, undefined, (tx) =>
      tx.execute(sql`select 1`),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DependencyError);
    expect(failedDependency(failure)).toBe("database");
  });

  it("leaves what the work throws as it is", async () => {
    const bug = new TypeError("undefined is not a function");
    const failure = await withPoolTransaction(env, undefined, async (tx) => {
      await tx.execute(sql`select 1`);
      throw bug;
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBe(bug);
    expect(failedDependency(failure)).toBeNull();
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

  const lost = () => Object.assign(new Error("Network connection lost."), { retryable: true });
  const named = (dependency: ConstructorParameters<typeof DependencyError>[0], cause: unknown) =>
    new DependencyError(dependency, "BINDING", cause);

  it.each([
    ["KV's too many requests", new Error("KV PUT failed: 429 Too Many Requests"), "kv"],
    ["KV's server error", new Error("KV GET failed: 503 Service Unavailable"), "kv"],
    ["a Queue send refused for now", new Error("Queue send failed: Too Many Requests"), "queue"],
    ["a Queue batch refused for now", new Error("Queue sendBatch failed: Service Unavailable"), "queue"],
    [
      "a named bucket's internal error",
      named("object_storage", new Error("get: We encountered an internal error. Please try again. (10001)")),
      "object_storage",
    ],
    [
      "a named bucket's service unavailable",
      named("object_storage", new Error("put: Service unavailable (10043)")),
      "object_storage",
    ],
    ["a named binding's lost connection", named("queue", lost()), "queue"],
    [
      "the pool's ErrorEvent",
      named("database", { message: "Uncaught Error: Network connection lost.", error: lost() }),
      "database",
    ],
    [
      "a failed rate limiter, whatever it threw",
      named("rate_limiter", new Error("anything")),
      "rate_limiter",
    ],
  ])("reads %s as that dependency unavailable", (_, error, dependency) => {
    expect(failedDependency(error)).toBe(dependency);
  });

  it.each([
    ["a bug", new TypeError("undefined is not a function")],
    ["a lost connection nobody named", lost()],
    [
      "an R2 code nobody named",
      new Error("get: We encountered an internal error. Please try again. (10001)"),
    ],
    ["a named binding's bug", named("kv", new TypeError("KV put() accepts only strings"))],
    [
      "KV refusing the key",
      new Error("KV GET failed: 414 UTF-8 encoded length of 600 exceeds key length limit of 512."),
    ],
    ["R2 refusing the name", named("object_storage", new Error("put: Invalid object name (10020)"))],
    [
      "R2 without the key",
      named("object_storage", new Error("get: The specified key does not exist. (10007)")),
    ],
    ["a Queue refusing the message", new Error("Queue send failed: Payload Too Large")],
    ["a constraint the statement broke", neon("duplicate key value violates unique constraint", "23505")],
    ["a statement timeout", neon("canceling statement due to statement timeout", "57014")],
    ["a fetch failing elsewhere", new TypeError("fetch failed")],
    ["a driver error of the request's own making", neon("Server error (HTTP status 400): bad request")],
  ])("reads %s as no dependency failing", (_, error) => {
    expect(failedDependency(error)).toBeNull();
  });
});
