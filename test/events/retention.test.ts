import { env } from "cloudflare:workers";
import { Client } from "@neondatabase/serverless";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { EVENT_PURGE_BATCH } from "../../db/queries/retention";
import { newId } from "../../lib/ids";
import { EVENT_RETENTION_DAYS } from "../../lib/retention";
import { DomainEvent } from "../../lib/schemas/events";
import { WebhookDelivery } from "../../lib/schemas/webhooks";
import { purgeExpired } from "../../services/events/retention";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import {
  attempts,
  createArtwork,
  DAY,
  dbNow,
  deliveries,
  type Endpoint,
  endpoint,
} from "../webhooks/delivery-helpers";

/**
 * Retention: domain events are kept EVENT_RETENTION_DAYS with their webhook deliveries and attempts, then
 * purged (an event with a pending delivery waits for it to settle); idempotency keys after 14 days, upload
 * tokens once expired. Each purge here is scoped to its test's gallery, and driven by an injected clock.
 */

const purge = (g: TestGallery, now: Date, opts: { budgetMs?: number; maxBatches?: number } = {}) =>
  purgeExpired(env, { galleryId: g.id, now, ...opts });

/** The gallery's newest event of this type for this resource. */
async function eventOf(g: TestGallery, resourceId: string): Promise<string> {
  const result = await db().execute<{ id: string }>(sql`select id from domain_events
    where gallery_id = ${g.id} and resource_id = ${resourceId} order by created_at desc limit 1`);
  return result.rows[0]!.id;
}

