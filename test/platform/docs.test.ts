import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { API_REFERENCE_SCRIPT_PATH } from "../../lib/api-reference";

/** The API reference page (functions/docs/) and the same-origin bundle it loads (a static asset). */

const get = (path: string, init?: RequestInit) =>
  exports.default.fetch(new Request(`https://api.test${path}`, init));

/** The page's Content-Security-Policy, directive → sources. */
function policy(response: Response): Map<string, string[]> {
  const header = response.headers.get("content-security-policy") ?? "";
  return new Map(
    header
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe("GET /v1/docs", () => {
  it("answers 200 HTML that reads /v1/openapi.json with a same-origin script, without a credential", async () => {
    const response = await get("/v1/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('"url": "/v1/openapi.json"');
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map(([, src]) => src);
    expect(scripts).toEqual([API_REFERENCE_SCRIPT_PATH]);
    // Nothing is fetched from another origin: no absolute URL in any src or href.
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
    expect(html).not.toContain("cdn.jsdelivr.net");
    // Holds no secret: no key, token or session of any kind.
    expect(html).not.toMatch(/gpk_|gpub_|gss_|whsec_/);
  });

  it("has a Content-Security-Policy that allows its own script, its nonce and this API only", async () => {
    const response = await get("/v1/docs");
    const csp = policy(response);
    const html = await response.text();
    expect(csp.get("default-src")).toEqual(["'none'"]);
    const nonce = /<script type="text\/javascript" nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(csp.get("connect-src")).toEqual(["'self'", "https://api.test"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    for (const sources of csp.values()) {
      expect(sources).not.toContain("'unsafe-eval'");
      expect(sources.filter((s) => /^https?:/.test(s))).toEqual(
        sources.includes("https://api.test") ? ["https://api.test"] : [],
      );
    }
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    // A new nonce on every answer.
    const again = /nonce="([^"]+)"/.exec(await (await get("/v1/docs")).text())?.[1];
    expect(again).not.toBe(nonce);
  });

  it("answers a credential the same page (it is public and ignores it)", async () => {
    const response = await get("/v1/docs", { headers: { Authorization: "Bearer gpk_not_a_key" } });
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain("gpk_not_a_key");
  });

  it("is not an operation of the document it shows", async () => {
    const doc = (await (await get("/v1/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain("/docs");
  });
});

describe("the reference bundle, a static asset of the API Worker", () => {
  it("is served at the page's script address as JavaScript, cacheable for a year", async () => {
    const response = await env.ASSETS!.fetch(`https://api.test${API_REFERENCE_SCRIPT_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await response.text();
    expect(text.length).toBeGreaterThan(1_000_000);
    // The UMD build: it defines the global the page's start-up script calls.
    expect(text).toContain("createApiReference");
  });

  it("holds nothing else under /v1 (every other path is the Worker's)", async () => {
    const response = await env.ASSETS!.fetch("https://api.test/v1/docs/unknown.js");
    expect(response.status).toBe(404);
    const worker = await get("/v1/docs/unknown.js");
    expect(worker.status).toBe(404);
    expect(worker.headers.get("content-type")).toBe("application/problem+json");
  });
});
