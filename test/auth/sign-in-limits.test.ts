import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { policyHeader, RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import { call, createGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";
import { expectProblem } from "../helpers/problem";

/** Sign-in attempts are limited per email (5 a minute) and per client address (20 a minute). */

function attempt(email: string, password: string, ip?: string) {
  return call("POST", "/auth/sessions", {
    body: { email, password },
    headers: ip ? { "cf-connecting-ip": ip } : {},
  });
}

/** An address of the documentation range, unique to the calling test. */
function testIp(): string {
  const n = crypto.getRandomValues(new Uint8Array(2));
  return `2001:db8::${n[0]!.toString(16)}:${n[1]!.toString(16)}:${newId("ip").slice(-4)}`;
}

/**
 * The local limiter counts in fixed windows aligned to the minute. A test that starts within a few seconds of the
 * next window waits for it, so its attempts all fall in one window.
 */
async function withinOneWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const BOTH_POLICIES = policyHeader(RATE_LIMIT_POLICIES.sign_in_email, RATE_LIMIT_POLICIES.sign_in_ip);

async function expectRateLimited(response: Response, policy: "sign_in_email" | "sign_in_ip") {
  expect(response.headers.get("retry-after")).toBe("60");
  expect(response.headers.get("ratelimit")).toBe(`"${policy}";r=0;t=60`);
  expect(response.headers.get("ratelimit-policy")).toBe(BOTH_POLICIES);
  const problem = await expectProblem(response, 429, "rate_limited");
  expect(problem.retry).toBe("after_delay");
  expect(problem.details).toEqual({ policy, limit: policy === "sign_in_email" ? 5 : 20, window_seconds: 60 });
}

describe("POST /auth/sessions rate limits", () => {
  it("the 6th attempt for one email within the minute is 429 with Retry-After; another email is unaffected", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "editor");
    await withinOneWindow();
    const other = await createMember(g.id, "editor");
    for (let i = 0; i < 5; i++) {
      await expectProblem(await attempt(member.email, "wrong"), 401, "unauthenticated");
    }
    // The right password too: the limit counts attempts, not failures, and says nothing about the password.
    await expectRateLimited(await attempt(member.email, member.password), "sign_in_email");
    // Counted case-insensitively, like the email itself.
    await expectRateLimited(await attempt(member.email.toUpperCase(), member.password), "sign_in_email");
    const signedIn = await attempt(other.email, other.password);
    expect(signedIn.status).toBe(201);
    // Every answer names both limits, a success included.
    expect(signedIn.headers.get("ratelimit-policy")).toBe(BOTH_POLICIES);
  });

  it("an unknown email is limited exactly like a known one", async () => {
    const unknown = `${newId("nobody")}@gallery.example`;
    await withinOneWindow();
    for (let i = 0; i < 5; i++) {
      await expectProblem(await attempt(unknown, "wrong"), 401, "unauthenticated");
    }
    await expectRateLimited(await attempt(unknown, "wrong"), "sign_in_email");
  });

  it(
    "the 21st attempt from one client address within the minute is 429; another address is unaffected",
    { timeout: 40_000 },
    async () => {
      const g = await createGallery();
      const member = await createMember(g.id, "viewer");
      const ip = testIp();
      await withinOneWindow();
      for (let i = 0; i < 20; i++) {
        await expectProblem(
          await attempt(`${newId("nobody")}@gallery.example`, "wrong", ip),
          401,
          "unauthenticated",
        );
      }
      await expectRateLimited(await attempt(member.email, member.password, ip), "sign_in_ip");
      // Counted before the body is read: a malformed attempt from the address is refused the same way.
      await expectRateLimited(
        await call("POST", "/auth/sessions", { body: { email: 1 }, headers: { "cf-connecting-ip": ip } }),
        "sign_in_ip",
      );
      expect((await attempt(member.email, member.password, testIp())).status).toBe(201);
    },
  );

  it("a malformed attempt counts against its client address too", async () => {
    const ip = testIp();
    await withinOneWindow();
    for (let i = 0; i < 20; i++) {
      const response = await call("POST", "/auth/sessions", {
        body: { email: "not an email" },
        headers: { "cf-connecting-ip": ip },
      });
      await expectProblem(response, 400, "invalid_request");
    }
    await expectRateLimited(await attempt(`${newId("nobody")}@gallery.example`, "wrong", ip), "sign_in_ip");
  });
});
