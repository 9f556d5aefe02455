import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Sale } from "../../lib/schemas/sales";
import { forgetCachedResponse } from "../artworks/helpers";
import { ISO_MS, memberSession, newArtwork, newContact } from "../contact-interactions/helpers";
import { fetchedSegmentation } from "../contacts/helpers";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** Sales: GET/POST /gallery/sales, GET/PATCH/DELETE /gallery/sales/{id}, and the buyer's spend they drive. */

type SaleBody = z.infer<typeof Sale>;

const BASE = "/gallery/sales";

async function createSale(
  g: TestGallery,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<SaleBody> {
  const res = await call("POST", BASE, { key: g.key, body, headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(Sale, res);
}

async function patchSale(g: TestGallery, id: string, body: Record<string, unknown>): Promise<SaleBody> {
  const res = await call("PATCH", `${BASE}/${id}`, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Sale, res);
}

/** The spend fields of a contact as GET /gallery/contacts/{id}/segmentation shows them. */
async function spend(g: TestGallery, contactId: string) {
  const c = await fetchedSegmentation(g, contactId);
  return {
    total_spend_cents: c.total_spend_cents,
    works_acquired: c.works_acquired,
    avg_acquisition_cents: c.avg_acquisition_cents,
    price_band: c.price_band,
  };
}

const NO_SPEND = { total_spend_cents: 0, works_acquired: 0, avg_acquisition_cents: null, price_band: null };

/** A gallery with a buyer and three works. */
async function setting() {
  const g = await createGallery();
  const buyer = await newContact(g, "Buyer");
  const works = [await newArtwork(g, "One"), await newArtwork(g, "Two"), await newArtwork(g, "Three")];
  return { g, buyer, works };
}

describe("POST /gallery/sales", () => {
  it("records every field, emits sale.created and adds to the buyer's spend", async () => {
    const { g, buyer, works } = await setting();
    const sale = await createSale(g, {
      contact_id: buyer,
      artwork_ids: [works[2], works[0]],
      amount_cents: 1_800_000,
      currency: "USD",
      sold_at: "2024-02-29T16:30Z",
      status: "completed",
      metadata: { channel: "fair" },
    });
    expect(sale).toEqual({
      id: expect.stringMatching(/^sale_[0-9a-z]{26}$/),
      contact_id: buyer,
      artwork_ids: [works[2], works[0]],
      works_count: 2,
      amount_cents: 1_800_000,
      currency: "USD",
      base_amount_cents: 1_800_000,
      base_currency: "USD",
      sold_at: "2024-02-29T16:30:00.000Z",
      status: "completed",
      metadata: { channel: "fair" },
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(Object.keys(sale)).toEqual(Object.keys(Sale.shape));
    expect((await outboxEvents(g.id)).filter((e) => e.type === "sale.created")).toEqual([
      { id: expect.any(String), type: "sale.created", resource_id: sale.id, data: { object: sale } },
    ]);
    expect(await spend(g, buyer)).toEqual({
      total_spend_cents: 1_800_000,
      works_acquired: 2,
      avg_acquisition_cents: 900_000,
      price_band: "5k_25k",
    });
    const read = await call("GET", `${BASE}/${sale.id}`, { key: g.key });
    expect(await readJson(Sale, read)).toEqual(sale);
  });

  it("defaults: the gallery's currency, completed, sold now, no metadata", async () => {
    const { g, buyer, works } = await setting();
    const sale = await createSale(g, { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 0 });
    expect(sale).toMatchObject({
      currency: "USD",
      base_amount_cents: 0,
      status: "completed",
      metadata: {},
      sold_at: sale.created_at,
    });
    expect(await spend(g, buyer)).toEqual({
      total_spend_cents: 0,
      works_acquired: 1,
      avg_acquisition_cents: 0,
      price_band: "under_5k",
    });
  });

  it("base_amount_cents: required in another currency, equal to the amount in the default one, checked against the gallery's default", async () => {
    const { g, buyer, works } = await setting();
    const body = { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 1_000_000 };
    let res = await call("POST", BASE, { key: g.key, body: { ...body, currency: "EUR" } });
    let problem = await expectProblem(res, 400, "invalid_request", {
      field: "base_amount_cents",
      location: "body",
    });
    expect(problem.details?.[0]?.message).toBe(
      "is required when currency (EUR) is not the gallery's default currency (USD)",
    );
    res = await call("POST", BASE, {
      key: g.key,
      body: { ...body, currency: "USD", base_amount_cents: 999_999 },
    });
    problem = await expectProblem(res, 400, "invalid_request", {
      field: "base_amount_cents",
      location: "body",
    });
    expect(problem.details?.[0]?.message).toBe(
      "must equal amount_cents when currency is the gallery's default currency (USD)",
    );
    res = await call("POST", BASE, { key: g.key, body: { ...body, base_amount_cents: 1 } });
    await expectProblem(res, 400, "invalid_request", { field: "base_amount_cents", location: "body" });
    expect(await spend(g, buyer)).toEqual(NO_SPEND);
    expect((await getPage(g.key, BASE)).data).toEqual([]);

    const eur = await createSale(g, { ...body, currency: "EUR", base_amount_cents: 1_080_000 });
    expect([eur.amount_cents, eur.currency, eur.base_amount_cents, eur.base_currency]).toEqual([
      1_000_000,
      "EUR",
      1_080_000,
      "USD",
    ]);
    const usd = await createSale(g, { ...body, currency: "USD", base_amount_cents: 1_000_000 });
    expect(usd.base_amount_cents).toBe(1_000_000);
    expect((await spend(g, buyer)).total_spend_cents).toBe(2_080_000);

    // The rule reads the gallery's default currency as the transaction sees it.
    await db().execute(sql`update galleries set default_currency = 'EUR' where id = ${g.id}`);
    const inEur = await createSale(g, { ...body, currency: "EUR" });
    expect([inEur.base_amount_cents, inEur.base_currency]).toEqual([1_000_000, "EUR"]);
    const defaulted = await createSale(g, body);
    expect(defaulted.currency).toBe("EUR");
    res = await call("POST", BASE, { key: g.key, body: { ...body, currency: "USD" } });
    await expectProblem(res, 400, "invalid_request", { field: "base_amount_cents", location: "body" });
  });

  it.each([
    ["contact_id", { contact_id: undefined }],
    ["contact_id", { contact_id: null }],
    ["contact_id", { contact_id: "con_" }],
    ["contact_id", { contact_id: newId("con") }],
    ["artwork_ids", { artwork_ids: undefined }],
    ["artwork_ids", { artwork_ids: [] }],
    ["artwork_ids", { artwork_ids: Array.from({ length: 51 }, () => newId("art")) }],
    ["artwork_ids", { artwork_ids: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }],
    ["artwork_ids", { artwork_ids: [newId("art")] }],
    ["artwork_ids.0", { artwork_ids: ["nope"] }],
    ["amount_cents", { amount_cents: undefined }],
    ["amount_cents", { amount_cents: -1 }],
    ["amount_cents", { amount_cents: 1.5 }],
    ["amount_cents", { amount_cents: Number.MAX_SAFE_INTEGER + 1 }],
    ["amount_cents", { amount_cents: "100" }],
    ["base_amount_cents", { base_amount_cents: -5 }],
    ["currency", { currency: "usd" }],
    ["currency", { currency: "EURO" }],
    ["sold_at", { sold_at: "2023-02-29T00:00Z" }],
    ["sold_at", { sold_at: "2024-01-01T00:00:00+01:00" }],
    ["sold_at", { sold_at: "2024-01-01" }],
    ["status", { status: "paid" }],
    ["metadata.n", { metadata: { n: 1 } }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const { g, buyer, works } = await setting();
    const body = { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 500_000, ...change };
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
    expect((await getPage(g.key, BASE)).data).toEqual([]);
    expect(await spend(g, buyer)).toEqual(NO_SPEND);
  });

  it("400 naming artwork_ids for a work listed twice or another gallery's; contact_id for another gallery's contact", async () => {
    const { g, buyer, works } = await setting();
    const other = await createGallery();
    const [theirBuyer, theirWork] = [await newContact(other), await newArtwork(other)];
    const base = { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 100 };
    const cases = [
      ["artwork_ids", { artwork_ids: [works[0], works[1], works[0]] }],
      ["artwork_ids", { artwork_ids: [works[0], theirWork] }],
      ["contact_id", { contact_id: theirBuyer }],
    ] as const;
    for (const [field, change] of cases) {
      const res = await call("POST", BASE, { key: g.key, body: { ...base, ...change } });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    expect((await getPage(g.key, BASE)).data).toEqual([]);
    expect(await spend(other, theirBuyer)).toEqual(NO_SPEND);
  });

  it("takes 50 works, in order", async () => {
    const g = await createGallery();
    const buyer = await newContact(g);
    const works: string[] = [];
    for (let i = 0; i < 50; i++) works.push(await newArtwork(g, `Work ${i}`));
    const shuffled = [...works].reverse();
    const sale = await createSale(g, { contact_id: buyer, artwork_ids: shuffled, amount_cents: 5_000_000 });
    expect(sale.artwork_ids).toEqual(shuffled);
    expect((await spend(g, buyer)).works_acquired).toBe(50);
  });

  it("sums 20 concurrent sales of one buyer exactly", async () => {
    const { g, buyer, works } = await setting();
    const amounts = Array.from({ length: 20 }, (_, i) => 100_000 * (i + 1) + i);
    const results = await Promise.all(
      amounts.map((amount_cents, i) =>
        call("POST", BASE, {
          key: g.key,
          body: { contact_id: buyer, artwork_ids: [works[i % 3], works[(i + 1) % 3]], amount_cents },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(amounts.map(() => 201));
    const total = amounts.reduce((a, b) => a + b, 0);
    expect(await spend(g, buyer)).toEqual({
      total_spend_cents: total,
      works_acquired: 40,
      avg_acquisition_cents: Math.round(total / 40),
      price_band: "5k_25k",
    });
    // And the kept figures equal a recount from the sales themselves.
    await db().execute(sql`select refresh_contact_aggregates(${g.id})`);
    expect((await spend(g, buyer)).total_spend_cents).toBe(total);
  });

  it("401 without a key; 403 without sales:create", async () => {
    const { g, buyer, works } = await setting();
    const body = { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 1 };
    await expectProblem(await call("POST", BASE, { body }), 401, "unauthenticated");
    const key = await g.keyWith(["sales:read", "sales:update", "contacts:create"]);
    const res = await call("POST", BASE, { key, body });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "sales:create",
    ]);
    const viewer = await memberSession(g, "viewer");
    await expectProblem(await call("POST", BASE, { key: viewer.token, body }), 403, "forbidden");
  });

  it("replays a retry with the same Idempotency-Key: one sale, one event, spend counted once", async () => {
    const { g, buyer, works } = await setting();
    const headers = { "Idempotency-Key": "sale-once" };
    const body = { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 750_000 };
    const first = await createSale(g, body, headers);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("POST", BASE, { key: g.key, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    expect((await getPage(g.key, BASE)).data).toEqual([first]);
    expect((await spend(g, buyer)).total_spend_cents).toBe(750_000);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "sale.created")).toHaveLength(1);
    const other = await call("POST", BASE, { key: g.key, body: { ...body, amount_cents: 1 }, headers });
    await expectProblem(other, 400, "idempotency_key_reused");
  });
});

describe("spend follows the sales", () => {
  it("through status changes, amount and buyer changes, and deletes", async () => {
    const { g, buyer, works } = await setting();
    const other = await newContact(g, "Other buyer");
    const a = await createSale(g, { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 2_000_000 });
    const b = await createSale(g, {
      contact_id: buyer,
      artwork_ids: [works[1], works[2]],
      amount_cents: 30_000_000,
      status: "pending",
    });
    expect(await spend(g, buyer)).toEqual({
      total_spend_cents: 2_000_000,
      works_acquired: 1,
      avg_acquisition_cents: 2_000_000,
      price_band: "5k_25k",
    });

    await patchSale(g, b.id, { status: "completed" });
    expect(await spend(g, buyer)).toEqual({
      total_spend_cents: 32_000_000,
      works_acquired: 3,
      avg_acquisition_cents: 10_666_667,
      price_band: "over_100k",
    });

    await patchSale(g, a.id, { status: "refunded" });
    expect(await spend(g, buyer)).toEqual({
      total_spend_cents: 30_000_000,
      works_acquired: 2,
      avg_acquisition_cents: 15_000_000,
      price_band: "over_100k",
    });

    await patchSale(g, b.id, { amount_cents: 9_000_000, artwork_ids: [works[1]] });
    expect(await spend(g, buyer)).toEqual({
      total_spend_cents: 9_000_000,
      works_acquired: 1,
      avg_acquisition_cents: 9_000_000,
      price_band: "25k_100k",
    });

    await patchSale(g, b.id, { contact_id: other });
    expect(await spend(g, buyer)).toEqual(NO_SPEND);
    expect(await spend(g, other)).toEqual({
      total_spend_cents: 9_000_000,
      works_acquired: 1,
      avg_acquisition_cents: 9_000_000,
      price_band: "25k_100k",
    });

    await patchSale(g, a.id, { status: "completed", contact_id: other });
    expect((await spend(g, other)).total_spend_cents).toBe(11_000_000);

    const deleted = await call("DELETE", `${BASE}/${b.id}`, { key: g.key });
    expect(deleted.status).toBe(200);
    expect(await spend(g, other)).toEqual({
      total_spend_cents: 2_000_000,
      works_acquired: 1,
      avg_acquisition_cents: 2_000_000,
      price_band: "5k_25k",
    });
    await patchSale(g, a.id, { status: "cancelled" });
    expect(await spend(g, other)).toEqual(NO_SPEND);
  });

  it("moves sales between two buyers in both directions at once without losing or deadlocking", async () => {
    const { g, works } = await setting();
    const [a, b] = [await newContact(g, "A"), await newContact(g, "B")];
    const make = async (contact_id: string, amount_cents: number) =>
      (await createSale(g, { contact_id, artwork_ids: [works[0]], amount_cents })).id;
    const fromA = await Promise.all(Array.from({ length: 10 }, (_, i) => make(a, 1_000 + i)));
    const fromB = await Promise.all(Array.from({ length: 10 }, (_, i) => make(b, 50_000 + i)));
    const moves = [
      ...fromA.map((id) => call("PATCH", `${BASE}/${id}`, { key: g.key, body: { contact_id: b } })),
      ...fromB.map((id) => call("PATCH", `${BASE}/${id}`, { key: g.key, body: { contact_id: a } })),
    ];
    expect((await Promise.all(moves)).map((r) => r.status)).toEqual(moves.map(() => 200));
    expect(await spend(g, a)).toMatchObject({ total_spend_cents: 500_045, works_acquired: 10 });
    expect(await spend(g, b)).toMatchObject({ total_spend_cents: 10_045, works_acquired: 10 });
  });

  it("a buyer's deletion leaves the sale without a contact; a work's deletion drops it from artwork_ids only", async () => {
    const { g, buyer, works } = await setting();
    const stays = await newContact(g, "Stays");
    const sale = await createSale(g, {
      contact_id: buyer,
      artwork_ids: [works[0], works[1]],
      amount_cents: 400,
    });
    await createSale(g, { contact_id: stays, artwork_ids: [works[2]], amount_cents: 600 });
    expect((await call("DELETE", `/gallery/contacts/${buyer}`, { key: g.key })).status).toBe(200);
    expect((await call("DELETE", `/gallery/artworks/${works[0]}`, { key: g.key })).status).toBe(200);
    const read = await readJson(Sale, await call("GET", `${BASE}/${sale.id}`, { key: g.key }));
    expect(read).toMatchObject({
      contact_id: null,
      artwork_ids: [works[1]],
      works_count: 2,
      amount_cents: 400,
    });
    expect(await spend(g, stays)).toMatchObject({ total_spend_cents: 600, works_acquired: 1 });
  });
});

describe("PATCH /gallery/sales/{id}", () => {
  it("emits sale.updated with previous_attributes (a base amount and works count that followed, too); no change, no event", async () => {
    const { g, buyer, works } = await setting();
    const sale = await createSale(g, { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 100_000 });
    const updated = await patchSale(g, sale.id, {
      amount_cents: 120_000,
      artwork_ids: [works[0], works[1]],
      sold_at: "2024-06-01T10:00:00.000Z",
      metadata: { note: "repriced" },
    });
    expect(updated).toMatchObject({
      amount_cents: 120_000,
      base_amount_cents: 120_000,
      artwork_ids: [works[0], works[1]],
      works_count: 2,
      sold_at: "2024-06-01T10:00:00.000Z",
      metadata: { note: "repriced" },
    });
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(sale.updated_at));
    const same = await patchSale(g, sale.id, {
      sold_at: "2024-06-01T10:00Z",
      status: "completed",
      amount_cents: 120_000,
    });
    expect(same).toEqual(updated);
    const events = (await outboxEvents(g.id)).filter((e) => e.type === "sale.updated");
    expect(events.map((e) => e.data)).toEqual([
      {
        object: updated,
        previous_attributes: {
          amount_cents: 100_000,
          base_amount_cents: 100_000,
          artwork_ids: [works[0]],
          works_count: 1,
          sold_at: sale.sold_at,
          metadata: {},
        },
      },
    ]);
  });

  it("in another currency, a new amount needs base_amount_cents; switching to the default currency derives it", async () => {
    const { g, buyer, works } = await setting();
    const sale = await createSale(g, {
      contact_id: buyer,
      artwork_ids: [works[0]],
      amount_cents: 1_000_000,
      currency: "GBP",
      base_amount_cents: 1_270_000,
    });
    const res = await call("PATCH", `${BASE}/${sale.id}`, { key: g.key, body: { amount_cents: 900_000 } });
    await expectProblem(res, 400, "invalid_request", { field: "base_amount_cents", location: "body" });
    expect((await spend(g, buyer)).total_spend_cents).toBe(1_270_000);

    const withBase = await patchSale(g, sale.id, { amount_cents: 900_000, base_amount_cents: 1_140_000 });
    expect([withBase.amount_cents, withBase.base_amount_cents]).toEqual([900_000, 1_140_000]);
    const statusOnly = await patchSale(g, sale.id, { status: "pending" });
    expect(statusOnly.base_amount_cents).toBe(1_140_000);
    const toUsd = await patchSale(g, sale.id, { currency: "USD", status: "completed" });
    expect([toUsd.currency, toUsd.amount_cents, toUsd.base_amount_cents]).toEqual(["USD", 900_000, 900_000]);
    expect((await spend(g, buyer)).total_spend_cents).toBe(900_000);
    const wrongBase = await call("PATCH", `${BASE}/${sale.id}`, {
      key: g.key,
      body: { base_amount_cents: 5 },
    });
    await expectProblem(wrongBase, 400, "invalid_request", { field: "base_amount_cents", location: "body" });
  });

  it.each([
    ["status", { status: "paid" }],
    ["contact_id", { contact_id: null }],
    ["contact_id", { contact_id: newId("con") }],
    ["artwork_ids", { artwork_ids: [] }],
    ["artwork_ids", { artwork_ids: [newId("art")] }],
    ["amount_cents", { amount_cents: -1 }],
    ["sold_at", { sold_at: "2024-02-30T00:00Z" }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); the sale and spend are unchanged", async (field, change) => {
    const { g, buyer, works } = await setting();
    const sale = await createSale(g, { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 100 });
    const res = await call("PATCH", `${BASE}/${sale.id}`, { key: g.key, body: change });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect(await readJson(Sale, await call("GET", `${BASE}/${sale.id}`, { key: g.key }))).toEqual(sale);
    expect((await spend(g, buyer)).total_spend_cents).toBe(100);
  });

  it("404 for another gallery's sale; 401; 403 without sales:update", async () => {
    const { g, buyer, works } = await setting();
    const other = await createGallery();
    const sale = await createSale(g, { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 100 });
    const path = `${BASE}/${sale.id}`;
    await expectProblem(
      await call("PATCH", path, { key: other.key, body: { status: "refunded" } }),
      404,
      "not_found",
    );
    await expectProblem(await call("PATCH", path, { body: { status: "refunded" } }), 401, "unauthenticated");
    const key = await g.keyWith(["sales:read", "sales:create", "sales:delete"]);
    await expectProblem(await call("PATCH", path, { key, body: { status: "refunded" } }), 403, "forbidden");
    expect((await spend(g, buyer)).total_spend_cents).toBe(100);
  });
});

describe("GET and DELETE /gallery/sales/{id}", () => {
  it("GET: 404 for another gallery's sale and an unknown one; 403 without sales:read", async () => {
    const { g, buyer, works } = await setting();
    const other = await createGallery();
    const sale = await createSale(g, { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 100 });
    await expectProblem(await call("GET", `${BASE}/${sale.id}`, { key: other.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${newId("sale")}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${sale.id}`), 401, "unauthenticated");
    const key = await g.keyWith(["contacts:read"]);
    await expectProblem(await call("GET", `${BASE}/${sale.id}`, { key }), 403, "forbidden");
    const viewer = await memberSession(g, "viewer");
    expect((await call("GET", `${BASE}/${sale.id}`, { key: viewer.token })).status).toBe(200);
  });

  it("DELETE: emits sale.deleted with the last state, replays a retry, 404 afterwards and for another gallery", async () => {
    const { g, buyer, works } = await setting();
    const other = await createGallery();
    const sale = await createSale(g, { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 100 });
    await expectProblem(await call("DELETE", `${BASE}/${sale.id}`, { key: other.key }), 404, "not_found");
    const key = await g.keyWith(["sales:read", "sales:update"]);
    await expectProblem(await call("DELETE", `${BASE}/${sale.id}`, { key }), 403, "forbidden");
    const headers = { "Idempotency-Key": "sale-delete" };
    const res = await call("DELETE", `${BASE}/${sale.id}`, { key: g.key, headers });
    expect(await res.json()).toEqual({ id: sale.id, deleted: true });
    const again = await call("DELETE", `${BASE}/${sale.id}`, { key: g.key, headers });
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    await expectProblem(await call("DELETE", `${BASE}/${sale.id}`, { key: g.key }), 404, "not_found");
    expect(await spend(g, buyer)).toEqual(NO_SPEND);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "sale.deleted")).toEqual([
      { id: expect.any(String), type: "sale.deleted", resource_id: sale.id, data: { object: sale } },
    ]);
  });
});

describe("GET /gallery/sales", () => {
  it("filters by contact, artwork, status and sold_at window (at or after, strictly before); sorts by created or sold", async () => {
    const { g, buyer, works } = await setting();
    const other = await newContact(g, "Other");
    const s1 = await createSale(g, {
      contact_id: buyer,
      artwork_ids: [works[0]],
      amount_cents: 1,
      sold_at: "2024-03-01T00:00Z",
    });
    const s2 = await createSale(g, {
      contact_id: other,
      artwork_ids: [works[1]],
      amount_cents: 2,
      sold_at: "2024-01-01T00:00Z",
      status: "pending",
    });
    const s3 = await createSale(g, {
      contact_id: buyer,
      artwork_ids: [works[1], works[2]],
      amount_cents: 3,
      sold_at: "2024-02-01T00:00Z",
    });
    const ids = async (query: Record<string, string>) =>
      (await walkPages<SaleBody>(g.key, BASE, { limit: "2", ...query })).flatMap((p) =>
        p.data.map((s) => s.id),
      );

    expect(await ids({})).toEqual([s3.id, s2.id, s1.id]);
    expect(await ids({ dir: "asc" })).toEqual([s1.id, s2.id, s3.id]);
    expect(await ids({ sort: "sold" })).toEqual([s1.id, s3.id, s2.id]);
    expect(await ids({ sort: "sold", dir: "asc" })).toEqual([s2.id, s3.id, s1.id]);
    expect(await ids({ contact_id: buyer })).toEqual([s3.id, s1.id]);
    expect(await ids({ artwork_id: works[1]! })).toEqual([s3.id, s2.id]);
    expect(await ids({ status: "pending" })).toEqual([s2.id]);
    expect(await ids({ sold_after: "2024-02-01T00:00Z" })).toEqual([s3.id, s1.id]);
    expect(await ids({ sold_before: "2024-02-01T00:00Z" })).toEqual([s2.id]);
    expect(await ids({ sold_after: "2024-01-01T00:00Z", sold_before: "2024-03-01T00:00:00.000Z" })).toEqual([
      s3.id,
      s2.id,
    ]);
    expect(await ids({ contact_id: buyer, sort: "sold", sold_before: "2024-12-31T23:59:59.999Z" })).toEqual([
      s1.id,
      s3.id,
    ]);
  });

  it.each([
    ["sold_after", "sold_after=2023-02-29T00:00Z"],
    ["sold_after", "sold_after=2024-01-01"],
    ["sold_before", "sold_before=2024-01-01T00:00:00%2B01:00"],
    ["status", "status=paid"],
    ["contact_id", "contact_id=nope"],
    ["artwork_id", "artwork_id=con_01jd4xk9v2c7h8m3n5p6q7r8s9"],
    ["sort", "sort=amount"],
  ])("400 naming %s (case %#)", async (field, query) => {
    const g = await createGallery();
    await expectProblem(await call("GET", `${BASE}?${query}`, { key: g.key }), 400, "invalid_request", {
      field,
    });
  });

  it("shows only this gallery's sales; 401; 403 without sales:read", async () => {
    const { g, buyer, works } = await setting();
    const other = await createGallery();
    await createSale(g, { contact_id: buyer, artwork_ids: [works[0]], amount_cents: 1 });
    expect(await getPage(other.key, BASE)).toEqual({ data: [], next_cursor: null });
    await expectProblem(await call("GET", BASE), 401, "unauthenticated");
    await expectProblem(
      await call("GET", BASE, { key: await g.keyWith(["contacts:read"]) }),
      403,
      "forbidden",
    );
    expect((await getPage(await g.keyWith(["sales:read"]), BASE)).data).toHaveLength(1);
  });
});