async function eventCount(g: TestGallery): Promise<number> {
  const result = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from domain_events where gallery_id = ${g.id}`,
  );
  return Number(result.rows[0]!.n);
}

/**
 * Records tries of a delivery as the drain does: its state after them (`pending`: a retry due in 5 hours) and one
 * attempt row per try.
 */
async function settle(
  deliveryId: string,
  status: "pending" | "succeeded" | "failed",
  tries: number,
): Promise<void> {
  await db().batch([
    db().execute(sql`update webhook_deliveries set status = ${status},
        next_attempt_at = case when ${status} = 'pending' then now() + interval '5 hours' end,
        attempt_count = attempt_count + ${tries}, last_status_code = ${status === "succeeded" ? 200 : 500}
      where id = ${deliveryId}`),
    db().execute(sql`insert into webhook_delivery_attempts (id, gallery_id, delivery_id, status_code, latency_ms, attempted_at)
      select new_id('wda'), d.gallery_id, d.id, case when n = ${tries} and ${status} = 'succeeded' then 200 else 500 end,
        12, now() + n * interval '1 second'
      from webhook_deliveries d, generate_series(1, ${tries}) n where d.id = ${deliveryId}`),
  ]);
}

/**
 * Runs `statement` in a transaction of its own over a WebSocket connection and keeps it open, uncommitted, while
 * `meanwhile` runs; then commits.
 */
async function whileUncommitted(
  statement: string,
  params: unknown[],
  meanwhile: () => Promise<void>,
): Promise<void> {
  db(); // points the driver at the local endpoint
  const client = new Client({ connectionString: env.DATABASE_URL });
  // The proxy closes the socket once the client has ended; that is not an error of the test.
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("begin");
    await client.query(statement, params);
    await meanwhile();
    await client.query("commit");
  } finally {
    await client.end();
  }
}

async function getEvent(g: TestGallery, id: string): Promise<number> {
  const res = await call("GET", `/gallery/events/${id}`, { key: g.key });
  if (res.status === 200) expect((await readJson(DomainEvent, res)).id).toBe(id);
  else await res.arrayBuffer();
  return res.status;
}

async function listedDeliveries(g: TestGallery, ep: Endpoint) {
  const res = await call("GET", `/gallery/webhook-endpoints/${ep.id}/deliveries?limit=100`, { key: g.key });
  expect(res.status).toBe(200);
  return (await readJson(pageOf(WebhookDelivery), res)).data;
}

describe("retention: domain events with their deliveries and attempts", () => {
  it("an event at 29 days is readable by id with its deliveries listed; at 31 days it is gone with them", async () => {
    expect(EVENT_RETENTION_DAYS).toBe(30);
    const g = await createGallery();
    const ep = await endpoint(g);
    const artwork = await createArtwork(g, "Kept a month");
    const eventId = await eventOf(g, artwork);
    const [delivery] = await deliveries(ep.id);
    expect(delivery!.event_id).toBe(eventId);
    await settle(delivery!.id, "succeeded", 2);
    const t0 = await dbNow();
    const all = await eventCount(g);

    const at29 = await purge(g, new Date(t0 + 29 * DAY));
    expect(at29).toMatchObject({ events: 0, deliveries: 0, attempts: 0, batches: 1, more: false });
    expect(await getEvent(g, eventId)).toBe(200);
    const listed = await listedDeliveries(g, ep);
    expect(listed.map((d) => [d.event_id, d.status, d.attempts.length])).toEqual([[eventId, "succeeded", 2]]);

    const at31 = await purge(g, new Date(t0 + 31 * DAY));
    expect(at31).toMatchObject({ events: all, deliveries: 1, attempts: 2, more: false });
    expect(await getEvent(g, eventId)).toBe(404);
    expect(await listedDeliveries(g, ep)).toEqual([]);
    expect(await deliveries(ep.id)).toEqual([]);
    expect(await attempts(delivery!.id)).toEqual([]);
    expect(await eventCount(g)).toBe(0);
  });

  it("an event with a pending delivery is kept until that delivery settles", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    const retrying = await eventOf(g, await createArtwork(g, "Still retrying"));
    const replayed = await eventOf(g, await createArtwork(g, "Replayed late"));
    const [first, second] = await deliveries(ep.id);
    // A retry in progress: failed twice, due again in 5 hours.
    await settle(first!.id, "pending", 2);
    await settle(second!.id, "succeeded", 1);
    const t0 = await dbNow();
    const at31 = new Date(t0 + 31 * DAY);

    // The second was delivered; a replay at day 30 puts it back to pending.
    const replay = await call("POST", `/gallery/webhook-endpoints/${ep.id}/replay`, {
      key: g.key,
      body: { event_id: replayed },
    });
    expect(replay.status).toBe(202);
    await replay.arrayBuffer();
    expect((await deliveries(ep.id)).map((d) => d.status)).toEqual(["pending", "pending"]);

    const all = await eventCount(g);
    const kept = await purge(g, at31);
    expect(kept).toMatchObject({ events: all - 2, deliveries: 0, attempts: 0 });
    expect(await getEvent(g, retrying)).toBe(200);
    expect(await getEvent(g, replayed)).toBe(200);
    expect(await attempts(first!.id)).toHaveLength(2);
    expect(await attempts(second!.id)).toHaveLength(1);

    // The replay settles: its event goes with both of its attempts; the retry still holds the other.
    await settle(second!.id, "succeeded", 1);
    expect(await purge(g, at31)).toMatchObject({ events: 1, deliveries: 1, attempts: 2 });
    expect(await getEvent(g, replayed)).toBe(404);
    expect(await getEvent(g, retrying)).toBe(200);

    await settle(first!.id, "failed", 1);
    expect(await purge(g, at31)).toMatchObject({ events: 1, deliveries: 1, attempts: 3 });
    expect(await getEvent(g, retrying)).toBe(404);
    expect(await eventCount(g)).toBe(0);
  });

  it("a delivery being re-queued while the purge runs keeps its event, and the purge does not wait for it", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    const eventId = await eventOf(g, await createArtwork(g, "Replayed during the purge"));
    const [delivery] = await deliveries(ep.id);
    await settle(delivery!.id, "succeeded", 1);
    const other = await endpoint(g);
    const t0 = await dbNow();
    const at31 = new Date(t0 + 31 * DAY);

    // A replay's transaction, open while the purge runs: the first re-queues the delivery, the second adds one
    // for an endpoint that never had the event. Neither has committed when the purge reads.
    await whileUncommitted(
      "update webhook_deliveries set status = 'pending', next_attempt_at = now(), attempt_count = 0 where id = $1",
      [delivery!.id],
      async () => {
        expect(await purge(g, at31)).toMatchObject({ events: 0, deliveries: 0, attempts: 0 });
      },
    );
    expect(await getEvent(g, eventId)).toBe(200);
    expect((await deliveries(ep.id)).map((d) => d.status)).toEqual(["pending"]);
    expect(await purge(g, at31)).toMatchObject({ deliveries: 0, attempts: 0 });
    expect(await getEvent(g, eventId)).toBe(200);

    await settle(delivery!.id, "succeeded", 1);
    await whileUncommitted(
      "insert into webhook_deliveries (id, gallery_id, endpoint_id, event_id, next_attempt_at) values ($1, $2, $3, $4, now())",
      [newId("wd"), g.id, other.id, eventId],
      async () => {
        expect(await purge(g, at31)).toMatchObject({ events: 0, deliveries: 0, attempts: 0 });
      },
    );
    expect(await getEvent(g, eventId)).toBe(200);
    expect((await deliveries(other.id)).map((d) => d.status)).toEqual(["pending"]);

    await db().execute(sql`update webhook_deliveries set status = 'succeeded', next_attempt_at = null
      where endpoint_id = ${other.id}`);
    expect(await purge(g, at31)).toMatchObject({ deliveries: 2, attempts: 2 });
    expect(await getEvent(g, eventId)).toBe(404);
  });

  it("a backlog: oldest first, batch after batch until one comes back short, one batch when no time is left", async () => {
    const g = await createGallery();
    const backlog = 2 * EVENT_PURGE_BATCH + 150;
    await db().execute(sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data, created_at)
      select new_id('evt'), ${g.id}, 'artist.created', false, 'artist', 'artist_' || i, '{"object":{}}'::jsonb,
        now() - interval '40 days' + i * interval '1 second'
      from generate_series(1, ${backlog}) i`);
    const ep = await endpoint(g);
    await db().execute(sql`insert into webhook_deliveries (id, gallery_id, endpoint_id, event_id, status, attempt_count)
      select new_id('wd'), e.gallery_id, ${ep.id}, e.id, 'succeeded', 2
      from domain_events e where e.gallery_id = ${g.id}`);
    await db().execute(sql`insert into webhook_delivery_attempts (id, gallery_id, delivery_id, status_code, latency_ms, attempted_at)
      select new_id('wda'), d.gallery_id, d.id, 500 - 300 * (n - 1), 10, now() - interval '40 days'
      from webhook_deliveries d, generate_series(1, 2) n where d.endpoint_id = ${ep.id}`);
    const total = await eventCount(g);
    const now = new Date(await dbNow());

    // No time left after the first batch: one batch, and it says more is due.
    const first = await purge(g, now, { budgetMs: 0 });
    expect(first).toEqual(
      expect.objectContaining({
        events: EVENT_PURGE_BATCH,
        deliveries: EVENT_PURGE_BATCH,
        attempts: 2 * EVENT_PURGE_BATCH,
        batches: 1,
        more: true,
      }),
    );
    expect(await eventCount(g)).toBe(total - EVENT_PURGE_BATCH);
    // The oldest went first.
    const oldest = await db().execute<{ resource_id: string }>(sql`select resource_id from domain_events
      where gallery_id = ${g.id} order by created_at limit 1`);
    expect(oldest.rows[0]!.resource_id).toBe(`artist_${EVENT_PURGE_BATCH + 1}`);

    // The defaults: a full batch, then a short one, and the call ends there.
    const rest = await purge(g, now);
    expect(rest).toMatchObject({
      events: EVENT_PURGE_BATCH + 150,
      deliveries: EVENT_PURGE_BATCH + 150,
      attempts: 2 * (EVENT_PURGE_BATCH + 150),
      batches: 2,
      more: false,
    });
    // The events of the gallery's own setup, recorded just now, are within the window.
    expect(await eventCount(g)).toBe(total - backlog);
    expect(await purge(g, now)).toMatchObject({ events: 0, batches: 1, more: false });
  });

  it("scoped to a gallery, another gallery's events, deliveries, keys and tokens are untouched", async () => {
    const a = await createGallery();
    const b = await createGallery();
    const seed = async (g: TestGallery) => {
      const ep = await endpoint(g);
      await createArtwork(g, "Either gallery");
      const [d] = await deliveries(ep.id);
      await settle(d!.id, "succeeded", 1);
      await oldKey(g, "old");
      await expiredToken(g);
      return ep;
    };
    const epA = await seed(a);
    const epB = await seed(b);
    const at31 = new Date((await dbNow()) + 31 * DAY);
    const eventsB = await eventCount(b);

    expect(await purge(a, at31)).toMatchObject({
      deliveries: 1,
      attempts: 1,
      idempotencyKeys: 1,
      uploadTokens: 1,
    });
    expect(await eventCount(a)).toBe(0);
    expect(await deliveries(epA.id)).toEqual([]);
    expect(await eventCount(b)).toBe(eventsB);
    expect(await deliveries(epB.id)).toHaveLength(1);
    expect(await keysOf(b)).toEqual(["old"]);
    expect(await tokensOf(b)).toHaveLength(1);

    expect(await purge(b, at31)).toMatchObject({
      events: eventsB,
      deliveries: 1,
      attempts: 1,
      idempotencyKeys: 1,
      uploadTokens: 1,
    });
  });
});

