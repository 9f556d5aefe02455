import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { policyHeader, RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import emailWranglerToml from "../../wrangler.email.toml?raw";
import wranglerToml from "../../wrangler.toml?raw";
import { call, createGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";

/**
 * The per-credential rate limits (lib/rate-limits.ts): their numbers are the bindings' in wrangler.toml, and a
 * limit is enforced for real by the binding as the test pool simulates it. Every operation's RateLimit-Policy
 * header is checked by the generated conformance suite.
 */

/** `[[ratelimits]]` entries of a Worker's config (wrangler.toml unless given): name → { limit, period, namespace }. */
function configuredLimits(
  toml = wranglerToml,
): Record<string, { limit: number; period: number; namespace?: string }> {
  const entries: Record<string, { limit: number; period: number; namespace?: string }> = {};
  for (const block of toml.split("[[ratelimits]]").slice(1)) {
    const name = /name\s*=\s*"(\w+)"/.exec(block)?.[1];
    const namespace = /namespace_id\s*=\s*"(\d+)"/.exec(block)?.[1];
    const simple = /simple\s*=\s*\{\s*limit\s*=\s*(\d+)\s*,\s*period\s*=\s*(\d+)\s*\}/.exec(block);
    if (name && simple) entries[name] = { limit: Number(simple[1]), period: Number(simple[2]), namespace };
  }
  return entries;
}

/** An address of the documentation range, unique to the calling test. */
function testIp(): string {
  return `2001:db8::${newId("ip").slice(-4)}:${newId("ip").slice(-4)}`;
}

/**
 * The local limiter counts in fixed windows aligned to the period. A test that starts within a few seconds of the
 * next window waits for it, so its requests all fall in one window.
 */
async function withinOneWindow(periodSeconds: number, needSeconds: number): Promise<void> {
  const left = periodSeconds * 1000 - (Date.now() % (periodSeconds * 1000));
  if (left < needSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe("rate limits", () => {
  it("are the bindings wrangler.toml configures", () => {
    const configured = configuredLimits();
    for (const policy of Object.values(RATE_LIMIT_POLICIES)) {
      expect(configured[policy.binding], policy.binding).toMatchObject({
        limit: policy.limit,
        period: policy.period,
      });
    }
  });

  it("the Email Worker counts a connection's mail against the API Worker's connector limit: the same binding", () => {
    const binding = RATE_LIMIT_POLICIES.connector.binding;
    expect(configuredLimits(emailWranglerToml)[binding]).toEqual(configuredLimits()[binding]);
  });

  it("past the client-address limit a request is 429 rate_limited with Retry-After and RateLimit; another address and a credential are unaffected", async () => {
    const policy = RATE_LIMIT_POLICIES.client_ip;
    const g = await createGallery();
    const ip = testIp();
    const anonymous = (address: string, key: string | null = null) =>
      call("GET", "/gallery/artworks", { key, headers: { "cf-connecting-ip": address } });
    await withinOneWindow(policy.period, 25);
    // Every request without a credential counts against its address: the whole limit answers 401.
    for (let n = 0; n < policy.limit; n++) {
      const response = await anonymous(ip);
      if (response.status !== 401) throw new Error(`request ${n + 1} answered ${response.status}`);
      await response.body?.cancel();
    }
    const refused = await anonymous(ip);
    expect(refused.headers.get("retry-after")).toBe(String(policy.period));
    expect(refused.headers.get("ratelimit")).toBe(`"client_ip";r=0;t=${policy.period}`);
    expect(refused.headers.get("ratelimit-policy")).toBe(policyHeader(policy));
    const problem = await expectProblem(refused, 429, "rate_limited");
    expect(problem.retry).toBe("after_delay");
    expect(problem.details).toEqual({
      policy: "client_ip",
      limit: policy.limit,
      window_seconds: policy.period,
    });
    // Still refused: a refusal does not open the window again.
    await expectProblem(await anonymous(ip), 429, "rate_limited");
    // Another address is counted on its own.
    await expectProblem(await anonymous(testIp()), 401, "unauthenticated");
    // A credential from the same address is counted by the credential, not the address.
    const withKey = await anonymous(ip, g.key);
    expect(withKey.status, await withKey.clone().text()).toBe(200);
    expect(withKey.headers.get("ratelimit-policy")).toBe(policyHeader(RATE_LIMIT_POLICIES.secret));
    expect(withKey.headers.get("ratelimit")).toBeNull();
  });

  it(
    "every route that is not an operation is counted by client address: meta routes, the document, the reference page, stored images, 404, 405 and preflights",
    { timeout: 60_000 },
    async () => {
      const policy = RATE_LIMIT_POLICIES.client_ip;
      const ip = testIp();
      const others: [string, string, Record<string, string>?][] = [
        ["GET", "/health"],
        ["GET", "/errors"],
        ["GET", "/errors/not_found"],
        ["GET", "/event-types"],
        ["GET", "/openapi.json"],
        ["GET", "/docs"],
        ["GET", "/assets/galleries/gal_0000000000/artworks/art_0000000000/img_0000000000.png"],
        ["GET", "/no-such-path"],
        ["DELETE", "/health"],
        [
          "OPTIONS",
          "/public/viewing-rooms",
          { origin: "https://collector.example", "access-control-request-method": "GET" },
        ],
      ];
      const send = (method: string, path: string, headers: Record<string, string> = {}) =>
        call(method, path, { headers: { ...headers, "cf-connecting-ip": ip } });
      await withinOneWindow(policy.period, 30);
      // Each answers as before, and names the client-address limit it was counted against.
      const statuses: number[] = [];
      for (const [method, path, headers] of others) {
        const response = await send(method, path, headers);
        statuses.push(response.status);
        expect(response.headers.get("ratelimit-policy"), `${method} ${path}`).toBe(policyHeader(policy));
        await response.body?.cancel();
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 404, 404, 405, 204]);
      // They share the address's count with credential-less operation requests: spend the rest on /health ...
      for (let n = others.length; n < policy.limit; n++) {
        const response = await send("GET", "/health");
        if (response.status !== 200) throw new Error(`request ${n + 1} answered ${response.status}`);
        await response.body?.cancel();
      }
      // ... and every one of them is refused from that address, with the headers of a 429.
      for (const [method, path, headers] of others) {
        const refused = await send(method, path, headers);
        expect(refused.headers.get("retry-after"), `${method} ${path}`).toBe(String(policy.period));
        expect(refused.headers.get("ratelimit")).toBe(`"client_ip";r=0;t=${policy.period}`);
        expect(refused.headers.get("ratelimit-policy")).toBe(policyHeader(policy));
        await expectProblem(refused, 429, "rate_limited");
      }
      await expectProblem(await send("GET", "/gallery/artworks"), 429, "rate_limited");
      // Another address is not.
      const elsewhere = await call("GET", "/health", { headers: { "cf-connecting-ip": testIp() } });
      expect(elsewhere.status).toBe(200);
    },
  );
});
