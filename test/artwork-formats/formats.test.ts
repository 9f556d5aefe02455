import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { ArtworkFormat } from "../../lib/schemas/artworks";
import { create, getArtwork, ISO_MS } from "../artworks/helpers";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";
import { addFormat, deleteFormat, formatsPath, listFormats, order, patchFormat } from "./api";

/** GET/POST /gallery/artworks/{id}/formats, PATCH/DELETE …/formats/{formatId} on an unpublished work. */

let g: TestGallery;
beforeAll(async () => {
  g = await createGallery();
});

async function formatEvents(formatId: string) {
  return (await outboxEvents(g.id)).filter((e) => e.resource_id === formatId);
}

describe("POST /gallery/artworks/{id}/formats", () => {
  it("creates a format with every field, lists it, nests it in the artwork and emits artwork_format.created", async () => {
    const work = await create(g, { title: "Edition" });
    const body = {
      label: "Large print",
      height_cm: 100.5,
      width_cm: 70,
      depth_cm: null,
      dimension_unit: "cm",
      medium: "Archival pigment print",
      edition_size: 25,
      stock_quantity: 12,
      availability_state: "on_hold",
      price_cents: 450000,
      currency: "EUR",
      metadata: { paper: "Hahnemühle" },
    };
    const format = await addFormat(g, work.id, body);
    expect(format).toEqual({
      id: expect.stringMatching(/^fmt_/),
      artwork_id: work.id,
      ...body,
      position: 0,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: format.created_at,
    });
    expect(await listFormats(g.key, work.id)).toEqual([format]);
    expect((await getArtwork(g, work.id)).formats).toEqual([format]);
    const events = await formatEvents(format.id);
    expect(events.map((e) => e.type)).toEqual(["artwork_format.created"]);
    expect(events[0]!.data).toEqual({ object: format });
  });

  it("gives omitted fields their defaults and puts a new format after the last", async () => {
    const work = await create(g, { title: "Defaults" });
    await addFormat(g, work.id, { label: "First" });
    const second = await addFormat(g, work.id, { label: "  Second  " });
    expect(second).toMatchObject({
      label: "Second",
      height_cm: null,
      width_cm: null,
      depth_cm: null,
      dimension_unit: "in",
      medium: null,
      edition_size: null,
      stock_quantity: 0,
      availability_state: "available",
      price_cents: null,
      currency: "USD",
      position: 1,
      metadata: {},
    });
  });

  it("inserts at a position, shifting the formats at and after it; past the end means last", async () => {
    const work = await create(g, { title: "Positions" });
    await addFormat(g, work.id, { label: "A" });
    await addFormat(g, work.id, { label: "B" });
    const c = await addFormat(g, work.id, { label: "C", position: 0 });
    expect(c.position).toBe(0);
    await addFormat(g, work.id, { label: "D", position: 2 });
    const e = await addFormat(g, work.id, { label: "E", position: 500 });
    expect(e.position).toBe(4);
    expect(await order(g.key, work.id)).toEqual([
      ["C", 0],
      ["A", 1],
      ["D", 2],
      ["B", 3],
      ["E", 4],
    ]);
  });

  it("answers 404 for an artwork that is not in the gallery", async () => {
    const res = await call("POST", formatsPath(newId("art")), { key: g.key, body: { label: "X" } });
    await expectProblem(res, 404, "not_found");
    await expectProblem(await call("GET", formatsPath(newId("art")), { key: g.key }), 404, "not_found");
  });

  it("refuses a format beyond the 100th with 409, writing nothing", async () => {
    const work = await create(g, { title: "Crowded" });
    await db().execute(sql`insert into artwork_formats (id, gallery_id, artwork_id, label, position)
      select 'fmt_' || lpad(n::text, 26, '0'), ${g.id}, ${work.id}, 'F' || n, n - 1 from generate_series(1, 100) n`);
    const res = await call("POST", formatsPath(work.id), { key: g.key, body: { label: "One more" } });
    await expectProblem(res, 409, "conflict");
    expect(await listFormats(g.key, work.id)).toHaveLength(100);
  });

  describe("bad input is a 400 naming the field", () => {
    let workId: string;
    beforeAll(async () => {
      workId = (await create(g, { title: "Validation" })).id;
    });

    it.each([
      ["label", {}],
      ["label", { label: "" }],
      ["label", { label: "   " }],
      ["label", { label: "x".repeat(201) }],
      ["label", { label: null }],
      ["height_cm", { label: "L", height_cm: -1 }],
      ["width_cm", { label: "L", width_cm: 100_001 }],
      ["depth_cm", { label: "L", depth_cm: "10" }],
      ["dimension_unit", { label: "L", dimension_unit: "mm" }],
      ["medium", { label: "L", medium: "m".repeat(201) }],
      ["edition_size", { label: "L", edition_size: 0 }],
      ["edition_size", { label: "L", edition_size: 2.5 }],
      ["stock_quantity", { label: "L", stock_quantity: -1 }],
      ["stock_quantity", { label: "L", stock_quantity: null }],
      ["availability_state", { label: "L", availability_state: "gone" }],
      ["price_cents", { label: "L", price_cents: -1, currency: "USD" }],
      ["price_cents", { label: "L", price_cents: 9007199254740992, currency: "USD" }],
      ["price_cents", { label: "L", price_cents: 10.5, currency: "USD" }],
      ["currency", { label: "L", price_cents: 1000 }],
      ["currency", { label: "L", currency: "usd" }],
      ["position", { label: "L", position: -1 }],
      [
        "metadata",
        { label: "L", metadata: Object.fromEntries([...Array(51).keys()].map((i) => [`k${i}`, "v"])) },
      ],
    ])("%s: %j", async (field, body) => {
      const res = await call("POST", formatsPath(workId), { key: g.key, body });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
      expect(await listFormats(g.key, workId)).toEqual([]);
    });

    it("a metadata key or value beyond its length, or not a string", async () => {
      for (const metadata of [{ ["k".repeat(41)]: "v" }, { k: "v".repeat(501) }, { k: 1 }, { "": "v" }]) {
        const res = await call("POST", formatsPath(workId), { key: g.key, body: { label: "L", metadata } });
        const problem = await expectProblem(res, 400, "invalid_request");
        expect(problem.details!.map((d) => d.field.split(".")[0])).toContain("metadata");
      }
    });

    it("takes the largest price and a price of 0 with their currency", async () => {
      const big = await addFormat(g, workId, {
        label: "Big",
        price_cents: 9007199254740991,
        currency: "USD",
      });
      expect(big.price_cents).toBe(9007199254740991);
      const free = await addFormat(g, workId, { label: "Free", price_cents: 0, currency: "GBP" });
      expect(free).toMatchObject({ price_cents: 0, currency: "GBP" });
      const unpriced = await addFormat(g, workId, { label: "Unpriced", price_cents: null });
      expect(unpriced).toMatchObject({ price_cents: null, currency: "USD" });
    });
  });
});

