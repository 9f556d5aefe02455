import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { httpDb } from "../../db/client";
import { dueOffers } from "../../db/queries/offers";
import { listResponse } from "../../lib/pagination";
import { OfferRecipient } from "../../lib/schemas/offers";
import {
  type ScheduledSendOptions,
  sendDueOffer,
  sendScheduledOffers,
} from "../../services/offers/scheduled";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { DOWN_DATABASE } from "../helpers/outage";
import { deliveries, endpoint, received, tick, verify } from "../webhooks/delivery-helpers";
import {
  addRecipients,
  BASE,
  contact,
  createOffer,
  getOffer,
  minutesFromNow,
  type OfferBody,
  offerEvents,
  offerEventTypes,
  patchOffer,
} from "./helpers";

/**
 * The scheduled send (services/offers/scheduled.ts), run here directly as the cron Worker runs it each minute,
 * with its clock moved forward instead of waiting: `now` a few minutes ahead makes an offer scheduled a minute
 * from now due. Each pass is limited to the test's gallery, so suites running beside it keep their offers.
 */

const MINUTE = 60_000;

function pass(g: TestGallery, minutesAhead: number, options: ScheduledSendOptions = {}) {
  return sendScheduledOffers(env, {
    galleryId: g.id,
    now: new Date(Date.now() + minutesAhead * MINUTE),
    ...options,
  });
}

/** A draft offer with `recipients` new contacts, scheduled `minutes` from now. */
async function scheduledOffer(g: TestGallery, minutes: number, recipients = 0): Promise<OfferBody> {
  const offer = await createOffer(g, { title: `Scheduled in ${minutes} min` });
  const contacts: string[] = [];
  for (let i = 0; i < recipients; i++) contacts.push(await contact(g, { name: `Recipient ${i}` }));
  if (contacts.length > 0) await addRecipients(g, offer.id, contacts);
  return patchOffer(g, offer.id, { status: "scheduled", scheduled_at: minutesFromNow(minutes) });
}

async function recipientStatuses(g: TestGallery, id: string): Promise<string[]> {
  const res = await call("GET", `${BASE}/${id}/recipients`, { key: g.key });
  expect(res.status).toBe(200);
  return (await readJson(listResponse(OfferRecipient, "OfferRecipientList"), res)).data.map((r) => r.status);
}

