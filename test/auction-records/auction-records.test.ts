import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import type { ArtworkActivityEvent } from "../../lib/schemas/artwork-timeline";
import { AuctionRecord } from "../../lib/schemas/auction-records";
import { create, forgetCachedResponse, ISO_MS, keyId, seedArtwork, UUID } from "../artworks/helpers";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { getPage, pageOf, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** An artwork's auction records: POST, GET (list) and DELETE under /gallery/artworks/{id}/auction-records. */

const records = (artworkId: string) => `/gallery/artworks/${artworkId}/auction-records`;

const SALE = {
  auction_house: "Christie's, New York",
  lot_number: "42A",
  sale_date: "2024-02-29",
  hammer_price_cents: 120_000_000,
  currency: "USD",
  result: "sold",
  notes: "Sold above the high estimate.",
} as const;

async function addRecord(g: TestGallery, artworkId: string, body: Record<string, unknown>, headers = {}) {
  const res = await call("POST", records(artworkId), { key: g.key, body, headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(AuctionRecord, res);
}

async function timeline(g: TestGallery, artworkId: string) {
  const path = `/gallery/artworks/${artworkId}/events`;
  return (await getPage<z.infer<typeof ArtworkActivityEvent>>(g.key, path, "limit=100")).data;
}

describe("POST /gallery/artworks/{id}/auction-records", () => {
  it("adds a record, emits auction_record.created and appends auction_record_added to the timeline", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Sold twice" });
    const record = await addRecord(g, work.id, SALE);
    expect(record).toEqual({
      id: expect.stringMatching(/^auc_[0-9a-z]{26}$/),
      artwork_id: work.id,
      auction_house: SALE.auction_house,
      lot_number: SALE.lot_number,
      notes: SALE.notes,
      sale_date: "2024-02-29",
      hammer_price_cents: 120_000_000,
      currency: "USD",
      result: "sold",
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(Object.keys(record)).toEqual(Object.keys(AuctionRecord.shape));

    const events = await outboxEvents(g.id);
    const created = events.filter((e) => e.type === "auction_record.created");
    expect(created).toEqual([
      {
        id: expect.any(String),
        type: "auction_record.created",
        resource_id: record.id,
        data: { object: record },
      },
    ]);

    const [added, first] = await timeline(g, work.id);
    expect(first?.event_type).toBe("created");
    expect(added).toEqual({
      id: expect.stringMatching(UUID),
      artwork_id: work.id,
      actor_id: await keyId(g.key),
      contact_id: null,
      ref_id: record.id,
      event_type: "auction_record_added",
      ref_table: "auction_records",
      summary: "Auction record added: Christie's, New York, lot 42A, 2024-02-29: sold for $1,200,000.00.",
      metadata: {
        record: {
          id: record.id,
          auction_house: SALE.auction_house,
          lot_number: "42A",
          sale_date: "2024-02-29",
          hammer_price_cents: 120_000_000,
          currency: "USD",
          result: "sold",
        },
      },
      occurred_at: record.created_at,
      created_at: record.created_at,
    });
  });

  it("takes the minimal body: unknown optional facts are null", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Withdrawn" });
    const record = await addRecord(g, work.id, {
      auction_house: "  Sotheby's London  ",
      sale_date: "2023-12-31",
      result: "withdrawn",
    });
    expect(record).toMatchObject({
      auction_house: "Sotheby's London",
      lot_number: null,
      notes: null,
      hammer_price_cents: null,
      currency: null,
      result: "withdrawn",
    });
    const [added] = await timeline(g, work.id);
    expect(added?.summary).toBe("Auction record added: Sotheby's London, 2023-12-31: withdrawn.");
  });

  it("accepts every result, and a hammer price of 0 up to 2^53 - 1", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Results" });
    for (const result of ["sold", "sold_after_sale", "bought_in", "withdrawn", "postponed"]) {
      expect((await addRecord(g, work.id, { ...SALE, hammer_price_cents: null, result })).result).toBe(
        result,
      );
    }
    for (const cents of [0, Number.MAX_SAFE_INTEGER]) {
      const record = await addRecord(g, work.id, { ...SALE, hammer_price_cents: cents, currency: "EUR" });
      expect(record.hammer_price_cents).toBe(cents);
    }
    const bought = await addRecord(g, work.id, {
      ...SALE,
      result: "bought_in",
      hammer_price_cents: 9_000_00,
    });
    expect(bought.hammer_price_cents).toBe(900_000);
  });

  it.each([
    ["sale_date", { sale_date: "2023-02-29" }],
    ["sale_date", { sale_date: "2024-02-30" }],
    ["sale_date", { sale_date: "2024-13-01" }],
    ["sale_date", { sale_date: "2024-2-01" }],
    ["sale_date", { sale_date: "0000-01-01" }],
    ["sale_date", { sale_date: "2024-02-29T00:00:00Z" }],
    ["sale_date", { sale_date: null }],
    ["sale_date", { sale_date: undefined }],
    ["currency", { currency: undefined }],
    ["currency", { currency: null }],
    ["currency", { currency: "usd" }],
    ["currency", { currency: "US" }],
    ["hammer_price_cents", { hammer_price_cents: -1 }],
    ["hammer_price_cents", { hammer_price_cents: 1.5 }],
    ["hammer_price_cents", { hammer_price_cents: Number.MAX_SAFE_INTEGER + 1 }],
    ["hammer_price_cents", { hammer_price_cents: "100" }],
    ["hammer_price_cents", { result: "withdrawn" }],
    ["hammer_price_cents", { result: "postponed" }],
    ["auction_house", { auction_house: undefined }],
    ["auction_house", { auction_house: "   " }],
    ["auction_house", { auction_house: "x".repeat(201) }],
    ["lot_number", { lot_number: "x".repeat(51) }],
    ["notes", { notes: "x".repeat(5001) }],
    ["result", { result: "passed" }],
    ["result", { result: undefined }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const g = await createGallery();
    const work = await create(g, { title: "Strict" });
    const res = await call("POST", records(work.id), { key: g.key, body: { ...SALE, ...change } });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    const page = await readJson(pageOf(AuctionRecord), await call("GET", records(work.id), { key: g.key }));
    expect(page.data).toEqual([]);
    expect((await outboxEvents(g.id)).map((e) => e.type)).toEqual(["artwork.created"]);
  });

  it("answers 404 for another gallery's artwork and for an unknown one", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const theirs = await create(other, { title: "Theirs" });
    for (const id of [theirs.id, newId("art")]) {
      await expectProblem(await call("POST", records(id), { key: g.key, body: SALE }), 404, "not_found");
    }
    const page = await readJson(
      pageOf(AuctionRecord),
      await call("GET", records(theirs.id), { key: other.key }),
    );
    expect(page.data).toEqual([]);
  });

  it("replays a retry with the same Idempotency-Key: one record, one event, one timeline entry", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Retried" });
    const headers = { "Idempotency-Key": "auction-record-once" };
    const first = await addRecord(g, work.id, SALE, headers);
    const again = await call("POST", records(work.id), { key: g.key, body: SALE, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const fromDb = await call("POST", records(work.id), { key: g.key, body: SALE, headers });
    expect(fromDb.headers.get("idempotent-replayed")).toBe("true");
    expect(await fromDb.json()).toEqual(first);
    const page = await readJson(pageOf(AuctionRecord), await call("GET", records(work.id), { key: g.key }));
    expect(page.data).toEqual([first]);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "auction_record.created")).toHaveLength(1);
    expect((await timeline(g, work.id)).map((e) => e.event_type)).toEqual([
      "auction_record_added",
      "created",
    ]);
    const other = await call("POST", records(work.id), {
      key: g.key,
      body: { ...SALE, lot_number: "7" },
      headers,
    });
    await expectProblem(other, 400, "idempotency_key_reused");
  });
});

describe("GET /gallery/artworks/{id}/auction-records", () => {
  it("lists the latest sale first, ties newest-added first; sort=created and dir=asc; cursor pages", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "History" });
    const dates = ["2001-05-01", "2019-11-12", "2010-03-03", "2019-11-12", "1998-06-30"];
    const made = [];
    for (const sale_date of dates) made.push(await addRecord(g, work.id, { ...SALE, sale_date }));
    const [d2001, d2019a, d2010, d2019b, d1998] = made.map((r) => r.id);

    const bySale = await walkPages<{ id: string }>(g.key, records(work.id), { limit: "2" });
    expect(bySale.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(bySale.flatMap((p) => p.data.map((r) => r.id))).toEqual([d2019b, d2019a, d2010, d2001, d1998]);

    const asc = await getPage<{ id: string }>(g.key, records(work.id), "dir=asc");
    expect(asc.data.map((r) => r.id)).toEqual([d1998, d2001, d2010, d2019a, d2019b]);

    const byCreated = await walkPages<{ id: string }>(g.key, records(work.id), {
      sort: "created",
      limit: "3",
    });
    expect(byCreated.flatMap((p) => p.data.map((r) => r.id))).toEqual(made.map((r) => r.id).reverse());
  });

  it("shows only this artwork's records; an empty history is an empty page; another gallery's work is 404", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const [a, b] = [await create(g, { title: "A" }), await create(g, { title: "B" })];
    const onA = await addRecord(g, a.id, SALE);
    const page = await readJson(pageOf(AuctionRecord), await call("GET", records(a.id), { key: g.key }));
    expect(page).toEqual({ data: [onA], next_cursor: null });
    const empty = await readJson(pageOf(AuctionRecord), await call("GET", records(b.id), { key: g.key }));
    expect(empty).toEqual({ data: [], next_cursor: null });
    await expectProblem(await call("GET", records(a.id), { key: other.key }), 404, "not_found");
    await expectProblem(await call("GET", records(newId("art")), { key: g.key }), 404, "not_found");
  });

  it("is readable with artworks:read alone", async () => {
    const g = await createGallery();
    const work = await seedArtwork(g.id);
    const reader = await g.keyWith(["artworks:read"]);
    expect((await call("GET", records(work), { key: reader })).status).toBe(200);
  });
});

