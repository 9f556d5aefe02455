import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { sign, WEBHOOK_USER_AGENT, webhookHeaders } from "../../lib/webhook-signing";
import {
  decide,
  JITTER,
  MAX_ATTEMPTS,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
  RETRY_SCHEDULE_MS,
  retryDelayMs,
} from "../../services/webhooks/delivery";
import { defaultLeaseMs, TICKET_BUDGET_MS } from "../../services/webhooks/dispatch";

const SECOND = 1000;
const HOUR = 3600 * SECOND;

function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`;
}

describe("Standard Webhooks signing", () => {
  it("matches the specification's example signature", async () => {
    // The example of the Standard Webhooks reference libraries.
    const signature = await sign({
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    });
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("produces what the reference library computes, for any secret and body", async () => {
    const secret = newSecret();
    const body = JSON.stringify({ id: "evt_1", data: { title: "Ünïcode ✓", n: 1 } });
    const timestamp = Math.floor(Date.now() / 1000);
    const ours = await sign({ id: "evt_1", timestamp, body, secret });
    expect(ours).toBe(new Webhook(secret).sign("evt_1", new Date(timestamp * 1000), body));
  });

  it("headers carry one signature per secret; a receiver with either secret verifies", async () => {
    const current = newSecret();
    const previous = newSecret();
    const body = JSON.stringify({ id: "evt_2", type: "artwork.created" });
    const headers = await webhookHeaders({
      id: "evt_2",
      timestamp: Math.floor(Date.now() / 1000),
      body,
      secrets: [current, previous],
    });
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["user-agent"]).toBe(WEBHOOK_USER_AGENT);
    expect(headers["webhook-id"]).toBe("evt_2");
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow("No matching signature");
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow("No matching signature");
  });

  it("a stale timestamp is refused by the receiver", async () => {
    const secret = newSecret();
    const body = "{}";
    const headers = await webhookHeaders({
      id: "evt_3",
      timestamp: Math.floor(Date.now() / 1000) - 3600,
      body,
      secrets: [secret],
    });
    expect(() => new Webhook(secret).verify(body, headers)).toThrow("too old");
  });
});

describe("retry schedule", () => {
  it("is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then failed after attempt 10", () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelayMs(n, mid))).toEqual([
      5 * SECOND,
      300 * SECOND,
      1800 * SECOND,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      14 * HOUR,
      20 * HOUR,
      24 * HOUR,
    ]);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(retryDelayMs(10, mid)).toBeNull();
  });

  it("jitters each delay within ±10 %", () => {
    for (const [index, base] of RETRY_SCHEDULE_MS.entries()) {
      expect(retryDelayMs(index + 1, () => 0)).toBe(Math.round(base * (1 - JITTER)));
      expect(retryDelayMs(index + 1, () => 0.999_999)).toBeLessThanOrEqual(base * (1 + JITTER));
      for (let i = 0; i < 50; i++) {
        const delay = retryDelayMs(index + 1)!;
        expect(delay).toBeGreaterThanOrEqual(base * (1 - JITTER));
        expect(delay).toBeLessThanOrEqual(base * (1 + JITTER));
      }
    }
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-05-01T12:00:00.000Z");

  it("reads delay-seconds and HTTP-dates", () => {
    expect(parseRetryAfter("120", now)).toBe(120 * SECOND);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Fri, 01 May 2026 13:00:00 GMT", now)).toBe(HOUR);
    expect(parseRetryAfter("Friday, 01-May-26 12:00:30 GMT", now)).toBe(30 * SECOND);
    expect(parseRetryAfter("Thu, 30 Apr 2026 12:00:00 GMT", now)).toBe(0);
  });

  it("ignores what is neither", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("1.5", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});

describe("deciding a delivery's fate", () => {
  const mid = () => 0.5;
  const now = Date.parse("2026-05-01T12:00:00.000Z");
  const answer = (statusCode: number, retryAfter: string | null = null) => ({
    statusCode,
    retryAfter,
    responseBody: null,
    latencyMs: 5,
  });

  it("2xx succeeds; 410 abandons and disables", () => {
    expect(decide(1, answer(200), mid, now)).toEqual({ status: "succeeded", delayMs: null, gone: false });
    expect(decide(3, answer(204), mid, now).status).toBe("succeeded");
    expect(decide(1, answer(410), mid, now)).toEqual({ status: "abandoned", delayMs: null, gone: true });
  });

  it("other answers, timeouts and network errors retry on the schedule, then fail", () => {
    for (const result of [
      answer(500),
      answer(301),
      answer(404),
      answer(429),
      { error: "timeout after 15000 ms", latencyMs: 15000 },
    ]) {
      expect(decide(1, result, mid, now)).toEqual({ status: "pending", delayMs: 5 * SECOND, gone: false });
      expect(decide(9, result, mid, now).delayMs).toBe(24 * HOUR);
      expect(decide(10, result, mid, now)).toEqual({ status: "failed", delayMs: null, gone: false });
    }
  });

  it("429 and 503 wait at least Retry-After (capped at 24 h), never less than the schedule", () => {
    expect(decide(1, answer(429, "120"), mid, now).delayMs).toBe(120 * SECOND);
    expect(decide(1, answer(503, "Fri, 01 May 2026 14:00:00 GMT"), mid, now).delayMs).toBe(2 * HOUR);
    expect(decide(3, answer(429, "1"), mid, now).delayMs).toBe(1800 * SECOND);
    expect(decide(1, answer(429, String(7 * 24 * 3600)), mid, now).delayMs).toBe(RETRY_AFTER_CAP_MS);
    expect(decide(1, answer(500, "600"), mid, now).delayMs).toBe(5 * SECOND);
    expect(decide(10, answer(429, "60"), mid, now).status).toBe("failed");
  });
});

describe("lease", () => {
  it("outlasts the longest ticket: a send started at the end of its budget that times out, plus the database calls", () => {
    for (const [budget, timeout] of [
      [TICKET_BUDGET_MS, 15_000],
      [1_000, 15_000],
      [60_000, 5_000],
    ] as const) {
      const worstTicket = budget + timeout;
      expect(defaultLeaseMs(timeout, budget)).toBeGreaterThan(worstTicket + 30_000);
    }
  });
});
