import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createGallery, db } from "../helpers/gallery";
import {
  attempts,
  createArtwork,
  deliveries,
  endpoint,
  feed,
  newSecret,
  received,
  tick,
  verify,
} from "./delivery-helpers";

/** Webhook delivery, the happy path: signed, verified, recorded. */

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
