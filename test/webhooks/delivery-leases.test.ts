import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { claimTicket, recordOutcomes } from "../../db/queries/webhook-drain";
import { newId } from "../../lib/ids";
import { dispatch } from "../../services/webhooks/dispatch";
import { createGallery, db } from "../helpers/gallery";
import {
  at,
  attempts,
  createArtwork,
  dbNow,
  deliveries,
  endpoint,
  MINUTE,
  received,
  SECOND,
  type TickResult,
  tick,
  verify,
} from "./delivery-helpers";

/** Webhook delivery: tickets and leases, and the purge of expired rows in the same tick. */

describe("webhook delivery: claims and leases", () => {
  it("two drains at once issue one ticket per endpoint and never send the same delivery twice", async () => {
    const g = await createGallery();
    const a = await endpoint(g);
    const b = await endpoint(g, ["artwork.created"]);
    for (let i = 0; i < 8; i++) await createArtwork(g, `Concurrent ${i}`);

    const rounds: TickResult[] = [];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([
        tick(g, { limit: 5, concurrency: 3 }),
        tick(g, { limit: 5, concurrency: 3 }),
      ]);
      rounds.push(...results);
    }
    // Two endpoints: two tickets in all, each followed by its continuations (5 a ticket).
    expect(rounds.reduce((n, r) => n + r.issued, 0)).toBe(2);
    expect(rounds.flatMap((r) => r.runs).every((run) => run.claimed <= 5)).toBe(true);
    expect(rounds.reduce((n, r) => n + r.claimed, 0)).toBe(16);
    expect(rounds.reduce((n, r) => n + r.succeeded, 0)).toBe(16);
    for (const ep of [a, b]) {
      const ids = (await received(ep.path)).map((r) => verify(r, ep.secret).id);
      expect(ids).toHaveLength(8);
      expect(new Set(ids).size).toBe(8);
    }
  });

  it("a ticket killed between claim and record: re-sent once the lease expires, never before", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await createArtwork(g, "Orphaned 1");
    await createArtwork(g, "Orphaned 2");
    const t0 = (await dbNow()) + SECOND;

    // A ticket whose consumer dies after its claim (it may or may not have sent): the same statements, never
    // recorded.
    const drained = await dispatch(env, { galleryIds: [g.id], now: at(t0, 0), leaseMs: MINUTE });
    expect(drained.tickets).toHaveLength(1);
    const ticket = drained.tickets[0]!;
    const killed = (await claimTicket(db(), {
      galleryId: g.id,
      endpointId: ep.id,
      token: ticket.token,
      now: at(t0, 0),
      limit: 40,
      leaseMs: MINUTE,
    }))!;
    expect(killed.deliveries).toHaveLength(2);
    // A second copy of the same ticket (the Queue delivers at least once) claims nothing.
    expect(
      await claimTicket(db(), {
        galleryId: g.id,
        endpointId: ep.id,
        token: ticket.token,
        now: at(t0, 0),
        limit: 40,
        leaseMs: MINUTE,
      }),
    ).toBeNull();
    expect(Date.parse(killed.deliveries[0]!.lease)).toBe(t0 + MINUTE);

    expect(await tick(g, { now: at(t0, 30 * SECOND) })).toMatchObject({ issued: 0, claimed: 0 });
    expect(await tick(g, { now: at(t0, MINUTE) })).toMatchObject({ issued: 0, claimed: 0 });
    expect(await received(ep.path)).toEqual([]);
    expect(await tick(g, { now: at(t0, MINUTE + 1) })).toMatchObject({ claimed: 2, succeeded: 2 });
    const got = await received(ep.path);
    expect(got.map((r) => verify(r, ep.secret).id).sort()).toEqual(
      killed.deliveries.map((d) => d.eventId).sort(),
    );

    // Should the dead ticket come back and record, its leases and its token no longer stand: nothing changes.
    const late = await recordOutcomes(
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
      [{ id: ep.id, ok: false, gone: false, at: at(t0, 0).toISOString() }],
      {
        endpointId: ep.id,
        token: killed.token,
        tripped: true,
        healthy: false,
        leaseMs: MINUTE,
        backoffMs: MINUTE,
        backoffCapMs: MINUTE,
        now: at(t0, 0),
      },
    );
    expect(late.more).toBe(false);
    const settled = await db().execute(
      sql`select backoff_until, failing_since, dispatch_token from webhook_endpoints where id = ${ep.id}`,
    );
    expect(settled.rows[0]).toEqual({ backoff_until: null, failing_since: null, dispatch_token: null });
    for (const row of await deliveries(ep.id)) {
      expect(row).toMatchObject({ status: "succeeded", attempt_count: 1 });
      expect(await attempts(row.id)).toHaveLength(1);
    }
  });

  it("claims beyond a ticket's subrequest budget are released unsent and go out with its continuation", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    for (let i = 0; i < 5; i++) await createArtwork(g, `Budget ${i}`);
    // 4 subrequests are the database's and the Queue's: 2 remain for sends.
    const result = await tick(g, { subrequests: 6, concurrency: 1 });
    expect(result.runs).toEqual([
      expect.objectContaining({ claimed: 5, succeeded: 2, released: 3 }),
      expect.objectContaining({ claimed: 3, succeeded: 2, released: 1 }),
      expect.objectContaining({ claimed: 1, succeeded: 1, released: 0 }),
    ]);
    // A release is no attempt: each delivery was attempted once, and sent once.
    for (const row of await deliveries(ep.id)) {
      expect(row).toMatchObject({ status: "succeeded", attempt_count: 1, lease_expires_at: null });
    }
    const ids = (await received(ep.path)).map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
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
