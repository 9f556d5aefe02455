import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { claimTickets } from "../../db/queries/webhook-drain";
import {
  BACKOFF_MS,
  dispatch,
  ENDPOINT_CONCURRENCY,
  TICKET_SIZE,
  TRIP_FAILURES,
} from "../../services/webhooks/dispatch";
import { createGallery, db, type TestGallery } from "../helpers/gallery";
import {
  at,
  behave,
  consume,
  dbNow,
  deliveries,
  endpoint,
  MINUTE,
  received,
  SECOND,
  tick,
  verify,
} from "./delivery-helpers";

/**
 * Webhook dispatch: tickets per endpoint, fair across galleries and endpoints, a concurrency limit per endpoint, and
 * the backoff of an endpoint that times out or fails throughout — so that a burst or a slow endpoint in one gallery
 * holds up nobody else.
 */

/** `n` events in one statement, as a bulk import writes them: the fan-out trigger queues their deliveries. */
async function burst(g: TestGallery, n: number, type = "artwork.updated"): Promise<void> {
  await db().execute(sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
    select new_id('evt'), ${g.id}, ${type}, false, 'artwork', 'art_burst' || i, '{"object": {}}'::jsonb
    from generate_series(1, ${n}) i`);
}

async function endpointState(id: string) {
  const result = await db().execute<{
    dispatch_token: string | null;
    backoff_until: string | null;
    backoff_streak: number;
  }>(sql`select dispatch_token, iso_ms(backoff_until) as backoff_until, backoff_streak
    from webhook_endpoints where id = ${id}`);
  return result.rows[0]!;
}

describe("webhook dispatch: fairness", () => {
  it("a quiet gallery's event goes out within the first ticket of another gallery's burst", async () => {
    const busy = await createGallery();
    const quiet = await createGallery();
    const b = await endpoint(busy);
    const a = await endpoint(quiet);
    await burst(busy, 120);
    await burst(quiet, 1);

    const result = await tick([busy, quiet], { together: true });
    expect(result.succeeded).toBe(121);
    // The busy endpoint's 120 went out in tickets of 40, beside the quiet gallery's one ticket.
    expect(result.issued).toBe(2);
    expect(result.tickets).toBeGreaterThanOrEqual(4);
    const quietAt = Date.parse((await received(a.path))[0]!.received_at);
    const busyArrivals = (await received(b.path)).map((r) => Date.parse(r.received_at));
    expect(busyArrivals).toHaveLength(120);
    expect(busyArrivals.filter((t) => t < quietAt).length).toBeLessThanOrEqual(TICKET_SIZE);
  });

  it("takes endpoints in turns across galleries: a gallery with many busy endpoints cannot crowd out another's one", async () => {
    const crowded = await createGallery();
    const lonely = await createGallery();
    const many = await Promise.all([endpoint(crowded), endpoint(crowded), endpoint(crowded)]);
    const one = await endpoint(lonely);
    await burst(crowded, 5);
    // The lonely gallery's event is the newest of all.
    await burst(lonely, 1);

    const issued = await claimTickets(db(), {
      limit: 2,
      leaseMs: MINUTE,
      galleryIds: [crowded.id, lonely.id],
    });
    expect(issued.map((t) => t.galleryId).sort()).toEqual([crowded.id, lonely.id].sort());
    expect(issued.find((t) => t.galleryId === lonely.id)!.endpointId).toBe(one.id);
    // The rest are issued by the next drain; none twice while its ticket is out.
    const rest = await claimTickets(db(), {
      limit: 10,
      leaseMs: MINUTE,
      galleryIds: [crowded.id, lonely.id],
    });
    expect(rest).toHaveLength(2);
    const ids = [...issued, ...rest].map((t) => t.endpointId).sort();
    expect(ids).toEqual([...many.map((e) => e.id), one.id].sort());
    expect(
      await claimTickets(db(), { limit: 10, leaseMs: MINUTE, galleryIds: [crowded.id, lonely.id] }),
    ).toEqual([]);
  });

  it("an endpoint has one ticket out at a time, and its sends never exceed its concurrency limit", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await behave(ep.path, { delay_ms: 60 });
    await burst(g, 30);

    const first = await dispatch(env, { galleryIds: [g.id] });
    expect(first.issued).toBe(1);
    expect((await dispatch(env, { galleryIds: [g.id] })).issued).toBe(0);
    // The same ticket twice in one batch (the Queue delivers at least once): one claims, the copy finds nothing.
    const ticket = first.tickets[0]!;
    const result = await consume([ticket, { ...ticket }]);
    expect(result).toMatchObject({ tickets: 2, stale: 1, claimed: 30, succeeded: 30 });

    // Each request is recorded when it arrives and answered 60 ms later: at no instant were more than the limit open.
    const arrivals = (await received(ep.path)).map((r) => Date.parse(r.received_at));
    const maxOpen = Math.max(...arrivals.map((t) => arrivals.filter((u) => u <= t && u > t - 55).length));
    expect(maxOpen).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY);
  });

  it("sends an endpoint's first attempts oldest first", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await burst(g, 12);
    await tick(g, { concurrency: 1, limit: 5 });
    const events = await db().execute<{ id: string }>(
      sql`select id from domain_events where gallery_id = ${g.id} order by created_at, id`,
    );
    const sent = (await received(ep.path)).map((r) => verify(r, ep.secret).id);
    expect(sent).toEqual(events.rows.map((r) => r.id));
  });
});

describe("webhook dispatch: a slow or failing endpoint holds up nobody", () => {
  it("an endpoint that times out trips its ticket and is backed off, doubling; a healthy one beside it is delivered every tick", async () => {
    const g = await createGallery();
    const slow = await endpoint(g);
    const healthy = await endpoint(g);
    await behave(slow.path, { delay_ms: 4_000 });
    await burst(g, 12);
    const t0 = (await dbNow()) + SECOND;

    const first = await tick(g, { now: at(t0, 0), timeoutMs: 1_500 });
    // The healthy endpoint's 12 all went out; the slow one's ticket started no send after its first wave timed
    // out: exactly one wave was attempted, the rest released unsent.
    expect(first.tripped).toBe(1);
    expect(first.succeeded).toBe(12);
    const slowRows = await deliveries(slow.id);
    expect(slowRows.filter((r) => r.attempt_count === 1)).toHaveLength(ENDPOINT_CONCURRENCY);
    expect(slowRows.filter((r) => r.attempt_count === 0 && r.status === "pending")).toHaveLength(
      12 - ENDPOINT_CONCURRENCY,
    );
    const state = await endpointState(slow.id);
    expect(state).toMatchObject({ dispatch_token: null, backoff_streak: 1 });
    expect(Date.parse(state.backoff_until!)).toBe(t0 + BACKOFF_MS);

    // Backed off: not dispatched before the backoff ends, though its released deliveries are due.
    await burst(g, 1);
    const during = await tick(g, { now: at(t0, BACKOFF_MS - SECOND), timeoutMs: 1_500 });
    expect(during).toMatchObject({ issued: 1, succeeded: 1 });
    expect((await received(healthy.path)).length).toBe(13);

    // After it: dispatched again, trips again, backed off twice as long.
    const again = await tick(g, { now: at(t0, BACKOFF_MS + SECOND), timeoutMs: 1_500 });
    expect(again.tripped).toBe(1);
    const twice = await endpointState(slow.id);
    expect(twice.backoff_streak).toBe(2);
    expect(Date.parse(twice.backoff_until!)).toBe(t0 + BACKOFF_MS + SECOND + 2 * BACKOFF_MS);

    // Healed: the next ticket delivers what is due and the streak starts again.
    await behave(slow.path, {});
    const healed = await tick(g, { now: at(t0, 10 * MINUTE) });
    expect(healed.tripped).toBe(0);
    expect(healed.succeeded).toBeGreaterThan(0);
    expect(await endpointState(slow.id)).toMatchObject({ backoff_streak: 0, dispatch_token: null });
    for (const row of await deliveries(slow.id)) expect(row.status).toBe("succeeded");
  });

  it("an endpoint failing fast trips after five failures in a row; its deliveries keep their retry schedule", async () => {
    const g = await createGallery();
    const failing = await endpoint(g);
    await behave(failing.path, { status: 500 });
    await burst(g, 20);

    const result = await tick(g, { concurrency: 1 });
    expect(result).toMatchObject({ tripped: 1, rescheduled: TRIP_FAILURES, released: 20 - TRIP_FAILURES });
    const rows = await deliveries(failing.id);
    expect(rows.filter((r) => r.attempt_count === 1 && r.last_status_code === 500)).toHaveLength(
      TRIP_FAILURES,
    );
    expect((await endpointState(failing.id)).backoff_streak).toBe(1);
  });

  it("a ticket starts no send after its budget: the rest go out with its continuation", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await behave(ep.path, { delay_ms: 200 });
    await burst(g, 4);

    const result = await tick(g, { concurrency: 1, budgetMs: 100 });
    expect(result.runs).toHaveLength(4);
    for (const run of result.runs.slice(0, 3))
      expect(run).toMatchObject({ succeeded: 1, released: run.claimed - 1 });
    expect(result).toMatchObject({ succeeded: 4, tripped: 0 });
    for (const row of await deliveries(ep.id))
      expect(row).toMatchObject({ status: "succeeded", attempt_count: 1 });
  });

  it("in a batch of several tickets, a finished ticket goes on while a slow one still runs, instead of waiting for it", async () => {
    const busy = await createGallery();
    const slowGallery = await createGallery();
    await endpoint(busy);
    const slow = await endpoint(slowGallery);
    await behave(slow.path, { delay_ms: 2_000 });
    await burst(busy, 120);
    await burst(slowGallery, 1);

    const drained = await dispatch(env, { galleryIds: [busy.id, slowGallery.id] });
    expect(drained.tickets).toHaveLength(2);
    const result = await consume(drained.tickets);
    // All 120 went out in this one batch, in three tickets, while the slow endpoint's one request was answered.
    expect(result).toMatchObject({ succeeded: 121, tickets: 4, continuations: [] });
  });

  it("drops a malformed message and counts nothing", async () => {
    const result = await consume([{ endpoint_id: 42 } as never]);
    expect(result).toMatchObject({ tickets: 0, claimed: 0 });
  });
});

describe("webhook dispatch: a burst, a slow and a failing endpoint beside quiet galleries", () => {
  it("delivers every event to every subscribed endpoint, verified, nothing lost and nothing sent twice after success", async () => {
    const busy = await createGallery();
    const quiet = await createGallery();
    const mixed = await createGallery();
    const burstEndpoint = await endpoint(busy);
    const quietEndpoint = await endpoint(quiet);
    const healthy = await endpoint(mixed);
    const slow = await endpoint(mixed);
    const failing = await endpoint(mixed);
    await behave(slow.path, { delay_ms: 4_000 });
    await behave(failing.path, { status: 500 });
    await burst(busy, 200);
    await burst(quiet, 3);
    await burst(mixed, 10);
    const t0 = (await dbNow()) + SECOND;
    const galleries = [busy, quiet, mixed];

    // Ticks a minute apart, as deployed; the slow and the failing endpoint heal after the third.
    let k = 0;
    for (; k < 90; k++) {
      if (k === 3) {
        await behave(slow.path, {});
        await behave(failing.path, {});
      }
      await tick(galleries, { now: at(t0, k * MINUTE), timeoutMs: 1_500, together: true });
      if (k === 0) {
        // Everything of the quiet gallery and the healthy endpoints went out on the first tick, beside the burst.
        expect(await received(quietEndpoint.path)).toHaveLength(3);
        expect(await received(healthy.path)).toHaveLength(10);
        expect(await received(burstEndpoint.path)).toHaveLength(200);
      }
      const pending = await db().execute<{ n: number }>(sql`select count(*)::int as n from webhook_deliveries
        where gallery_id in (${busy.id}, ${quiet.id}, ${mixed.id}) and status <> 'succeeded'`);
      if (pending.rows[0]!.n === 0) break;
    }
    expect(k).toBeLessThan(90);

    for (const [g, ep, events] of [
      [busy, burstEndpoint, 200],
      [quiet, quietEndpoint, 3],
      [mixed, healthy, 10],
      [mixed, slow, 10],
      [mixed, failing, 10],
    ] as const) {
      const requests = await received(ep.path);
      // Every request verifies with the reference library, and every event of the gallery arrived.
      const ids = requests.map((r) => verify(r, ep.secret).id);
      const all = await db().execute<{ id: string }>(
        sql`select id from domain_events where gallery_id = ${g.id}`,
      );
      expect(new Set(ids)).toEqual(new Set(all.rows.map((r) => r.id)));
      expect(all.rows).toHaveLength(events);
      // One success a delivery; every request the receiver got is an attempt on record (nothing sent unrecorded).
      const rows = await db().execute<{ attempts: number; successes: number }>(sql`select
          (select count(*)::int from webhook_delivery_attempts a where a.delivery_id = d.id) as attempts,
          (select count(*)::int from webhook_delivery_attempts a where a.delivery_id = d.id
             and a.status_code between 200 and 299) as successes
        from webhook_deliveries d where d.endpoint_id = ${ep.id}`);
      expect(rows.rows).toHaveLength(events);
      for (const row of rows.rows) expect(row.successes).toBe(1);
      expect(requests).toHaveLength(rows.rows.reduce((n, r) => n + r.attempts, 0));
    }
    // The slow and the failing endpoint were backed off while they failed, and are not any longer.
    for (const ep of [slow, failing]) expect((await endpointState(ep.id)).backoff_streak).toBe(0);
  });
});
