import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  describeFetchError,
  JITTER,
  RESPONSE_BODY_LIMIT,
  RETRY_SCHEDULE_MS,
} from "../../services/webhooks/delivery";
import { createGallery, db } from "../helpers/gallery";
import {
  at,
  attempts,
  behave,
  createArtwork,
  DAY,
  dbNow,
  deliveries,
  type Endpoint,
  endpoint,
  endpointRow,
  feed,
  received,
  refusedUrl,
  SECOND,
  tick,
  verify,
} from "./delivery-helpers";

/** Webhook delivery faults: errors, timeouts, retries, backoff and giving up. */

describe("webhook delivery: faults", () => {
  it("a 500 is recorded and retried after 5 s ± 10 %; the retry succeeds and clears failing_since", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await behave(ep.path, { status: 500, body: "é".repeat(RESPONSE_BODY_LIMIT) });
    await createArtwork(g, "Retried");
    const t0 = (await dbNow()) + SECOND;

    expect(await tick(g, { now: at(t0, 0), random: () => 0.999 })).toMatchObject({
      claimed: 1,
      rescheduled: 1,
    });
    const [row] = await deliveries(ep.id);
    expect(row).toMatchObject({
      status: "pending",
      attempt_count: 1,
      last_status_code: 500,
      lease_expires_at: null,
    });
    // Stored truncated to 1 KiB (here 512 two-byte characters).
    expect(row!.last_response_body).toBe("é".repeat(RESPONSE_BODY_LIMIT / 2));
    const [first] = await attempts(row!.id);
    expect(first).toMatchObject({ status_code: 500 });
    const delay = Date.parse(row!.next_attempt_at!) - Date.parse(first!.attempted_at);
    expect(delay).toBeGreaterThanOrEqual(5 * SECOND * (1 + JITTER * 0.99));
    expect(delay).toBeLessThanOrEqual(5 * SECOND * (1 + JITTER) + SECOND);
    expect((await endpointRow(ep.id)).failing_since).toBe(first!.attempted_at);

    // Not due before its time.
    expect((await tick(g, { now: at(t0, 5 * SECOND) })).claimed).toBe(0);
    await behave(ep.path, { status: 200 });
    expect(await tick(g, { now: at(t0, 7 * SECOND) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect((await deliveries(ep.id))[0]).toMatchObject({ status: "succeeded", attempt_count: 2 });
    expect((await endpointRow(ep.id)).failing_since).toBeNull();

    const got = await received(ep.path);
    expect(got).toHaveLength(2);
    expect(got.map((r) => verify(r, ep.secret).id)).toEqual([row!.event_id, row!.event_id]);
  });

  it("follows the whole schedule, then gives up after the 10th attempt", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await behave(ep.path, { status: 502 });
    await createArtwork(g, "Never accepted");
    let now = (await dbNow()) + SECOND;
    const random = () => 0.75; // +5 %
    for (const [index, base] of RETRY_SCHEDULE_MS.entries()) {
      expect(await tick(g, { now: new Date(now), random })).toMatchObject({ claimed: 1, rescheduled: 1 });
      const [row] = await deliveries(ep.id);
      expect(row!.attempt_count).toBe(index + 1);
      const last = (await attempts(row!.id)).at(-1)!;
      const delay = Date.parse(row!.next_attempt_at!) - Date.parse(last.attempted_at);
      expect(delay).toBeGreaterThanOrEqual(Math.round(base * 1.05));
      expect(delay).toBeLessThanOrEqual(Math.round(base * 1.05) + SECOND);
      // One millisecond early is too early.
      expect((await tick(g, { now: new Date(Date.parse(row!.next_attempt_at!) - 1) })).claimed).toBe(0);
      now = Date.parse(row!.next_attempt_at!);
    }
    expect(await tick(g, { now: new Date(now), random })).toMatchObject({ claimed: 1, failed: 1 });
    const [row] = await deliveries(ep.id);
    expect(row).toMatchObject({
      status: "failed",
      attempt_count: 10,
      next_attempt_at: null,
      last_status_code: 502,
    });
    expect(await attempts(row!.id)).toHaveLength(10);
    expect((await tick(g, { now: new Date(now + 30 * DAY) })).claimed).toBe(0);

    const got = await received(ep.path);
    expect(got).toHaveLength(10);
    for (const request of got) expect(verify(request, ep.secret).id).toBe(row!.event_id);
    // Three days of failures are not five: the endpoint stays enabled.
    expect((await endpointRow(ep.id)).enabled).toBe(true);
  });

  it("a receiver slower than the timeout is a failed attempt, retried", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await behave(ep.path, { delay_ms: 3000 });
    await createArtwork(g, "Slow");
    expect(await tick(g, { timeoutMs: 200 })).toMatchObject({ claimed: 1, rescheduled: 1 });
    const [row] = await deliveries(ep.id);
    expect(row).toMatchObject({
      status: "pending",
      last_status_code: null,
      last_error: "timeout after 200 ms",
    });
    expect(row!.last_latency_ms).toBeGreaterThanOrEqual(150);
    expect(await received(ep.path)).toHaveLength(1);
  });

  it("a receiver that is down (connection refused) is a failed attempt, retried", async () => {
    const g = await createGallery();
    const ep = await endpoint(g, ["*"], `${refusedUrl}/hooks`);
    await createArtwork(g, "Nobody home");
    expect(await tick(g)).toMatchObject({ claimed: 1, rescheduled: 1 });
    const [row] = await deliveries(ep.id);
    expect(row).toMatchObject({ status: "pending", attempt_count: 1, last_status_code: null });
    expect(row!.last_error).toMatch(/^connection to 127\.0\.0\.1 refused or reset before a response \(/);
    expect((await attempts(row!.id))[0]!.error).toBe(row!.last_error);
  });

  it("a host name that does not resolve is recorded as such, in words", async () => {
    const g = await createGallery();
    const ep = await endpoint(g, ["*"], "http://no-such-receiver.invalid/hooks");
    await createArtwork(g, "Nowhere");
    expect(await tick(g)).toMatchObject({ claimed: 1, rescheduled: 1 });
    const [row] = await deliveries(ep.id);
    expect(row!.last_error).toMatch(
      /^could not connect to no-such-receiver\.invalid: the host name does not resolve/,
    );
    expect((await attempts(row!.id))[0]!.error).toBe(row!.last_error);
  });

  it("an endpoint whose secret cannot be used fails alone; the rest of the tick is delivered", async () => {
    const g = await createGallery();
    const broken = await endpoint(g);
    const fine = await endpoint(g);
    await db().execute(
      sql`update webhook_endpoints set secret = 'whsec_not base64!' where id = ${broken.id}`,
    );
    await createArtwork(g, "Unsignable");
    expect(await tick(g)).toMatchObject({ claimed: 2, succeeded: 1, rescheduled: 1 });
    expect((await deliveries(broken.id))[0]!.last_error).toMatch(/^cannot sign: /);
    expect(await received(broken.path)).toEqual([]);
    verify((await received(fine.path))[0]!, fine.secret);
  });

  it("429 and 503 with Retry-After wait as long as the receiver asks", async () => {
    const g = await createGallery();
    const minutes = await endpoint(g);
    const date = await endpoint(g);
    const short = await endpoint(g);
    await behave(minutes.path, { status: 429, headers: { "retry-after": "600" } });
    await behave(date.path, {
      status: 503,
      headers: { "retry-after": new Date(Date.now() + 3600 * SECOND).toUTCString() },
    });
    await behave(short.path, { status: 429, headers: { "retry-after": "1" } });
    await createArtwork(g, "Busy");
    const t0 = (await dbNow()) + SECOND;
    expect(await tick(g, { now: at(t0, 0) })).toMatchObject({ claimed: 3, rescheduled: 3 });

    const delayOf = async (ep: Endpoint) => {
      const [row] = await deliveries(ep.id);
      const [attempt] = await attempts(row!.id);
      return Date.parse(row!.next_attempt_at!) - Date.parse(attempt!.attempted_at);
    };
    expect(await delayOf(minutes)).toBeGreaterThanOrEqual(600 * SECOND);
    expect(await delayOf(minutes)).toBeLessThan(601 * SECOND);
    expect(await delayOf(date)).toBeGreaterThanOrEqual(3590 * SECOND);
    expect(await delayOf(date)).toBeLessThanOrEqual(3601 * SECOND);
    // Retry-After shorter than the schedule: the schedule wins.
    expect(await delayOf(short)).toBeGreaterThanOrEqual(5 * SECOND);
    expect(await delayOf(short)).toBeLessThan(6 * SECOND);

    for (const ep of [minutes, date, short]) await behave(ep.path, { status: 200 });
    expect(await tick(g, { now: at(t0, 6 * SECOND) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await tick(g, { now: at(t0, 599 * SECOND) })).toMatchObject({ claimed: 0 });
    expect(await tick(g, { now: at(t0, 602 * SECOND) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await tick(g, { now: at(t0, 3500 * SECOND) })).toMatchObject({ claimed: 0 });
    expect(await tick(g, { now: at(t0, 3602 * SECOND) })).toMatchObject({ claimed: 1, succeeded: 1 });
    for (const ep of [minutes, date, short]) {
      const got = await received(ep.path);
      expect(got).toHaveLength(2);
      for (const request of got) verify(request, ep.secret);
    }
  });

  it("410 disables the endpoint, abandons its pending deliveries and emits webhook_endpoint.disabled", async () => {
    const g = await createGallery();
    const goneEp = await endpoint(g, ["artwork.*"]);
    const watcher = await endpoint(g, ["webhook_endpoint.*"]);
    await behave(goneEp.path, { status: 410 });
    for (const title of ["One", "Two", "Three"]) await createArtwork(g, title);

    // One at a time: after the 410, the rest of the tick's deliveries to that endpoint are not sent.
    expect(await tick(g, { concurrency: 1 })).toMatchObject({ claimed: 3, abandoned: 3, succeeded: 0 });
    expect(await received(goneEp.path)).toHaveLength(1);
    expect(await endpointRow(goneEp.id)).toMatchObject({ enabled: false, disabled_reason: "gone" });
    const rows = await deliveries(goneEp.id);
    expect(rows.map((r) => r.status)).toEqual(["abandoned", "abandoned", "abandoned"]);
    expect(rows.map((r) => r.attempt_count).sort()).toEqual([0, 0, 1]);
    expect(rows.find((r) => r.attempt_count === 1)!.last_status_code).toBe(410);

    const disabled = (await feed(g)).filter((e) => e.type === "webhook_endpoint.disabled");
    expect(disabled).toHaveLength(1);
    expect(disabled[0]).toMatchObject({ resource_type: "webhook_endpoint", resource_id: goneEp.id });
    const object = disabled[0]!.data.object as Record<string, unknown>;
    expect(object).toMatchObject({ id: goneEp.id, enabled: false, disabled_reason: "gone" });
    expect(JSON.stringify(disabled[0])).not.toContain(goneEp.secret);

    // The event reaches the endpoints that subscribe to it, like any other.
    expect(await tick(g)).toMatchObject({ claimed: 1, succeeded: 1 });
    const [notice] = await received(watcher.path);
    expect(verify(notice!, watcher.secret)).toEqual(disabled[0]);

    // Nothing more goes to the disabled endpoint.
    await createArtwork(g, "Four");
    expect((await tick(g)).claimed).toBe(0);
    expect(await received(goneEp.path)).toHaveLength(1);
    expect(await deliveries(goneEp.id)).toHaveLength(3);
  });

  it("an endpoint failing continuously for 5 days is disabled the same way", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await behave(ep.path, { status: 500 });
    await createArtwork(g, "A");
    await createArtwork(g, "B");
    await db().execute(sql`update webhook_endpoints set failing_since = now() - interval '5 days 1 minute'
      where id = ${ep.id}`);
    expect(await tick(g, { limit: 1 })).toMatchObject({ claimed: 1, rescheduled: 1 });
    expect(await endpointRow(ep.id)).toMatchObject({ enabled: false, disabled_reason: "failing" });
    expect((await deliveries(ep.id)).map((r) => r.status)).toEqual(["abandoned", "abandoned"]);
    const disabled = (await feed(g)).filter((e) => e.type === "webhook_endpoint.disabled");
    expect(disabled.map((e) => e.resource_id)).toEqual([ep.id]);
    // The event is not sent to the endpoint it disables.
    expect((await tick(g)).claimed).toBe(0);
    expect(await received(ep.path)).toHaveLength(1);
  });

  it("a failure younger than 5 days does not disable", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await behave(ep.path, { status: 500 });
    await createArtwork(g, "A");
    await db().execute(sql`update webhook_endpoints set failing_since = now() - interval '4 days 23 hours'
      where id = ${ep.id}`);
    expect(await tick(g)).toMatchObject({ claimed: 1, rescheduled: 1 });
    expect((await endpointRow(ep.id)).enabled).toBe(true);
  });

  it("deliveries of an endpoint disabled meanwhile are abandoned unsent", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await createArtwork(g, "Queued");
    await db().execute(sql`update webhook_endpoints set enabled = false where id = ${ep.id}`);
    expect(await tick(g)).toMatchObject({ claimed: 1, abandoned: 1, succeeded: 0 });
    const [row] = await deliveries(ep.id);
    expect(row).toMatchObject({ status: "abandoned", attempt_count: 0 });
    expect(await attempts(row!.id)).toEqual([]);
    expect(await received(ep.path)).toEqual([]);
  });
});

describe("describeFetchError", () => {
  const url = "https://hooks.example.com/in";
  it.each([
    ["DNS lookup failed.", /^DNS lookup failed: hooks\.example\.com does not resolve/],
    ["getaddrinfo ENOTFOUND hooks.example.com", /^DNS lookup failed: /],
    ["TLS peer's certificate is not trusted", /^TLS handshake with hooks\.example\.com failed/],
    ["connect ETIMEDOUT 203.0.113.9:443", /^timed out connecting to hooks\.example\.com/],
    ["connect(): Connection refused", /^connection refused by hooks\.example\.com/],
    ["Network connection lost.", /^connection to hooks\.example\.com refused or reset before a response/],
    [
      "internal error; reference = abc123",
      /^could not connect to hooks\.example\.com: the host name does not resolve/,
    ],
    ["something else", /^network error reaching hooks\.example\.com \(something else\)$/],
  ])("%s", (message, expected) => {
    expect(describeFetchError(new Error(message), url)).toMatch(expected);
  });
});
