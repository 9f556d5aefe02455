import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { Artwork } from "../../lib/schemas/artworks";
import { call, callJson, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { outboxEvents } from "../helpers/seed";
import { type ArtworkBody, activity, create, getArtwork, listedIds, patch, seedArtist } from "./helpers";

/** Drafts and publishing: POST /gallery/artworks/{id}/publish and /draft/discard, and `draft=true` reads. */

async function publish(g: TestGallery, id: string, headers: Record<string, string> = {}) {
  const res = await call("POST", `/gallery/artworks/${id}/publish`, { key: g.key, headers });
  expect(res.status, await res.clone().text()).toBe(200);
  return { body: await readJson(Artwork, res), headers: res.headers };
}

async function discard(g: TestGallery, id: string) {
  const res = await call("POST", `/gallery/artworks/${id}/draft/discard`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Artwork, res);
}

async function workingCopy(g: TestGallery, id: string): Promise<ArtworkBody> {
  const { status, body } = await callJson(Artwork, "GET", `/gallery/artworks/${id}?draft=true`, {
    key: g.key,
  });
  expect(status).toBe(200);
  return body;
}

async function eventTypes(g: TestGallery, id: string): Promise<string[]> {
  return (await outboxEvents(g.id)).filter((e) => e.resource_id === id).map((e) => e.type);
}

async function versions(id: string) {
  const result = await db().execute<{ version: number; snapshot: Record<string, unknown> }>(
    sql`select version, snapshot from artwork_versions where artwork_id = ${id} order by version`,
  );
  return result.rows;
}

describe("drafts and publishing", () => {
  let g: TestGallery;
  let painter: string;
  let sculptor: string;
  beforeAll(async () => {
    g = await createGallery();
    painter = await seedArtist(g.id, "Agnes Painter");
    sculptor = await seedArtist(g.id, "Boris Sculptor");
  });

  it("an unpublished work is edited in place; publishing it makes version 1 live", async () => {
    const work = await create(g, { title: "Fresh", artists: [{ artist_id: painter }] });
    expect(work).toMatchObject({ save_state: "new", published_at: null, published_version: null });
    const edited = await readJson(Artwork, await patch(g, work.id, { title: "Fresh, edited" }));
    expect(edited.title).toBe("Fresh, edited");
    expect(await getArtwork(g, work.id)).toEqual(edited);
    expect(await workingCopy(g, work.id)).toEqual(edited);

    const { body: live } = await publish(g, work.id);
    expect(live).toMatchObject({ title: "Fresh, edited", save_state: "published", published_version: 1 });
    expect(Date.parse(live.published_at!)).toBeGreaterThan(0);
    expect(await getArtwork(g, work.id)).toEqual(live);
    expect(await eventTypes(g, work.id)).toEqual(["artwork.created", "artwork.updated", "artwork.published"]);
    expect((await activity(work.id)).map((a) => a.event_type)).toEqual(["created", "published"]);
    const kept = await versions(work.id);
    expect(kept.map((v) => v.version)).toEqual([1]);
    expect(kept[0]!.snapshot).toEqual(live);
  });

  it("edits to a published work go to its working copy; the live work is untouched", async () => {
    const work = await create(g, {
      title: "Live title",
      price_cents: 1000,
      currency: "USD",
      artists: [{ artist_id: painter }],
      dimensions: [{ component: "overall", height_cm: 10, width_cm: 20 }],
    });
    const live = (await publish(g, work.id)).body;
    const res = await patch(g, work.id, {
      title: "Draft title",
      price_cents: 2500,
      artists: [{ artist_id: sculptor, role: "primary" }],
      dimensions: [{ component: "sheet", label: "Sheet", height_cm: 30, width_cm: 40, note: "unframed" }],
    });
    expect(res.status).toBe(200);
    const draft = await readJson(Artwork, res);
    expect(draft).toMatchObject({
      title: "Draft title",
      price_cents: 2500,
      artist_id: sculptor,
      artist_name: "Boris Sculptor",
      artists: [{ artist_id: sculptor, role: "primary", position: 0, artist_name: "Boris Sculptor" }],
      dimensions: [
        {
          component: "sheet",
          label: "Sheet",
          height_cm: 30,
          width_cm: 40,
          depth_cm: null,
          position: 0,
          note: "unframed",
        },
      ],
      save_state: "draft",
      published_version: 1,
    });
    expect(await workingCopy(g, work.id)).toEqual(draft);

    const liveNow = await getArtwork(g, work.id);
    const { updated_at: _u, save_state: _s, ...liveFields } = live;
    expect(liveNow).toMatchObject({ ...liveFields, save_state: "draft" });
    expect(liveNow.artists.map((a) => a.artist_id)).toEqual([painter]);
    // The list reads the same two states.
    const ids = await listedIds(g.key, `ids=${work.id}&q=draft`);
    expect(ids).toEqual([]);
    expect(await listedIds(g.key, `ids=${work.id}&q=draft&draft=true`)).toEqual([work.id]);

    // The draft change is not a live change: no artwork.updated, no price change, no timeline entry yet.
    const events = (await outboxEvents(g.id)).filter((e) => e.resource_id === work.id);
    expect(events.map((e) => e.type)).toEqual([
      "artwork.created",
      "artwork.published",
      "artwork.draft_updated",
    ]);
    expect(events[2]!.data).toEqual({
      object: draft,
      previous_attributes: {
        title: "Live title",
        price_cents: 1000,
        artists: live.artists,
        dimensions: live.dimensions,
      },
    });
    expect((await activity(work.id)).map((a) => a.event_type)).toEqual(["created", "published"]);
  });

  it("discard restores the working copy to the published state, credits and dimensions included", async () => {
    const work = await create(g, {
      title: "Keep me",
      artists: [{ artist_id: painter }],
      dimensions: [{ height_cm: 5 }],
    });
    const live = (await publish(g, work.id)).body;
    await patch(g, work.id, {
      title: "Throw me away",
      artists: [{ artist_id: sculptor }],
      dimensions: [],
      metadata: { k: "v" },
    });
    const after = await discard(g, work.id);
    expect(after).toEqual({ ...live, updated_at: after.updated_at });
    expect(await workingCopy(g, work.id)).toEqual(after);
    expect(await getArtwork(g, work.id)).toEqual(after);
    expect(await eventTypes(g, work.id)).toEqual([
      "artwork.created",
      "artwork.published",
      "artwork.draft_updated",
      "artwork.draft_discarded",
    ]);
    const timeline = await activity(work.id);
    expect(timeline.map((a) => a.event_type)).toEqual(["created", "published", "draft_discarded"]);
    expect((timeline[2]!.metadata.discarded as string[]).sort()).toEqual([
      "artists",
      "dimensions",
      "metadata",
      "title",
    ]);
  });

  it("edit again, then publish: the changes go live as version 2 with their events and timeline", async () => {
    const work = await create(g, { title: "Two versions", price_cents: 1000, currency: "EUR" });
    await publish(g, work.id);
    await patch(g, work.id, { title: "Throwaway" });
    await discard(g, work.id);
    await patch(g, work.id, { price_cents: 1500, artists: [{ artist_id: sculptor }], year: 1999 });
    const draft = await workingCopy(g, work.id);
    const { body: live } = await publish(g, work.id);
    expect(live).toEqual({
      ...draft,
      save_state: "published",
      published_version: 2,
      published_at: live.published_at,
      updated_at: live.updated_at,
    });
    expect(await workingCopy(g, work.id)).toEqual(live);

    const events = (await outboxEvents(g.id)).filter((e) => e.resource_id === work.id);
    const last = events.slice(-3);
    // One transaction records all three: they share its timestamp, so their order is not asserted.
    expect(last.map((e) => e.type).sort()).toEqual([
      "artwork.price_changed",
      "artwork.published",
      "artwork.updated",
    ]);
    expect(last.find((e) => e.type === "artwork.updated")!.data).toMatchObject({
      object: live,
      previous_attributes: { price_cents: 1000, year: null, artists: [] },
    });
    expect(last.find((e) => e.type === "artwork.price_changed")!.data).toMatchObject({
      previous_attributes: { price_cents: 1000, currency: "EUR" },
    });
    expect(last.find((e) => e.type === "artwork.published")!.data).toEqual({ object: live });
    const timeline = (await activity(work.id)).map((a) => a.event_type);
    expect(timeline.slice(-2).sort()).toEqual(["price_changed", "published"]);
    expect((await versions(work.id)).map((v) => v.version)).toEqual([1, 2]);
  });

  it("publishing with nothing pending, and discarding without a draft, change nothing and emit nothing", async () => {
    const work = await create(g, { title: "Steady" });
    const { body: live } = await publish(g, work.id);
    const before = await eventTypes(g, work.id);
    expect(await publish(g, work.id).then((r) => r.body)).toEqual(live);
    expect(await discard(g, work.id)).toEqual(live);
    expect(await eventTypes(g, work.id)).toEqual(before);
    expect((await versions(work.id)).map((v) => v.version)).toEqual([1]);
  });

  it("a retried publish replays the first answer and publishes once", async () => {
    const work = await create(g, { title: "Retried" });
    const headers = { "idempotency-key": `publish-${work.id}` };
    const first = await publish(g, work.id, headers);
    const again = await publish(g, work.id, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((await versions(work.id)).map((v) => v.version)).toEqual([1]);
  });

  it("the working copy keeps the rules: end_year against the draft's year, not the live one", async () => {
    const work = await create(g, { title: "Dated", year: 1900, end_year: 1910 });
    await publish(g, work.id);
    await patch(g, work.id, { year: 1950, end_year: 1960 });
    const res = await patch(g, work.id, { end_year: 1940 });
    expect(res.status).toBe(400);
    expect((await readJson(Artwork, await patch(g, work.id, { end_year: 1955 }))).end_year).toBe(1955);
    expect((await getArtwork(g, work.id)).end_year).toBe(1910);
  });
});
