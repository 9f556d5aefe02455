import { beforeAll, describe, expect, it } from "vitest";
import { locations } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Artwork } from "../../lib/schemas/artworks";
import { createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { insertRow, outboxEvents } from "../helpers/seed";
import { activity, create, getArtwork, listedIds, patch, seedArtist, seedTag } from "./helpers";

/** PATCH /gallery/artworks/{id}. */

describe("PATCH /gallery/artworks/{id}", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("changes only the fields sent and emits artwork.updated with previous_attributes", async () => {
    const before = await create(g, {
      title: "Before",
      price_cents: 1000,
      currency: "USD",
      medium: "Oil",
      year: 1990,
    });
    const res = await patch(g, before.id, { title: "After", medium: null });
    expect(res.status).toBe(200);
    const after = await readJson(Artwork, res);
    expect(after).toEqual({ ...before, title: "After", medium: null, updated_at: after.updated_at });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(after.created_at).toBe(before.created_at);
    expect(await getArtwork(g, before.id)).toEqual(after);

    const events = (await outboxEvents(g.id)).filter((e) => e.resource_id === before.id);
    expect(events.map((e) => e.type)).toEqual(["artwork.created", "artwork.updated"]);
    expect(events[1]!.data).toEqual({
      object: after,
      previous_attributes: { title: "Before", medium: "Oil" },
    });
    // A title change is not a price change: no price activity either.
    expect((await activity(before.id)).map((a) => a.event_type)).toEqual(["created"]);
  });

  it("emits artwork.price_changed (beside artwork.updated) only when price_cents or currency change", async () => {
    const work = await create(g, { title: "Priced", price_cents: 1000, currency: "USD" });
    const priced = await readJson(Artwork, await patch(g, work.id, { price_cents: 2000 }));
    expect(priced.price_cents).toBe(2000);
    let events = (await outboxEvents(g.id)).filter((e) => e.resource_id === work.id);
    expect(events.map((e) => e.type).sort()).toEqual([
      "artwork.created",
      "artwork.price_changed",
      "artwork.updated",
    ]);
    const priceEvent = events.find((e) => e.type === "artwork.price_changed")!;
    expect(priceEvent.data).toEqual({
      object: priced,
      previous_attributes: { price_cents: 1000, currency: "USD" },
    });
    const updated = events.find((e) => e.type === "artwork.updated")!;
    expect(updated.data).toEqual({ object: priced, previous_attributes: { price_cents: 1000 } });
    const activityRows = await activity(work.id);
    expect(activityRows.map((a) => a.event_type)).toEqual(["created", "price_changed"]);
    expect(activityRows[1]).toMatchObject({
      summary: "Price changed from $10.00 to $20.00.",
      metadata: { from: { price_cents: 1000, currency: "USD" }, to: { price_cents: 2000, currency: "USD" } },
    });

    const inEuro = await readJson(Artwork, await patch(g, work.id, { currency: "EUR" }));
    events = (await outboxEvents(g.id)).filter((e) => e.resource_id === work.id);
    expect(events.filter((e) => e.type === "artwork.price_changed")).toHaveLength(2);
    expect(
      events.filter((e) => e.type === "artwork.price_changed").map((e) => e.data.previous_attributes),
    ).toContainEqual({
      price_cents: 2000,
      currency: "USD",
    });
    expect(inEuro.currency).toBe("EUR");

    await patch(g, work.id, { availability_state: "sold", description: "Now sold" });
    events = (await outboxEvents(g.id)).filter((e) => e.resource_id === work.id);
    expect(events.filter((e) => e.type === "artwork.price_changed")).toHaveLength(2);
    expect(events.filter((e) => e.type === "artwork.updated")).toHaveLength(3);
  });

  it("a PATCH that changes nothing returns the artwork and emits nothing", async () => {
    const work = await create(g, {
      title: "Still",
      price_cents: 300,
      currency: "USD",
      metadata: { a: "b", c: "d" },
    });
    const eventsBefore = await outboxEvents(g.id);
    const same = [
      {},
      { title: "Still" },
      { title: "Still", price_cents: 300, metadata: { a: "b", c: "d" } },
      // The same map with its keys in another order is not a change.
      { metadata: { c: "d", a: "b" } },
    ];
    for (const body of same) {
      const res = await patch(g, work.id, body);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(work);
    }
    expect(await outboxEvents(g.id)).toEqual(eventsBefore);
    expect(await getArtwork(g, work.id)).toEqual(work);
    expect((await activity(work.id)).map((a) => a.event_type)).toEqual(["created"]);
  });

  it("records a move in the activity timeline", async () => {
    const from = newId("loc");
    const to = newId("loc");
    for (const [id, name] of [
      [from, "Front room"],
      [to, "Store"],
    ] as const) {
      await db().execute(insertRow(locations, { id, gallery_id: g.id, name }));
    }
    const work = await create(g, { title: "Traveller", location_id: from });
    const moved = await readJson(Artwork, await patch(g, work.id, { location_id: to }));
    expect(moved.location_id).toBe(to);
    const rows = await activity(work.id);
    expect(rows.map((a) => a.event_type)).toEqual(["created", "moved"]);
    expect(rows[1]).toMatchObject({
      summary: "Moved from Front room to Store.",
      metadata: { from: { location_id: from }, to: { location_id: to } },
    });
  });

  it("replaces artists, dimensions and tags as whole lists", async () => {
    const a1 = await seedArtist(g.id, "First");
    const a2 = await seedArtist(g.id, "Second");
    const tag1 = await seedTag(g.id, "One");
    const tag2 = await seedTag(g.id, "Two");
    const work = await create(g, {
      title: "Lists",
      artists: [{ artist_id: a1 }],
      dimensions: [{ height_cm: 1 }, { height_cm: 2 }],
      tag_ids: [tag1],
    });
    const res = await patch(g, work.id, {
      artists: [{ artist_id: a2 }],
      dimensions: [{ width_cm: 3 }],
      tag_ids: [tag2],
    });
    expect(res.status).toBe(200);
    const after = await readJson(Artwork, res);
    expect(after.artist_id).toBe(a2);
    expect(after.artist_name).toBe("Second");
    expect(after.artists).toEqual([{ artist_id: a2, role: "primary", position: 0, artist_name: "Second" }]);
    expect(after.dimensions).toEqual([
      {
        component: "overall",
        label: null,
        height_cm: null,
        width_cm: 3,
        depth_cm: null,
        position: 0,
        note: null,
      },
    ]);
    expect(await listedIds(g.key, `tag_id=${tag1}`)).toEqual([]);
    expect(await listedIds(g.key, `tag_id=${tag2}`)).toEqual([work.id]);
    const cleared = await readJson(Artwork, await patch(g, work.id, { artists: [] }));
    expect([cleared.artist_id, cleared.artist_name, cleared.artists]).toEqual([null, null, []]);
  });

  it("refuses references to another gallery's artist, tag or location", async () => {
    const other = await createGallery();
    const foreignArtist = await seedArtist(other.id, "Foreign");
    const foreignTag = await seedTag(other.id, "Foreign");
    const foreignLocation = newId("loc");
    await db().execute(insertRow(locations, { id: foreignLocation, gallery_id: other.id, name: "Vault" }));
    const work = await create(g, { title: "Guarded" });
    for (const body of [
      { artists: [{ artist_id: foreignArtist }] },
      { tag_ids: [foreignTag] },
      { location_id: foreignLocation },
    ]) {
      const res = await patch(g, work.id, body);
      await expectProblem(res, 400, "invalid_request");
    }
    expect(await getArtwork(g, work.id)).toEqual(work);
    expect(await listedIds(g.key, `tag_id=${foreignTag}`)).toEqual([]);
  });

  it("validates the merged year range and the body like create does", async () => {
    const work = await create(g, { title: "Dated", year: 1900 });
    const res = await patch(g, work.id, { end_year: 1899 });
    await expectProblem(res, 400, "invalid_request", { field: "end_year", location: "body" });
    await expectProblem(await patch(g, work.id, { colour: "red" }), 400, "invalid_request", {
      field: "colour",
      location: "body",
    });
    await expectProblem(await patch(g, work.id, { title: "" }), 400, "invalid_request", {
      field: "title",
      location: "body",
    });
    await expectProblem(await patch(g, work.id, { source_system: "x" }), 400, "invalid_request", {
      field: "source_system",
      location: "body",
    });
    const ok = await readJson(Artwork, await patch(g, work.id, { end_year: 1905 }));
    expect([ok.year, ok.end_year]).toEqual([1900, 1905]);
    expect(await readJson(Artwork, await patch(g, work.id, { year: 1905 }))).toMatchObject({ year: 1905 });
    await expectProblem(await patch(g, work.id, { year: 1906 }), 400, "invalid_request", {
      field: "end_year",
      location: "body",
    });
  });

  it("404 for an unknown artwork", async () => {
    await expectProblem(await patch(g, newId("art"), { title: "x" }), 404, "not_found");
  });
});