describe("the scheduled send", () => {
  it("sends a due offer once, as a manual send would, with its events delivered to a subscribed endpoint", async () => {
    const g = await createGallery();
    const hook = await endpoint(g, ["offer.*"]);
    const offer = await scheduledOffer(g, 1, 2);
    const manual = await scheduledOffer(g, 60);

    expect(await pass(g, 2)).toEqual({ due: 1, sent: 1, skipped: 0 });
    const sent = await getOffer(g, offer.id);
    expect(sent).toEqual({
      ...offer,
      status: "sent",
      sent_at: expect.any(String),
      updated_at: sent.sent_at,
    });
    expect(Date.parse(sent.sent_at!)).toBeGreaterThan(Date.parse(offer.updated_at));
    expect(await recipientStatuses(g, offer.id)).toEqual(["sent", "sent"]);

    // The same events, of the same shape, as the PATCH that sends an offer by hand.
    await patchOffer(g, manual.id, { status: "sent" });
    const byPass = (await offerEvents(g.id, offer.id)).slice(-2);
    const byHand = (await offerEvents(g.id, manual.id)).slice(-2);
    expect(byPass.map((e) => e.type)).toEqual(["offer.updated", "offer.sent"]);
    expect(byHand.map((e) => e.type)).toEqual(["offer.updated", "offer.sent"]);
    expect(byPass[0]!.data).toEqual({
      object: sent,
      previous_attributes: { status: "scheduled", sent_at: null },
    });
    expect(byPass[1]!.data).toEqual({ object: sent });
    expect(Object.keys(byHand[0]!.data)).toEqual(Object.keys(byPass[0]!.data));
    expect(byHand[0]!.data.previous_attributes).toEqual(byPass[0]!.data.previous_attributes);
    // No request and no credential asked for it: the event records neither.
    const origin = await db().execute<{
      actor_id: string | null;
      request_id: string | null;
      livemode: boolean;
    }>(sql`select actor_id, request_id, livemode from domain_events where id = ${byPass[1]!.id}`);
    expect(origin.rows).toEqual([{ actor_id: null, request_id: null, livemode: false }]);

    // The outbox fanned both events out to the endpoint, and the drain delivers them signed.
    const queued = (await deliveries(hook.id)).filter((d) => byPass.some((e) => e.id === d.event_id));
    expect(queued.map((d) => d.status)).toEqual(["pending", "pending"]);
    await tick(g);
    const bodies = (await received(hook.path)).map((r) => verify(r, hook.secret));
    const delivered = bodies
      .filter((e) => byPass.some((p) => p.id === e.id))
      .map(({ id, type, data }) => ({ id, type, data }))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(delivered).toEqual(byPass.map(({ id, type, data }) => ({ id, type, data })));

    // Sent once: a later pass finds nothing due.
    expect(await pass(g, 3)).toEqual({ due: 0, sent: 0, skipped: 0 });
    expect(await offerEventTypes(g.id, offer.id)).toEqual([
      "offer.created",
      "offer.recipients_added",
      "offer.updated",
      "offer.scheduled",
      "offer.updated",
      "offer.sent",
    ]);
  });

  it("leaves an offer that is not yet due as it is", async () => {
    const g = await createGallery();
    const offer = await scheduledOffer(g, 10, 1);
    expect(await pass(g, 2)).toEqual({ due: 0, sent: 0, skipped: 0 });
    expect(await getOffer(g, offer.id)).toEqual(offer);
    expect(await recipientStatuses(g, offer.id)).toEqual(["pending"]);
    expect(await offerEventTypes(g.id, offer.id)).toEqual([
      "offer.created",
      "offer.recipients_added",
      "offer.updated",
      "offer.scheduled",
    ]);
    // At its time it goes.
    expect(await pass(g, 11)).toEqual({ due: 1, sent: 1, skipped: 0 });
    expect((await getOffer(g, offer.id)).status).toBe("sent");
  });

  it("never sends an offer at a time it was moved from, nor one unscheduled or cancelled", async () => {
    const g = await createGallery();
    const later = await scheduledOffer(g, 1);
    const unscheduled = await scheduledOffer(g, 1);
    const cancelled = await scheduledOffer(g, 1);
    const moved = await patchOffer(g, later.id, { scheduled_at: minutesFromNow(30) });
    const draft = await patchOffer(g, unscheduled.id, { status: "draft" });
    const gone = await patchOffer(g, cancelled.id, { status: "cancelled" });

    expect(await pass(g, 2)).toEqual({ due: 0, sent: 0, skipped: 0 });
    // Far past every time any of them ever had: only the rescheduled one goes, at its new time.
    expect(await pass(g, 120)).toEqual({ due: 1, sent: 1, skipped: 0 });
    expect(await getOffer(g, later.id)).toMatchObject({ status: "sent", scheduled_at: moved.scheduled_at });
    expect(await getOffer(g, unscheduled.id)).toEqual(draft);
    expect(await getOffer(g, cancelled.id)).toEqual(gone);
    for (const id of [unscheduled.id, cancelled.id]) {
      expect(await offerEventTypes(g.id, id)).not.toContain("offer.sent");
    }
  });

  it("leaves an offer that changed after the pass read it as it now is", async () => {
    const g = await createGallery();
    const offer = await scheduledOffer(g, 1);
    const [read] = await dueOffers(db(), {
      galleryId: g.id,
      now: new Date(Date.now() + 2 * MINUTE),
      limit: 10,
    });
    expect(read!.body.id).toBe(offer.id);
    const moved = await patchOffer(g, offer.id, { scheduled_at: minutesFromNow(30) });

    expect(await sendDueOffer(db(), read!)).toBe(false);
    expect(await getOffer(g, offer.id)).toEqual(moved);
    expect(await offerEventTypes(g.id, offer.id)).not.toContain("offer.sent");
  });

  it("sends each due offer exactly once when two passes overlap", async () => {
    const g = await createGallery();
    const offers = await Promise.all([1, 1, 1, 1, 1].map(() => scheduledOffer(g, 1, 1)));
    const now = new Date(Date.now() + 2 * MINUTE);
    // Both passes hold the same read before either sends: every offer is raced for.
    const [first, second] = await Promise.all([
      dueOffers(db(), { galleryId: g.id, now, limit: 10 }),
      dueOffers(db(), { galleryId: g.id, now, limit: 10 }),
    ]);
    expect(first).toHaveLength(5);
    expect(second).toHaveLength(5);
    const outcomes = await Promise.all([...first, ...second].map((offer) => sendDueOffer(db(), offer)));
    expect(outcomes.filter(Boolean)).toHaveLength(5);
    for (const offer of offers) {
      const types = await offerEventTypes(g.id, offer.id);
      expect(types.filter((t) => t === "offer.sent")).toHaveLength(1);
      expect(types.filter((t) => t === "offer.updated")).toHaveLength(2);
      expect(await recipientStatuses(g, offer.id)).toEqual(["sent"]);
    }

    // Two whole passes side by side over new due offers: between them, each offer goes once.
    const more = await Promise.all([1, 1, 1].map(() => scheduledOffer(g, 1)));
    const results = await Promise.all([pass(g, 2), pass(g, 2)]);
    expect(results[0]!.sent + results[1]!.sent).toBe(3);
    for (const offer of more) {
      expect((await offerEventTypes(g.id, offer.id)).filter((t) => t === "offer.sent")).toHaveLength(1);
    }
  });

  it("sends at most `limit` offers a pass, earliest first, so a backlog drains over ticks", async () => {
    const g = await createGallery();
    const third = await scheduledOffer(g, 3);
    const first = await scheduledOffer(g, 1);
    const second = await scheduledOffer(g, 2);

    expect(await pass(g, 5, { limit: 2 })).toEqual({ due: 2, sent: 2, skipped: 0 });
    expect((await getOffer(g, first.id)).status).toBe("sent");
    expect((await getOffer(g, second.id)).status).toBe("sent");
    expect((await getOffer(g, third.id)).status).toBe("scheduled");
    expect(await pass(g, 5, { limit: 2 })).toEqual({ due: 1, sent: 1, skipped: 0 });
    expect((await getOffer(g, third.id)).status).toBe("sent");
  });
});