describe("PATCH /gallery/artworks/{id}/formats/{formatId}", () => {
  it("changes only the fields sent and emits artwork_format.updated with previous_attributes", async () => {
    const work = await create(g, { title: "Patch" });
    const before = await addFormat(g, work.id, { label: "Print", price_cents: 1000, currency: "USD" });
    const after = await patchFormat(g, work.id, before.id, {
      label: "Framed print",
      price_cents: 2500,
      metadata: { frame: "oak" },
    });
    expect(after).toEqual({
      ...before,
      label: "Framed print",
      price_cents: 2500,
      metadata: { frame: "oak" },
      updated_at: after.updated_at,
    });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(await listFormats(g.key, work.id)).toEqual([after]);
    const events = await formatEvents(before.id);
    expect(events.map((e) => e.type)).toEqual(["artwork_format.created", "artwork_format.updated"]);
    expect(events[1]!.data).toEqual({
      object: after,
      previous_attributes: { label: "Print", price_cents: 1000, metadata: {} },
    });
  });

  it("sets nullable fields to null", async () => {
    const work = await create(g, { title: "Nulls" });
    const f = await addFormat(g, work.id, { label: "P", height_cm: 10, medium: "Ink", edition_size: 5 });
    const after = await patchFormat(g, work.id, f.id, { height_cm: null, medium: null, edition_size: null });
    expect(after).toMatchObject({ height_cm: null, medium: null, edition_size: null });
  });

  it("a PATCH that changes nothing returns the format, writes nothing and emits nothing", async () => {
    const work = await create(g, { title: "Still" });
    const f = await addFormat(g, work.id, { label: "P", metadata: { a: "b", c: "d" } });
    const workBefore = await getArtwork(g, work.id);
    const same = await patchFormat(g, work.id, f.id, {
      label: "P",
      metadata: { c: "d", a: "b" },
      position: 7,
    });
    expect(same).toEqual(f);
    expect((await formatEvents(f.id)).map((e) => e.type)).toEqual(["artwork_format.created"]);
    expect((await getArtwork(g, work.id)).updated_at).toBe(workBefore.updated_at);
  });

  it("reorders: the formats in between shift so positions stay 0..n-1", async () => {
    const work = await create(g, { title: "Reorder" });
    const ids: Record<string, string> = {};
    for (const label of ["A", "B", "C", "D"]) ids[label] = (await addFormat(g, work.id, { label })).id;

    const moved = await patchFormat(g, work.id, ids.D!, { position: 1 });
    expect(moved.position).toBe(1);
    expect(await order(g.key, work.id)).toEqual([
      ["A", 0],
      ["D", 1],
      ["B", 2],
      ["C", 3],
    ]);
    await patchFormat(g, work.id, ids.A!, { position: 2 });
    expect(await order(g.key, work.id)).toEqual([
      ["D", 0],
      ["B", 1],
      ["A", 2],
      ["C", 3],
    ]);
    const last = await patchFormat(g, work.id, ids.D!, { position: 1000 });
    expect(last.position).toBe(3);
    expect(await order(g.key, work.id)).toEqual([
      ["B", 0],
      ["A", 1],
      ["C", 2],
      ["D", 3],
    ]);
    // Only the moved format's event: the others' positions follow from it.
    const updated = (await outboxEvents(g.id)).filter((e) => e.type === "artwork_format.updated");
    const movedEvents = updated.filter((e) => Object.values(ids).includes(e.resource_id));
    expect(movedEvents.map((e) => [e.resource_id, e.data.previous_attributes])).toEqual([
      [ids.D, { position: 3 }],
      [ids.A, { position: 0 }],
      [ids.D, { position: 0 }],
    ]);
    expect((await getArtwork(g, work.id)).formats.map((f) => f.label)).toEqual(["B", "A", "C", "D"]);
  });

  it("answers 404 for a format of another artwork, and for an unknown format", async () => {
    const one = await create(g, { title: "One" });
    const two = await create(g, { title: "Two" });
    const f = await addFormat(g, one.id, { label: "Mine" });
    for (const path of [formatsPath(two.id, f.id), formatsPath(one.id, newId("fmt"))]) {
      await expectProblem(await call("PATCH", path, { key: g.key, body: { label: "X" } }), 404, "not_found");
      await expectProblem(await call("DELETE", path, { key: g.key }), 404, "not_found");
    }
    expect(await listFormats(g.key, one.id)).toEqual([f]);
  });

  it.each([
    ["label", { label: null }],
    ["label", { label: "" }],
    ["stock_quantity", { stock_quantity: -5 }],
    ["position", { position: 1.5 }],
    ["currency", { currency: "EURO" }],
    ["availability_state", { availability_state: null }],
  ])("refuses bad input with a 400 naming %s", async (field, body) => {
    const work = await create(g, { title: "Bad patch" });
    const f = await addFormat(g, work.id, { label: "P" });
    const res = await call("PATCH", formatsPath(work.id, f.id), { key: g.key, body });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect(await listFormats(g.key, work.id)).toEqual([f]);
  });
});

