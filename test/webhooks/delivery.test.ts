import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, inject, it } from "vitest";
import { textArray } from "../db/queries/rows";
import { claimDueDeliveries, recordOutcomes } from "../db/queries/webhook-drain";
import { newId } from "../lib/ids";
import {
  type DrainOptions,
  type DrainResult,
  drain,
  JITTER,
  RESPONSE_BODY_LIMIT,
  RETRY_SCHEDULE_MS,
} from "../lib/webhook-delivery";
import { WEBHOOK_USER_AGENT } from "../lib/webhook-signing";
import { call, createGallery, db, json, type TestGallery } from "./helpers/gallery";
import type { Behaviour, ReceivedRequest } from "./receiver";

const receiverUrl = inject("receiverUrl");
const refusedUrl = inject("refusedUrl");

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

interface DomainEvent {
  id: string;
  type: string;
  livemode: boolean;
  resource_type: string;
  resource_id: string;
  data: Record<string, unknown>;
  created_at: string;
}

interface Endpoint {
  id: string;
  path: string;
  secret: string;
}

function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`;
}

/** An endpoint at its own path of the receiver (or at `url`), inserted as the endpoints API would. */
async function endpoint(g: TestGallery, types: string[] = ["*"], url?: string): Promise<Endpoint> {
  const id = newId("we");
  const path = `/${g.id}/${id}`;
  const secret = newSecret();
  await db().execute(sql`insert into webhook_endpoints (id, gallery_id, url, event_types, secret)
    values (${id}, ${g.id}, ${url ?? `${receiverUrl}${path}`}, ${textArray(types)}, ${secret})`);
  return { id, path, secret };
}

async function behave(path: string, behaviour: Behaviour): Promise<void> {
  const res = await fetch(`${receiverUrl}/__control${path}`, {
    method: "POST",
    body: JSON.stringify(behaviour),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

async function received(path: string): Promise<ReceivedRequest[]> {
  const res = await fetch(`${receiverUrl}/__received${path}`);
  return (await res.json()) as ReceivedRequest[];
}

/** Verifies a delivery as a receiver would, with the reference library: signature and timestamp. */
function verify(request: ReceivedRequest, secret: string): DomainEvent {
  expect(request.method).toBe("POST");
  expect(request.headers["content-type"]).toBe("application/json");
  expect(request.headers["user-agent"]).toBe(WEBHOOK_USER_AGENT);
  const event = new Webhook(secret).verify(request.body, request.headers) as DomainEvent;
  expect(event.id).toBe(request.headers["webhook-id"]);
  return event;
}

async function createArtwork(g: TestGallery, title: string): Promise<string> {
  const res = await call("POST", "/gallery/artworks", { key: g.key, body: { title } });
  expect(res.status).toBe(201);
  return (await json<{ id: string }>(res)).id;
}

async function feed(g: TestGallery): Promise<DomainEvent[]> {
  const res = await call("GET", "/gallery/events?limit=100", { key: g.key });
  expect(res.status).toBe(200);
  return (await json<{ data: DomainEvent[] }>(res)).data;
}

async function dbNow(): Promise<number> {
  const result = await db().execute<{ now: string }>(sql`select iso_ms(clock_timestamp()) as now`);
  return Date.parse(result.rows[0]!.now);
}

type DeliveryRow = {
  id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  lease_expires_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_response_body: string | null;
  last_latency_ms: number | null;
};

async function deliveries(endpointId: string): Promise<DeliveryRow[]> {
  const result = await db().execute<DeliveryRow>(sql`select id, event_id, status, attempt_count,
      iso_ms(next_attempt_at) as next_attempt_at, iso_ms(lease_expires_at) as lease_expires_at, last_status_code,
      last_error, last_response_body, last_latency_ms
    from webhook_deliveries where endpoint_id = ${endpointId} order by created_at, id`);
  return result.rows;
}

async function attempts(deliveryId: string) {
  const result = await db().execute<{
    status_code: number | null;
    latency_ms: number;
    error: string | null;
    response_body: string | null;
    attempted_at: string;
  }>(sql`select status_code, latency_ms, error, response_body, iso_ms(attempted_at) as attempted_at
    from webhook_delivery_attempts where delivery_id = ${deliveryId} order by attempted_at, id`);
  return result.rows;
}

async function endpointRow(id: string) {
  const result = await db().execute<{
    enabled: boolean;
    disabled_reason: string | null;
    failing_since: string | null;
  }>(sql`select enabled, disabled_reason, iso_ms(failing_since) as failing_since
    from webhook_endpoints where id = ${id}`);
  return result.rows[0]!;
}

/** One tick for this gallery only, so that suites running in parallel never drain each other's deliveries. */
function tick(g: TestGallery, options: DrainOptions = {}): Promise<DrainResult> {
  return drain(env, { galleryId: g.id, random: () => 0.5, ...options });
}

const at = (base: number, offset: number) => new Date(base + offset);

describe("webhook delivery: the happy path", () => {
  it("POSTs every event to every matching endpoint, signed, with the event as GET /gallery/events/{id} shows it", async () => {
    const g = await createGallery();
    const all = await endpoint(g, ["*"]);
    const artworks = await endpoint(g, ["artwork.*"]);
    const priced = await endpoint(g, ["artwork.price_changed"]);
    const keys = await endpoint(g, ["api_key.*"]);

    const id = await createArtwork(g, "Signed");
    await createArtwork(g, "Signed too");
    const patched = await call("PATCH", `/gallery/artworks/${id}`, {
      key: g.key,
      body: { price_cents: 900 },
    });
    expect(patched.status).toBe(200);
    const events = await feed(g);
    expect(events).toHaveLength(4);

    const result = await tick(g);
    expect(result).toMatchObject({ claimed: 9, succeeded: 9, rescheduled: 0, failed: 0, abandoned: 0 });

    const expected = (types: (t: string) => boolean) =>
      events
        .filter((e) => types(e.type))
        .map((e) => e.id)
        .sort();
    for (const [ep, matches] of [
      [all, () => true],
      [artworks, (t: string) => t.startsWith("artwork.")],
      [priced, (t: string) => t === "artwork.price_changed"],
      [keys, () => false],
    ] as const) {
      const got = await received(ep.path);
      expect(got.map((r) => verify(r, ep.secret).id).sort()).toEqual(expected(matches));
      for (const request of got) {
        const res = await call("GET", `/gallery/events/${request.headers["webhook-id"]}`, { key: g.key });
        expect(res.status).toBe(200);
        expect(JSON.parse(request.body)).toEqual(await res.json());
      }
    }

    const rows = await deliveries(all.id);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: "succeeded",
        attempt_count: 1,
        next_attempt_at: null,
        lease_expires_at: null,
        last_status_code: 200,
        last_error: null,
        last_response_body: "ok",
      });
      const [attempt, ...more] = await attempts(row.id);
      expect(more).toEqual([]);
      expect(attempt).toMatchObject({ status_code: 200, error: null, response_body: "ok" });
      expect(attempt!.latency_ms).toBeGreaterThanOrEqual(0);
    }
    expect((await tick(g)).claimed).toBe(0);
  });

  it("signs with both secrets while a rotation's window is open, then with the new one only", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    const previous = newSecret();
    await db().execute(sql`update webhook_endpoints
      set previous_secret = ${previous}, previous_secret_expires_at = now() + interval '24 hours' where id = ${ep.id}`);
    await createArtwork(g, "During rotation");
    expect((await tick(g)).succeeded).toBe(1);

    const [during] = await received(ep.path);
    expect(during!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(verify(during!, ep.secret).type).toBe("artwork.created");
    expect(verify(during!, previous).type).toBe("artwork.created");
    expect(() => verify(during!, newSecret())).toThrow("No matching signature");

    await db().execute(sql`update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second'
      where id = ${ep.id}`);
    await createArtwork(g, "After rotation");
    expect((await tick(g)).succeeded).toBe(1);
    const [, after] = await received(ep.path);
    expect(after!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    verify(after!, ep.secret);
    expect(() => verify(after!, previous)).toThrow("No matching signature");
  });
});

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
    expect(row!.last_error).toMatch(/^network error: /);
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

describe("webhook delivery: claims and leases", () => {
  it("two drains at once never send the same delivery", async () => {
    const g = await createGallery();
    const a = await endpoint(g);
    const b = await endpoint(g, ["artwork.created"]);
    for (let i = 0; i < 8; i++) await createArtwork(g, `Concurrent ${i}`);

    const rounds: DrainResult[] = [];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([
        tick(g, { limit: 5, concurrency: 3 }),
        tick(g, { limit: 5, concurrency: 3 }),
      ]);
      rounds.push(...results);
    }
    expect(rounds.every((r) => r.claimed <= 5)).toBe(true);
    expect(rounds.reduce((n, r) => n + r.claimed, 0)).toBe(16);
    expect(rounds.reduce((n, r) => n + r.succeeded, 0)).toBe(16);
    for (const ep of [a, b]) {
      const ids = (await received(ep.path)).map((r) => verify(r, ep.secret).id);
      expect(ids).toHaveLength(8);
      expect(new Set(ids).size).toBe(8);
    }
  });

  it("a drain killed between claim and record: re-sent once the lease expires, never before", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await createArtwork(g, "Orphaned 1");
    await createArtwork(g, "Orphaned 2");
    const t0 = (await dbNow()) + SECOND;

    // The claim of a drain that then dies (it may or may not have sent): the same statement, never recorded.
    const killed = await claimDueDeliveries(db(), {
      now: at(t0, 0),
      limit: 40,
      leaseMs: MINUTE,
      galleryId: g.id,
    });
    expect(killed.deliveries).toHaveLength(2);
    expect(Date.parse(killed.deliveries[0]!.lease)).toBe(t0 + MINUTE);

    expect((await tick(g, { now: at(t0, 30 * SECOND) })).claimed).toBe(0);
    expect((await tick(g, { now: at(t0, MINUTE) })).claimed).toBe(0);
    expect(await received(ep.path)).toEqual([]);
    expect(await tick(g, { now: at(t0, MINUTE + 1) })).toMatchObject({ claimed: 2, succeeded: 2 });
    const got = await received(ep.path);
    expect(got.map((r) => verify(r, ep.secret).id).sort()).toEqual(
      killed.deliveries.map((d) => d.eventId).sort(),
    );

    // Should the dead drain come back and record, its lease no longer stands: nothing changes.
    await recordOutcomes(
      db(),
      killed.deliveries.map((d) => ({
        id: d.id,
        lease: d.lease,
        status: "failed",
        nextAttemptAt: null,
        attempt: {
          attemptedAt: at(t0, 0).toISOString(),
          statusCode: 500,
          latencyMs: 1,
          error: null,
          responseBody: "",
        },
      })),
      [],
    );
    for (const row of await deliveries(ep.id)) {
      expect(row).toMatchObject({ status: "succeeded", attempt_count: 1 });
      expect(await attempts(row.id)).toHaveLength(1);
    }
  });

  it("claims beyond the tick's subrequest budget are released for the next tick, unsent", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    for (let i = 0; i < 5; i++) await createArtwork(g, `Budget ${i}`);
    const before = await deliveries(ep.id);
    // 4 subrequests are the database's: 2 remain for sends.
    expect(await tick(g, { subrequests: 6, concurrency: 1 })).toMatchObject({
      claimed: 5,
      succeeded: 2,
      released: 3,
    });
    const after = await deliveries(ep.id);
    const released = after.filter((r) => r.status === "pending");
    expect(released).toHaveLength(3);
    for (const row of released) {
      expect(row).toMatchObject({ attempt_count: 0, lease_expires_at: null });
      expect(row.next_attempt_at).toBe(before.find((r) => r.id === row.id)!.next_attempt_at);
    }
    expect(await tick(g)).toMatchObject({ claimed: 3, succeeded: 3 });
    expect(new Set((await received(ep.path)).map((r) => r.headers["webhook-id"])).size).toBe(5);
  });
});

describe("webhook delivery: the same tick purges expired rows", () => {
  it("idempotency keys older than 14 days and expired upload tokens", async () => {
    const g = await createGallery();
    const member = newId("mem");
    await db().execute(sql`insert into members (id, gallery_id, email, name, role, password_hash)
      values (${member}, ${g.id}, ${`${member}@example.com`}, 'M', 'editor', 'x')`);
    const key = (name: string, age: string) =>
      db().execute(sql`insert into idempotency_keys (gallery_id, key, request_hash, method, path, response_status, created_at)
        values (${g.id}, ${name}, 'h', 'POST', '/x', 201, now() - ${age}::interval)`);
    await key("old", "15 days");
    await key("recent", "13 days");
    const token = (id: string, expires: string, used: boolean) =>
      db().execute(sql`insert into upload_tokens (id, gallery_id, token_hash, storage_path, purpose, member_id, expires_at, used_at)
        values (${id}, ${g.id}, ${id}, 'p', 'publication_cover', ${member}, now() + ${expires}::interval,
          ${used ? sql`now()` : sql`null`})`);
    await token(newId("upl"), "-1 minute", false);
    await token(newId("upl"), "-1 minute", true);
    const live = newId("upl");
    await token(live, "10 minutes", false);

    expect((await tick(g)).purged).toEqual({ idempotencyKeys: 1, uploadTokens: 2 });
    const keys = await db().execute<{ key: string }>(
      sql`select key from idempotency_keys where gallery_id = ${g.id}`,
    );
    expect(keys.rows.map((r) => r.key)).toEqual(["recent"]);
    const tokens = await db().execute<{ id: string }>(
      sql`select id from upload_tokens where gallery_id = ${g.id}`,
    );
    expect(tokens.rows.map((r) => r.id)).toEqual([live]);
  });
});

describe("webhook delivery: break, rotate, heal", () => {
  it("every event reaches every matching endpoint at least once, and every webhook-id is in the events feed", async () => {
    const g = await createGallery();
    const flaky = await endpoint(g, ["*"]);
    const slow = await endpoint(g, ["artwork.*"]);
    const busy = await endpoint(g, ["artwork.created", "artwork.deleted"]);
    const down = await endpoint(g, ["*"], `${refusedUrl}/down`);
    await behave(flaky.path, { status: 500 });
    await behave(slow.path, { delay_ms: 2000 });
    await behave(busy.path, { status: 429, headers: { "retry-after": "120" } });

    const first = await createArtwork(g, "Before");
    await call("PATCH", `/gallery/artworks/${first}`, { key: g.key, body: { price_cents: 100 } });
    const t0 = (await dbNow()) + SECOND;
    const broken = await tick(g, { now: at(t0, 0), timeoutMs: 300 });
    expect(broken).toMatchObject({ claimed: 10, succeeded: 0, rescheduled: 10 });

    // Rotate the flaky endpoint's secret mid-stream: the old one keeps signing for 24 h.
    const rotated = newSecret();
    await db().execute(sql`update webhook_endpoints set previous_secret = secret, secret = ${rotated},
      previous_secret_expires_at = now() + interval '24 hours' where id = ${flaky.id}`);
    const second = await createArtwork(g, "During");
    await call("DELETE", `/gallery/artworks/${second}`, { key: g.key });

    // Heal: the receiver answers, the endpoint that was down moves to a live URL.
    for (const ep of [flaky, slow, busy]) await behave(ep.path, { status: 200 });
    await db().execute(
      sql`update webhook_endpoints set url = ${`${receiverUrl}${down.path}`} where id = ${down.id}`,
    );
    let healed = 0;
    for (const offset of [10 * SECOND, 3 * MINUTE, 10 * MINUTE]) {
      healed += (await tick(g, { now: at(t0, offset), timeoutMs: 300 })).succeeded;
    }
    const events = await feed(g);
    const matches = (types: string[], type: string) =>
      types.some((t) => t === "*" || t === type || (t.endsWith(".*") && type.startsWith(t.slice(0, -1))));
    const subscriptions: [Endpoint, string[], string[]][] = [
      [flaky, ["*"], [flaky.secret, rotated]],
      [slow, ["artwork.*"], [slow.secret]],
      [busy, ["artwork.created", "artwork.deleted"], [busy.secret]],
      [down, ["*"], [down.secret]],
    ];
    let expectedDeliveries = 0;
    for (const [ep, types, secrets] of subscriptions) {
      const wanted = events.filter((e) => matches(types, e.type)).map((e) => e.id);
      expectedDeliveries += wanted.length;
      const got = await received(ep.path);
      const deliveredIds = new Set<string>();
      for (const request of got) {
        // Before the rotation only the old secret signed; after it, both: one of them always verifies.
        const verifies = secrets.filter((s) => {
          try {
            verify(request, s);
            return true;
          } catch {
            return false;
          }
        });
        expect(verifies.length).toBeGreaterThan(0);
        deliveredIds.add(request.headers["webhook-id"]!);
      }
      expect([...deliveredIds].sort()).toEqual([...wanted].sort());
      for (const row of await deliveries(ep.id)) expect(row.status).toBe("succeeded");
    }
    expect(healed).toBe(expectedDeliveries);
    const rotatedDeliveries = (await received(flaky.path)).filter((r) => {
      try {
        verify(r, rotated);
        return true;
      } catch {
        return false;
      }
    });
    for (const request of rotatedDeliveries) verify(request, flaky.secret);
    expect(rotatedDeliveries.length).toBe(events.length);

    // The feed and the deliveries agree: each webhook-id is an event the API serves, with the same body.
    for (const [ep] of subscriptions) {
      for (const request of await received(ep.path)) {
        const res = await call("GET", `/gallery/events/${request.headers["webhook-id"]}`, { key: g.key });
        expect(res.status).toBe(200);
        expect(JSON.parse(request.body)).toEqual(await res.json());
      }
    }
  });
});