async function member(g: TestGallery): Promise<string> {
  const id = newId("mem");
  await db().execute(sql`insert into members (id, gallery_id, email, name, role, password_hash)
    values (${id}, ${g.id}, ${`${id}@example.com`}, 'M', 'editor', 'x')`);
  return id;
}

function oldKey(g: TestGallery, name: string, age = "15 days") {
  return db().execute(sql`insert into idempotency_keys (gallery_id, key, request_hash, method, path, response_status, created_at)
    values (${g.id}, ${name}, 'h', 'POST', '/x', 201, now() - ${age}::interval)`);
}

async function expiredToken(g: TestGallery, id = newId("upl"), expires = "-1 minute", used = false) {
  await db().execute(sql`insert into upload_tokens (id, gallery_id, token_hash, storage_path, purpose, member_id, expires_at, used_at)
    values (${id}, ${g.id}, ${id}, 'p', 'publication_cover', ${await member(g)}, now() + ${expires}::interval,
      ${used ? sql`now()` : sql`null`})`);
  return id;
}

async function keysOf(g: TestGallery): Promise<string[]> {
  const result = await db().execute<{ key: string }>(
    sql`select key from idempotency_keys where gallery_id = ${g.id} order by key`,
  );
  return result.rows.map((r) => r.key);
}

async function tokensOf(g: TestGallery): Promise<string[]> {
  const result = await db().execute<{ id: string }>(
    sql`select id from upload_tokens where gallery_id = ${g.id} order by id`,
  );
  return result.rows.map((r) => r.id);
}

describe("retention: idempotency keys and upload tokens", () => {
  it("idempotency keys older than 14 days and expired upload tokens, used or not", async () => {
    const g = await createGallery();
    await oldKey(g, "old", "15 days");
    await oldKey(g, "recent", "13 days");
    await expiredToken(g, newId("upl"), "-1 minute", false);
    await expiredToken(g, newId("upl"), "-1 minute", true);
    const live = await expiredToken(g, newId("upl"), "10 minutes", false);

    expect(await purge(g, new Date(await dbNow()))).toMatchObject({ idempotencyKeys: 1, uploadTokens: 2 });
    expect(await keysOf(g)).toEqual(["recent"]);
    expect(await tokensOf(g)).toEqual([live]);
  });
});