describe("DELETE /gallery/artworks/{id}/auction-records/{recordId}", () => {
  it("removes the record, answers {id, deleted: true}, emits auction_record.deleted and appends auction_record_removed", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Revised history" });
    const record = await addRecord(g, work.id, SALE);
    const res = await call("DELETE", `${records(work.id)}/${record.id}`, { key: g.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: record.id, deleted: true });

    const page = await readJson(pageOf(AuctionRecord), await call("GET", records(work.id), { key: g.key }));
    expect(page.data).toEqual([]);
    const deleted = (await outboxEvents(g.id)).filter((e) => e.type === "auction_record.deleted");
    expect(deleted).toEqual([
      {
        id: expect.any(String),
        type: "auction_record.deleted",
        resource_id: record.id,
        data: { object: record },
      },
    ]);
    const entries = await timeline(g, work.id);
    expect(entries.map((e) => e.event_type)).toEqual([
      "auction_record_removed",
      "auction_record_added",
      "created",
    ]);
    expect(entries[0]).toMatchObject({
      ref_id: record.id,
      ref_table: "auction_records",
      summary: "Auction record removed: Christie's, New York, lot 42A, 2024-02-29: sold for $1,200,000.00.",
      metadata: { record },
    });
    await expectProblem(
      await call("DELETE", `${records(work.id)}/${record.id}`, { key: g.key }),
      404,
      "not_found",
    );
  });

  it("replays a retried DELETE with the same Idempotency-Key, from the edge and from the database", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Once removed" });
    const record = await addRecord(g, work.id, SALE);
    const path = `${records(work.id)}/${record.id}`;
    const headers = { "Idempotency-Key": "auction-record-delete-once" };
    const first = await call("DELETE", path, { key: g.key, headers });
    expect(first.status).toBe(200);
    const firstText = await first.text();
    const again = await call("DELETE", path, { key: g.key, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstText);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const fromDb = await call("DELETE", path, { key: g.key, headers });
    expect(fromDb.status).toBe(200);
    expect(fromDb.headers.get("idempotent-replayed")).toBe("true");
    expect(await fromDb.text()).toBe(firstText);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "auction_record.deleted")).toHaveLength(1);
    expect(
      (await timeline(g, work.id)).filter((e) => e.event_type === "auction_record_removed"),
    ).toHaveLength(1);
  });

  it("answers 404 for a record of another artwork, of another gallery, or unknown; 400 for a malformed id", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const [a, b] = [await create(g, { title: "A" }), await create(g, { title: "B" })];
    const onA = await addRecord(g, a.id, SALE);
    const theirWork = await create(other, { title: "Theirs" });
    const theirs = await addRecord(other, theirWork.id, SALE);
    for (const path of [
      `${records(b.id)}/${onA.id}`,
      `${records(theirWork.id)}/${theirs.id}`,
      `${records(a.id)}/${theirs.id}`,
      `${records(a.id)}/${newId("auc")}`,
    ]) {
      await expectProblem(await call("DELETE", path, { key: g.key }), 404, "not_found");
    }
    await expectProblem(
      await call("DELETE", `${records(a.id)}/art_123`, { key: g.key }),
      400,
      "invalid_request",
      { field: "recordId", location: "path" },
    );
    // Nothing was removed by the refused calls.
    const page = await readJson(pageOf(AuctionRecord), await call("GET", records(a.id), { key: g.key }));
    expect(page.data).toEqual([onA]);
  });

  it("needs artworks:write: artworks:delete is not enough", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Guarded" });
    const record = await addRecord(g, work.id, SALE);
    const deleter = await g.keyWith(["artworks:read", "artworks:delete"]);
    const res = await call("DELETE", `${records(work.id)}/${record.id}`, { key: deleter });
    const problem = await expectProblem(res, 403, "forbidden");
    expect(problem.details).toHaveProperty("missing_scopes", ["artworks:write"]);
    const writer = await g.keyWith(["artworks:write"]);
    expect((await call("DELETE", `${records(work.id)}/${record.id}`, { key: writer })).status).toBe(200);
  });
});
