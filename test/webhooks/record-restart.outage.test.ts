import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { WebhookTicket } from "../../lib/webhook-queue";
import { dispatch } from "../../services/webhooks/dispatch";
import { createGallery } from "../helpers/gallery";
import { postgres, useOutageDatabase } from "../helpers/outage";
import {
  at,
  behave,
  createArtwork,
  dbNow,
  deliveries,
  endpoint,
  MINUTE,
  received,
  runBatch,
  SECOND,
  tick,
  verify,
} from "./delivery-helpers";

/**
 * Webhook delivery when PostgreSQL goes away for real (the `outage` project's server, shut down immediately and
 * started again) while a ticket's send is in flight: the record cannot be written, the ticket is retried, and the
 * delivery is sent again under its `webhook-id` once its lease lapses. A receiver that dedupes by `webhook-id`
 * sees the event once.
 */

useOutageDatabase();

describe("webhook delivery: PostgreSQL shut down mid-ticket", () => {
  it("PostgreSQL shut down between the sends and their record: retried, then delivered once per webhook-id", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await createArtwork(g, "Sent while the database went away");
    // The receiver answers after a moment: the send is in flight when the database goes away.
    await behave(ep.path, { delay_ms: 600 });
    const t0 = (await dbNow()) + SECOND;
    const drained = await dispatch(env, { galleryIds: [g.id], now: at(t0, 0), leaseMs: MINUTE });
    const ticket = drained.tickets[0] as WebhookTicket;

    // PostgreSQL shut down while the send is in flight (the receiver has it, its answer is on the way).
    const running = runBatch([ticket], { now: at(t0, 0), leaseMs: MINUTE, random: () => 0.5 });
    let outcome: Awaited<typeof running>;
    try {
      await expect.poll(async () => (await received(ep.path)).length, { timeout: 5_000 }).toBe(1);
      await postgres.shutdown("immediate");
      outcome = await running;
    } finally {
      await postgres.restart();
    }
    // The record could not be written: the ticket is retried, the delivery stays claimed under its lease.
    expect(outcome.retried).toBe(1);
    const [row] = await deliveries(ep.id);
    expect(row).toMatchObject({ status: "pending" });

    // The database back: the retried ticket claims nothing while the lease runs; once it lapses, the next tick
    // sends the delivery again with the same webhook-id, and records it.
    await behave(ep.path, {});
    expect((await runBatch([ticket], { now: at(t0, 30 * SECOND) })).result).toMatchObject({ claimed: 0 });
    expect(await tick(g, { now: at(t0, MINUTE + 1) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await tick(g, { now: at(t0, 3 * MINUTE) })).toMatchObject({ claimed: 0 });

    const got = await received(ep.path);
    const ids = got.map((r) => verify(r, ep.secret).id);
    // At least once on the wire, exactly once to a receiver that dedupes by webhook-id.
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    expect(got.map((r) => r.headers["webhook-id"])).toEqual(ids);
    const [settled] = await deliveries(ep.id);
    expect(settled).toMatchObject({ status: "succeeded", attempt_count: 1 });
  });
});
