import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { WebhookTicket } from "../../lib/webhook-queue";
import { dispatch } from "../../services/webhooks/dispatch";
import { createGallery } from "../helpers/gallery";
import {
  at,
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
 * Webhook delivery under the Queue's and the database's faults, through the real consumer on real message
 * batches: a ticket's message delivered twice (PostgreSQL going away between a ticket's sends and their record is
 * record-restart.outage.test.ts). No delivery is lost, and a receiver that dedupes by `webhook-id` sees each event
 * once.
 */

describe("webhook delivery: Queue faults", () => {
  it("a ticket's message delivered twice sends each delivery once", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await createArtwork(g, "Twice queued 1");
    await createArtwork(g, "Twice queued 2");
    const t0 = (await dbNow()) + SECOND;
    const drained = await dispatch(env, { galleryIds: [g.id], now: at(t0, 0), leaseMs: MINUTE });
    expect(drained.tickets).toHaveLength(1);
    const ticket = drained.tickets[0] as WebhookTicket;

    // Both copies in one batch (the Queue delivers at least once), then a third copy later.
    const first = await runBatch([ticket, ticket], { now: at(t0, 0), random: () => 0.5 });
    expect(first.acked).toBe(2);
    expect(first.result).toMatchObject({ claimed: 2, succeeded: 2, stale: 1 });
    const late = await runBatch([ticket], { now: at(t0, SECOND), random: () => 0.5 });
    expect(late.result).toMatchObject({ claimed: 0, stale: 1 });
    // Nothing is due at any later tick either.
    expect(await tick(g, { now: at(t0, 2 * MINUTE) })).toMatchObject({ claimed: 0 });

    const ids = (await received(ep.path)).map((r) => verify(r, ep.secret).id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const row of await deliveries(ep.id))
      expect(row).toMatchObject({ status: "succeeded", attempt_count: 1 });
  });
});