describe("the scheduled send under faults", () => {
  const down = { ...env, ...DOWN_DATABASE };

  it("a pass that cannot reach the database fails and sends nothing; the next pass sends each offer once", async () => {
    const g = await createGallery();
    const offer = await scheduledOffer(g, 1, 1);
    await expect(
      sendScheduledOffers(down, { galleryId: g.id, now: new Date(Date.now() + 2 * MINUTE) }),
    ).rejects.toThrow();
    expect((await getOffer(g, offer.id)).status).toBe("scheduled");
    expect(await recipientStatuses(g, offer.id)).toEqual(["pending"]);

    expect((await pass(g, 2)).sent).toBe(1);
    expect((await pass(g, 2)).sent).toBe(0);
    expect((await getOffer(g, offer.id)).status).toBe("sent");
    expect((await offerEventTypes(g.id, offer.id)).filter((t) => t === "offer.sent")).toHaveLength(1);
  });

  it("a pass that loses the database between its read and its sends leaves the offers due; each goes once", async () => {
    const g = await createGallery();
    const offers = await Promise.all([1, 1, 1].map(() => scheduledOffer(g, 1, 1)));
    const now = new Date(Date.now() + 2 * MINUTE);
    const read = await dueOffers(db(), { galleryId: g.id, now, limit: 10 });
    expect(read).toHaveLength(3);
    // The database goes away after the read: every send of this pass fails, none half-applied.
    const outcomes = await Promise.allSettled(read.map((offer) => sendDueOffer(httpDb(down), offer)));
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const offer of offers) expect((await getOffer(g, offer.id)).status).toBe("scheduled");

    // The next tick sends them; the failed pass's read, delivered again (a duplicated tick), sends nothing more.
    expect((await pass(g, 2)).sent).toBe(3);
    const replayed = await Promise.all(read.map((offer) => sendDueOffer(db(), offer)));
    expect(replayed.filter(Boolean)).toHaveLength(0);
    for (const offer of offers) {
      const types = await offerEventTypes(g.id, offer.id);
      expect(types.filter((t) => t === "offer.sent")).toHaveLength(1);
      expect(await recipientStatuses(g, offer.id)).toEqual(["sent"]);
    }
  });
});
