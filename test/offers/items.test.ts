import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { call, createGallery, signedInMember } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import {
  artwork,
  BASE,
  createOffer,
  getOffer,
  minutesFromNow,
  offerEvents,
  offerEventTypes,
  patchOffer,
  setItems,
} from "./helpers";

/** PATCH /gallery/offers/{id}/items: the whole item set replaced, in each status, with its rules and event. */

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("PATCH /gallery/offers/{id}/items", () => {
  it("sets the items in order with their defaults, and records offer.items_replaced", async () => {
    const g = await createGallery();
    const offer = await createOffer(g, { title: "Euro offer", currency: "EUR" });
    const [a, b] = [await artwork(g, "One"), await artwork(g, "Two")];
    const items = await setItems(g, offer.id, [
      { artwork_id: a, price_shown_cents: 1_250_000, caption_override: "Oil on linen, 2021" },
      { artwork_id: b, price_shown_cents: 90_000, currency: "USD", price_visible: false },
    ]);
    expect(items).toEqual([
      {
        offer_id: offer.id,
        artwork_id: a,
        caption_override: "Oil on linen, 2021",
        position: 0,
        price_shown_cents: 1_250_000,
        currency: "EUR",
        price_visible: true,
        created_at: expect.stringMatching(ISO_MS),
      },
      {
        offer_id: offer.id,
        artwork_id: b,
        caption_override: null,
        position: 1,
        price_shown_cents: 90_000,
        currency: "USD",
        price_visible: false,
        created_at: items[0]!.created_at,
      },
    ]);
    const after = await getOffer(g, offer.id);
    expect(after.item_count).toBe(2);
    expect(after.updated_at > offer.updated_at).toBe(true);
    const events = await offerEvents(g.id, offer.id);
    expect(events.map((e) => e.type)).toEqual(["offer.created", "offer.items_replaced"]);
    expect(events[1]!.data).toEqual({ object: { offer: after, artwork_ids: [a, b] } });
  });

  it("replaces the whole set: works that leave go, works that stay move and keep created_at", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    const [a, b, c] = [await artwork(g, "A"), await artwork(g, "B"), await artwork(g, "C")];
    const first = await setItems(g, offer.id, [{ artwork_id: a }, { artwork_id: b }]);
    const second = await setItems(g, offer.id, [
      { artwork_id: c, price_shown_cents: 500 },
      { artwork_id: a, caption_override: "Now second" },
    ]);
    expect(second.map((i) => [i.artwork_id, i.position, i.caption_override])).toEqual([
      [c, 0, null],
      [a, 1, "Now second"],
    ]);
    expect(second[1]!.created_at).toBe(first[0]!.created_at);
    const emptied = await setItems(g, offer.id, []);
    expect(emptied).toEqual([]);
    expect((await getOffer(g, offer.id)).item_count).toBe(0);
    const events = await offerEvents(g.id, offer.id);
    expect(events.map((e) => (e.data.object as { artwork_ids?: string[] }).artwork_ids)).toEqual([
      undefined,
      [a, b],
      [c, a],
      [],
    ]);
  });

  it("replaces items of a draft and of a scheduled offer; a sent or cancelled one is 409 naming the status", async () => {
    const g = await createGallery();
    const work = await artwork(g, "Work");
    const draft = await createOffer(g, { title: "Draft" });
    const scheduled = await createOffer(g, { title: "Scheduled" });
    await patchOffer(g, scheduled.id, { status: "scheduled", scheduled_at: minutesFromNow(30) });
    const sent = await createOffer(g, { title: "Sent" });
    await patchOffer(g, sent.id, { status: "sent" });
    const cancelled = await createOffer(g, { title: "Cancelled" });
    await patchOffer(g, cancelled.id, { status: "cancelled" });

    expect(await setItems(g, draft.id, [{ artwork_id: work }])).toHaveLength(1);
    expect(await setItems(g, scheduled.id, [{ artwork_id: work }])).toHaveLength(1);
    for (const [offer, status] of [
      [sent, "sent"],
      [cancelled, "cancelled"],
    ] as const) {
      const res = await call("PATCH", `${BASE}/${offer.id}/items`, {
        key: g.key,
        body: { items: [{ artwork_id: work }] },
      });
      const problem = await expectProblem(res, 409, "conflict");
      expect(problem.details).toEqual({ status });
      expect((await getOffer(g, offer.id)).item_count).toBe(0);
      expect(await offerEventTypes(g.id, offer.id)).not.toContain("offer.items_replaced");
    }
  });

  it("refuses a work listed twice, another gallery's work or a bad price with a 400 naming items.<n>", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const offer = await createOffer(g);
    const [mine, theirs] = [await artwork(g, "Mine"), await artwork(other, "Theirs")];
    const cases: [Record<string, unknown>[], string][] = [
      [[{ artwork_id: mine }, { artwork_id: mine }], "items.1.artwork_id"],
      [[{ artwork_id: mine }, { artwork_id: theirs }], "items.1.artwork_id"],
      [[{ artwork_id: newId("art") }], "items.0.artwork_id"],
      [[{ artwork_id: mine, price_shown_cents: -1 }], "items.0.price_shown_cents"],
      [[{ artwork_id: mine, price_shown_cents: 1.5 }], "items.0.price_shown_cents"],
      [[{ artwork_id: mine, currency: "eur" }], "items.0.currency"],
      [[{ artwork_id: mine, position: 3 }], "items.0.position"],
      [Array.from({ length: 101 }, () => ({ artwork_id: mine })), "items"],
    ];
    for (const [items, field] of cases) {
      const res = await call("PATCH", `${BASE}/${offer.id}/items`, { key: g.key, body: { items } });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    await expectProblem(
      await call("PATCH", `${BASE}/${offer.id}/items`, { key: g.key, body: {} }),
      400,
      "invalid_request",
      { field: "items", location: "body" },
    );
    expect((await getOffer(g, offer.id)).item_count).toBe(0);
    expect(await offerEventTypes(g.id, offer.id)).toEqual(["offer.created"]);
  });

  it("replays a retried save with the same Idempotency-Key and refuses the key with other items", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    const [a, b] = [await artwork(g, "A"), await artwork(g, "B")];
    const key = `items-${offer.id}`;
    const first = await setItems(g, offer.id, [{ artwork_id: a }], { "Idempotency-Key": key });
    const again = await call("PATCH", `${BASE}/${offer.id}/items`, {
      key: g.key,
      body: { items: [{ artwork_id: a }] },
      headers: { "Idempotency-Key": key },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { data: unknown[] }).data).toEqual(first);
    const other = await call("PATCH", `${BASE}/${offer.id}/items`, {
      key: g.key,
      body: { items: [{ artwork_id: b }] },
      headers: { "Idempotency-Key": key },
    });
    await expectProblem(other, 400, "idempotency_key_reused");
    expect(await offerEventTypes(g.id, offer.id)).toEqual(["offer.created", "offer.items_replaced"]);
  });

  it("needs offers:update; a viewer cannot save; another gallery's offer is 404", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const offer = await createOffer(g);
    const body = { items: [] };
    const key = await g.keyWith(["offers:read"]);
    const res = await call("PATCH", `${BASE}/${offer.id}/items`, { key, body });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "offers:update",
    ]);
    const viewer = await signedInMember(g.id, "viewer");
    await expectProblem(
      await call("PATCH", `${BASE}/${offer.id}/items`, { key: viewer.token, body }),
      403,
      "forbidden",
    );
    await expectProblem(
      await call("PATCH", `${BASE}/${offer.id}/items`, { key: other.key, body }),
      404,
      "not_found",
    );
  });
});
