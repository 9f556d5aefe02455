import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createGallery, db } from "../helpers/gallery";
import {
  at,
  behave,
  createArtwork,
  dbNow,
  deliveries,
  type Endpoint,
  endpoint,
  feed,
  MINUTE,
  newSecret,
  received,
  receiverUrl,
  refusedUrl,
  SECOND,
  tick,
  verify,
} from "./delivery-helpers";

/** Webhook delivery across a broken receiver, a secret rotation and a healed endpoint. */

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
