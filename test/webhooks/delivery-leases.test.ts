import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { claimDueDeliveries, recordOutcomes } from "../../db/queries/webhook-drain";
import { newId } from "../../lib/ids";
import type { DrainResult } from "../../services/webhooks/delivery";
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
  tick,
  verify,
} from "./delivery-helpers";

/** Webhook delivery: claims and leases, and the purge of expired rows in the same tick. */

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
