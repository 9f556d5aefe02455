import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../../functions/api";
import { createRouter } from "../../http/app";
import type { Env } from "../../lib/env";
import { call } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";

/** The Worker called with other settings than the test bindings. */
async function fetchWith(settings: Partial<Env>, url: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(url, init), { ...env, ...settings } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("addresses come from PUBLIC_BASE_URL, never from the Host header", () => {
  it("a problem's type points at the configured dictionary", async () => {
    const response = await fetchWith({}, "https://attacker.example/v1/gallery/artworks");
    const body = await expectProblem(response, 401, "unauthenticated");
    expect(body.type).toBe(`${env.PUBLIC_BASE_URL}/v1/errors/unauthenticated`);
  });

  it("the OpenAPI servers entry is the configured base URL", async () => {
    const response = await fetchWith(
      { PUBLIC_BASE_URL: "https://api.gallery.example/" },
      "https://attacker.example/v1/openapi.json",
    );
    const doc = (await response.json()) as { servers: { url: string }[] };
    expect(doc.servers.map((s) => s.url)).toEqual(["https://api.gallery.example/v1"]);
  });
});

describe("a Worker without its settings", () => {
  it("answers every call with a 500 problem naming each missing setting, and says so in the log once", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await fetchWith(
      { DATABASE_URL: "", SIGNING_SECRET: undefined, PUBLIC_BASE_URL: "api.example.com" },
      "https://api.test/v1/health",
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as { code: string; detail: string };
    expect(body.code).toBe("internal_error");
    expect(body.detail).toContain("DATABASE_URL is not set");
    expect(body.detail).toContain("SIGNING_SECRET is not set");
    expect(body.detail).toContain('PUBLIC_BASE_URL must be an absolute http(s) URL, got "api.example.com"');
    await fetchWith({ DATABASE_URL: "" }, "https://api.test/v1/gallery/artworks");
    // Only this Worker's lines: other test files run in this isolate and may log meanwhile.
    const said = log.mock.calls.map(([line]) => String(line)).filter((l) => l.includes("not configured"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("The server is not configured: DATABASE_URL is not set");
    log.mockRestore();
  });
});

describe("methods", () => {
  it("answers other methods with 405 and Allow, OPTIONS with 204", async () => {
    const post = await call("POST", "/health");
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    await expectProblem(post, 405, "method_not_allowed");
    const options = await call("OPTIONS", "/health");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("leaves an unknown path 404, whatever the method", async () => {
    await expectProblem(await call("OPTIONS", "/no-such-thing"), 404, "not_found");
    await expectProblem(await call("POST", "/no-such-thing"), 404, "not_found");
  });
});

describe("the headers every answer gets after its handler (setResponseHeaders)", () => {
  async function callRouter(app: ReturnType<typeof createRouter>, path: string): Promise<Response> {
    const ctx = createExecutionContext();
    const response = await app.request(`https://api.test${path}`, {}, env, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  }

  it("reach an answer whose own headers are immutable, which is copied once and keeps its own", async () => {
    const target = "https://collector.example/room";
    // The premise: a redirect's headers cannot be changed in place.
    expect(() => Response.redirect(target, 302).headers.set("x-test", "1")).toThrow(TypeError);
    const app = createRouter();
    app.get("/v1/public/moved", () => Response.redirect(target, 302));
    const response = await callRouter(app, "/v1/public/moved");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(target);
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("are set in place on a handler's own answer, beside the headers it set", async () => {
    const app = createRouter();
    app.get("/v1/own", (c) => c.json({ ok: true }, 200, { ETag: '"abc"' }));
    const response = await callRouter(app, "/v1/own");
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get("etag")).toBe('"abc"');
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
