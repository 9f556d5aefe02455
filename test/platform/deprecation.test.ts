import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { createRouter } from "../../http/app";
import { declaredApart, operation, operationRegistry } from "../../http/operation";
import { createGallery } from "../helpers/gallery";

/** `operation({ deprecation })` (http/deprecation.ts): the document, the description and every answer's headers. */

const since = "2026-12-01T00:00:00.000Z";
const sunset = "2027-06-01T00:00:00.000Z";

function deprecatedApp() {
  const app = createRouter();
  const route = operation({
    operationId: "testDeprecatedRead",
    method: "get",
    path: "/gallery/deprecated-read",
    tags: ["Test"],
    summary: "A deprecated read",
    description: "Reads nothing.",
    auth: { scopes: ["artworks:read"] },
    deprecation: {
      since,
      sunset,
      instead: "Use GET /gallery/artworks instead.",
      link: "https://api.gallery-platform.example/changelog#2026-12-01",
    },
    request: {},
    responses: {
      200: { description: "OK.", content: { "application/json": { schema: z.object({ ok: z.boolean() }) } } },
    },
  });
  app.openapi(route, (c) => c.json({ ok: true }, 200));
  return app;
}

async function call(app: ReturnType<typeof createRouter>, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const response = await app.request("https://api.test/gallery/deprecated-read", init, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("a deprecated operation", () => {
  // Declared outside the API's registry: the suites that read the registry run in this isolate too.
  const { value: app, entries } = declaredApart(deprecatedApp);

  it("answers with Deprecation (RFC 9745), Sunset (RFC 8594) and a deprecation link", async () => {
    const g = await createGallery();
    const response = await call(app, { headers: { Authorization: `Bearer ${g.key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("deprecation")).toBe(`@${Date.parse(since) / 1000}`);
    expect(response.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
    expect(response.headers.get("link")).toBe(
      '<https://api.gallery-platform.example/changelog#2026-12-01>; rel="deprecation"; type="text/html"',
    );
  });

  it("says so on a refused call too", async () => {
    const response = await call(app);
    expect(response.status).toBe(401);
    expect(response.headers.get("deprecation")).toBe("@1796083200");
    expect(response.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
  });

  it("is marked in the document with since, sunset and what to use instead", () => {
    const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    const op = doc.paths?.["/gallery/deprecated-read"]?.get;
    expect(op?.deprecated).toBe(true);
    expect(op?.description).toContain(
      "**Deprecated** since 2026-12-01; it may stop answering after 2027-06-01",
    );
    expect(op?.description).toContain("Use GET /gallery/artworks instead.");
    expect(entries.find((e) => e.operationId === "testDeprecatedRead")?.deprecated?.sunset).toBe(sunset);
  });

  it("refuses a sunset less than six months after the deprecation, and a date that is not a UTC instant", () => {
    const declare = (d: { since: string; sunset: string }) =>
      declaredApart(() =>
        operation({
          operationId: "testBadDeprecation",
          method: "get",
          path: "/gallery/bad-deprecation",
          auth: { scopes: [] },
          request: {},
          deprecation: { ...d, instead: "Nothing." },
          responses: { 204: { description: "No content." } },
        }),
      );
    expect(() => declare({ since: sunset, sunset: since })).toThrow(/at least 182 days after/);
    expect(() => declare({ since, sunset: "2027-05-01T00:00:00.000Z" })).toThrow(/at least 182 days after/);
    expect(() => declare({ since: "2026-12-01", sunset })).toThrow(/must be a UTC instant/);
  });
});

describe("the v1 API today", () => {
  it("has no deprecated operation (the changelog would list it)", async () => {
    await import("../../functions/api");
    expect(operationRegistry.filter((e) => e.deprecated)).toEqual([]);
  });
});
