import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { WebhookTicket } from "../../lib/webhook-queue";
import { dispatch, handleWebhookBatch } from "../../services/webhooks/dispatch";
import { createGallery } from "../helpers/gallery";
import { switchableDatabase } from "../helpers/outage";
import {
  at,
  behave,
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

/**
 * Webhook delivery under the Queue's and the database's faults, through the real consumer on real message
 * batches: a ticket's message delivered twice, and the database unreachable between a ticket's sends and their
 * record. No delivery is lost, and a receiver that dedupes by `webhook-id` sees each event once.
 */

async function runBatch(
  tickets: WebhookTicket[],
  options: Parameters<typeof handleWebhookBatch>[2] = {},
  settings: Pick<typeof env, "DATABASE_URL"> = env,
) {
  const batch = createMessageBatch<WebhookTicket>(
    "gallery-webhooks",
    tickets.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  const result = await handleWebhookBatch(batch, { ...env, ...settings }, options);
  const queued = await getQueueResult(batch, ctx);
  return { result, acked: queued.explicitAcks.length, retried: queued.retryMessages.length };
}

describe("webhook delivery: Queue and database faults", () => {
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

  it("the database unreachable between the sends and their record: retried, then delivered once per webhook-id", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    await createArtwork(g, "Sent while the database went away");
    // The receiver answers after a moment: the send is in flight when the database goes away.
    await behave(ep.path, { delay_ms: 600 });
    const t0 = (await dbNow()) + SECOND;
    const drained = await dispatch(env, { galleryIds: [g.id], now: at(t0, 0), leaseMs: MINUTE });
    const ticket = drained.tickets[0] as WebhookTicket;

    // The consumer's database, cut while its send is in flight.
    const database = switchableDatabase();
    const running = runBatch([ticket], { now: at(t0, 0), leaseMs: MINUTE, random: () => 0.5 }, database.env);
    await expect.poll(async () => (await received(ep.path)).length, { timeout: 5_000 }).toBe(1);
    database.down();
    let outcome: Awaited<typeof running>;
    try {
      outcome = await running;
    } finally {
      database.up();
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