describe("DELETE /gallery/artworks/{id}/formats/{formatId}", () => {
  it("deletes, closes the gap and emits artwork_format.deleted with the last state", async () => {
    const work = await create(g, { title: "Delete" });
    await addFormat(g, work.id, { label: "A" });
    const b = await addFormat(g, work.id, { label: "B", price_cents: 700, currency: "USD" });
    await addFormat(g, work.id, { label: "C" });
    await deleteFormat(g, work.id, b.id);
    expect(await order(g.key, work.id)).toEqual([
      ["A", 0],
      ["C", 1],
    ]);
    const events = await formatEvents(b.id);
    expect(events.map((e) => e.type)).toEqual(["artwork_format.created", "artwork_format.deleted"]);
    expect(events[1]!.data).toEqual({ object: b });
    await expectProblem(await call("DELETE", formatsPath(work.id, b.id), { key: g.key }), 404, "not_found");
  });

  it("a retried DELETE with the same Idempotency-Key replays the result", async () => {
    const work = await create(g, { title: "Retry" });
    const f = await addFormat(g, work.id, { label: "Gone" });
    const headers = { "Idempotency-Key": `delete-${f.id}` };
    const first = await call("DELETE", formatsPath(work.id, f.id), { key: g.key, headers });
    expect(first.status).toBe(200);
    const again = await call("DELETE", formatsPath(work.id, f.id), { key: g.key, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect((await formatEvents(f.id)).map((e) => e.type)).toEqual([
      "artwork_format.created",
      "artwork_format.deleted",
    ]);
  });

  it("a created format's retry replays it, without a second format", async () => {
    const work = await create(g, { title: "Retry create" });
    const headers = { "Idempotency-Key": `create-${work.id}` };
    const first = await addFormat(g, work.id, { label: "Once" }, headers);
    const again = await call("POST", formatsPath(work.id), { key: g.key, body: { label: "Once" }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await readJson(ArtworkFormat, again)).toEqual(first);
    expect(await listFormats(g.key, work.id)).toEqual([first]);
  });

  it("deleting the artwork takes its formats along", async () => {
    const work = await create(g, { title: "Whole" });
    await addFormat(g, work.id, { label: "A" });
    expect((await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key })).status).toBe(200);
    const left = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from artwork_formats where artwork_id = ${work.id}`,
    );
    expect(left.rows[0]!.n).toBe(0);
  });
});
