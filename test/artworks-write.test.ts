import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertRow } from "../db/queries/rows";
import { sha256Hex } from "../lib/crypto";
import { idempotencyCacheKey } from "../lib/idempotency";
import { newId } from "../lib/ids";
import { Artwork } from "../lib/schemas/artworks";
import {
  countRows,
  creditArtist,
  expectProblem,
  listedIds,
  outboxEvents,
  seedArtist,
  seedTag,
} from "./helpers/artworks";
import { call, createGallery, db, json, type TestGallery } from "./helpers/gallery";

type ArtworkBody = Record<string, unknown> & { id: string; updated_at: string; created_at: string };

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function create(g: TestGallery, body: unknown, headers: Record<string, string> = {}) {
  const res = await call("POST", "/gallery/artworks", { key: g.key, body, headers });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text) as ArtworkBody;
}

async function getArtwork(g: TestGallery, id: string): Promise<ArtworkBody> {
  const res = await call("GET", `/gallery/artworks/${id}`, { key: g.key });
  expect(res.status).toBe(200);
  return json<ArtworkBody>(res);
}

async function patch(g: TestGallery, id: string, body: unknown, headers: Record<string, string> = {}) {
  return call("PATCH", `/gallery/artworks/${id}`, { key: g.key, body, headers });
}

async function activity(artworkId: string) {
  const result = await db().execute<{
    id: string;
    event_type: string;
    summary: string;
    metadata: Record<string, unknown>;
    actor_id: string;
  }>(
    sql`select id, event_type, summary, metadata, actor_id from artwork_activity_events
      where artwork_id = ${artworkId} order by occurred_at, event_type`,
  );
  return result.rows;
}

/**
 * Drops the edge (KV) copy of an idempotent response, leaving only the Postgres claim. The copy is written in
 * waitUntil after the response, so first wait for that write to land (each probe is a KV read, not a sleep).
 */
async function forgetCachedResponse(galleryId: string, key: string): Promise<void> {
  const cacheKey = await idempotencyCacheKey(galleryId, key);
  let found = false;
  for (let i = 0; i < 500 && !found; i++) found = (await env.IDEMPOTENCY_CACHE.get(cacheKey)) !== null;
  expect(found, "the response was never cached at the edge").toBe(true);
  await env.IDEMPOTENCY_CACHE.delete(cacheKey);
  expect(await env.IDEMPOTENCY_CACHE.get(cacheKey)).toBeNull();
}

async function keyId(key: string): Promise<string> {
  const result = await db().execute<{ id: string }>(
    sql`select id from api_keys where key_hash = ${await sha256Hex(key)}`,
  );
  return result.rows[0]!.id;
}

const DEFAULTS = {
  artist_id: null,
  artist_name: null,
  thumbnail_url: null,
  inventory_number: null,
  artists: [],
  dimensions: [],
  ownership_status: "owned",
  availability_state: "available",
  medium: null,
  year: null,
  end_year: null,
  date_precision: "year",
  date_display: null,
  description: null,
  dimension_unit: "in",
  height_cm: null,
  width_cm: null,
  depth_cm: null,
  framed_height_cm: null,
  framed_width_cm: null,
  framed_depth_cm: null,
  dimensions_text: null,
  location_id: null,
  price_cents: null,
  currency: "USD",
  is_edition: false,
  edition_number: null,
  edition_size: null,
  edition_type: null,
  edition_overrides: [],
  parent_artwork_id: null,
  coa_status: "not_required",
  coa_tracking_number: null,
  condition_status: null,
  condition_notes: null,
  provenance: null,
  exhibition_history: null,
  literature: null,
  catalogue_raisonne: null,
  market: "primary",
  custom_status_id: null,
  show_price_publicly: false,
  published_at: null,
  published_version: null,
  save_state: "new",
  source_system: null,
  source_external_id: null,
  formats: [],
  metadata: {},
};

describe("POST /gallery/artworks", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("creates with defaults; the response equals a following GET and the list item", async () => {
    const res = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Untitled (Blue)" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    const body = await json<ArtworkBody>(res);
    expect(body).toEqual({
      ...DEFAULTS,
      id: expect.stringMatching(/^art_[0-9a-z]{26}$/),
      title: "Untitled (Blue)",
      created_at: expect.stringMatching(ISO_MS),
      updated_at: body.created_at,
    });
    // Exactly the documented fields, no more.
    expect(Object.keys(body).sort()).toEqual(Object.keys(Artwork.shape).sort());
    expect(Artwork.strict().safeParse(body).success).toBe(true);
    expect(await getArtwork(g, body.id)).toEqual(body);
    const list = await call("GET", `/gallery/artworks?ids=${body.id}`, { key: g.key });
    expect(((await list.json()) as { data: unknown[] }).data).toEqual([body]);
  });

  it("stores every writable field as sent", async () => {
    const body = {
      title: "  Full  ",
      inventory_number: "INV-1",
      ownership_status: "consigned",
      availability_state: "on_hold",
      medium: "Oil on linen",
      year: -500,
      end_year: -450,
      date_precision: "circa",
      date_display: "c. 500 BC",
      description: "A description",
      dimension_unit: "cm",
      height_cm: 10.5,
      width_cm: 20,
      depth_cm: 0,
      framed_height_cm: 12,
      framed_width_cm: 22,
      framed_depth_cm: 3,
      dimensions_text: "10.5 × 20 cm",
      price_cents: 9007199254740991,
      currency: "EUR",
      is_edition: true,
      edition_number: 3,
      edition_size: 10,
      edition_type: "numbered",
      edition_overrides: ["signed", "framed"],
      coa_status: "issued",
      coa_tracking_number: "COA-9",
      condition_status: "very_good",
      condition_notes: "Minor wear",
      provenance: "Private collection",
      exhibition_history: "None",
      literature: "Catalogue, p. 3",
      catalogue_raisonne: "CR 12",
      market: "secondary",
      show_price_publicly: true,
      metadata: { source: "import", batch: "7" },
      source_system: "legacy",
      source_external_id: "L-1",
    };
    const created = await create(g, body);
    const { title: _title, ...rest } = body;
    expect(created).toMatchObject({ ...rest, title: "Full" });
    expect(await getArtwork(g, created.id)).toEqual(created);
  });

  it("credits artists in order, derives artist_id/name from the first primary one, stores dimensions and tags", async () => {
    const monet = await seedArtist(g.id, "Claude Monet");
    const renoir = await seedArtist(g.id, "Pierre-Auguste Renoir");
    const tag = await seedTag(g.id, "Impressionism");
    const created = await create(g, {
      title: "Joint work",
      artists: [{ artist_id: renoir, role: "collaborator" }, { artist_id: monet }],
      dimensions: [{ height_cm: 10 }, { component: "frame", label: "Frame", width_cm: 5, note: "gilt" }],
      tag_ids: [tag],
    });
    expect(created.artist_id).toBe(monet);
    expect(created.artist_name).toBe("Claude Monet");
    expect(created.artists).toEqual([
      { artist_id: renoir, role: "collaborator", position: 0, artist_name: "Pierre-Auguste Renoir" },
      { artist_id: monet, role: "primary", position: 1, artist_name: "Claude Monet" },
    ]);
    expect(created.dimensions).toEqual([
      {
        component: "overall",
        label: null,
        height_cm: 10,
        width_cm: null,
        depth_cm: null,
        position: 0,
        note: null,
      },
      {
        component: "frame",
        label: "Frame",
        height_cm: null,
        width_cm: 5,
        depth_cm: null,
        position: 1,
        note: "gilt",
      },
    ]);
    expect(await listedIds(g.key, `tag_id=${tag}`)).toEqual([created.id]);
    expect(await listedIds(g.key, `artist_id=${renoir}`)).toEqual([created.id]);
    expect(await listedIds(g.key, "q=monet%20joint")).toEqual([created.id]);
  });

  it("writes the artwork.created event and a `created` activity entry in the same change", async () => {
    const fresh = await createGallery();
    const created = await create(fresh, { title: "Evented", price_cents: 500 });
    const events = await outboxEvents(fresh.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "artwork.created",
      resource_id: created.id,
      data: { object: created },
    });
    const rows = await activity(created.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: expect.stringMatching(UUID),
      event_type: "created",
      summary: "Added “Evented”",
      metadata: {},
      actor_id: await keyId(fresh.key),
    });
  });
});

describe("POST /gallery/artworks: invalid requests change nothing", () => {
  let g: TestGallery;
  let other: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
    other = await createGallery();
  });

  const invalidBodies: [string, unknown, string][] = [
    ["missing title", {}, "title"],
    ["blank title", { title: "   " }, "title"],
    ["title of 501 chars", { title: "t".repeat(501) }, "title"],
    ["title not a string", { title: 123 }, "title"],
    ["unknown field", { title: "x", colour: "blue" }, "colour"],
    ["read-only field", { title: "x", created_at: "2024-01-01T00:00:00Z" }, "created_at"],
    ["id is not writable", { title: "x", id: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }, "id"],
    [
      "nested unknown field",
      { title: "x", dimensions: [{ height_cm: 1, colour: "red" }] },
      "dimensions.0.colour",
    ],
    ["price as a string", { title: "x", price_cents: "100" }, "price_cents"],
    ["fractional price", { title: "x", price_cents: 1.5 }, "price_cents"],
    ["negative price", { title: "x", price_cents: -1 }, "price_cents"],
    ["unsafe price", { title: "x", price_cents: 9007199254740992 }, "price_cents"],
    ["year as a string", { title: "x", year: "1900" }, "year"],
    ["fractional year", { title: "x", year: 1900.5 }, "year"],
    ["boolean as a string", { title: "x", is_edition: "yes" }, "is_edition"],
    ["unknown availability", { title: "x", availability_state: "bogus" }, "availability_state"],
    ["lower-case currency", { title: "x", currency: "usd" }, "currency"],
    ["negative height", { title: "x", height_cm: -1 }, "height_cm"],
    ["non-string metadata value", { title: "x", metadata: { a: 1 } }, "metadata.a"],
    ["malformed artist id", { title: "x", artists: [{ artist_id: "monet" }] }, "artists.0.artist_id"],
    ["end_year before year", { title: "x", year: 1900, end_year: 1899 }, "end_year"],
    [
      "a duplicated tag",
      { title: "x", tag_ids: ["tag_01jd4xk9v2c7h8m3n5p6q7r8s9", "tag_01jd4xk9v2c7h8m3n5p6q7r8s9"] },
      "tag_ids",
    ],
    ["body is an array", [{ title: "x" }], "(root)"],
  ];

  it.each(invalidBodies)("%s → 400 naming the field", async (_label, body, field) => {
    const res = await call("POST", "/gallery/artworks", { key: g.key, body });
    const problem = await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect(problem.detail).toContain(`\`${field}\``);
  });

  it("names an unknown field as unknown and a missing one as required", async () => {
    const unknown = await call("POST", "/gallery/artworks", {
      key: g.key,
      body: { title: "x", colour: "blue" },
    });
    expect((await expectProblem(unknown, 400, "invalid_request")).details).toEqual([
      { location: "body", field: "colour", message: "is not a known field" },
    ]);
    const missing = await call("POST", "/gallery/artworks", { key: g.key, body: {} });
    expect((await expectProblem(missing, 400, "invalid_request")).details).toEqual([
      { location: "body", field: "title", message: "is required" },
    ]);
  });

  it("a value of the wrong type is reported as such, not as missing", async () => {
    const res = await call("POST", "/gallery/artworks", {
      key: g.key,
      body: { title: "x", price_cents: "100" },
    });
    const problem = await expectProblem(res, 400, "invalid_request", {
      field: "price_cents",
      location: "body",
    });
    expect(problem.details![0]!.message).not.toBe("is required");
    expect(problem.details![0]!.message).toMatch(/number/);
  });

  it("end_year equal to year is fine", async () => {
    const created = await create(other, { title: "Same year", year: 1900, end_year: 1900 });
    expect([created.year, created.end_year]).toEqual([1900, 1900]);
  });

  it("a body that is not JSON → 400 invalid_request", async () => {
    for (const rawBody of ["{", '{"title": }', "title=x", ""]) {
      const res = await call("POST", "/gallery/artworks", {
        key: g.key,
        rawBody,
        headers: { "content-type": "application/json" },
      });
      await expectProblem(res, 400, "invalid_request");
    }
  });

  it("a body that is not sent as JSON → 415 unsupported_media_type", async () => {
    for (const contentType of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await call("POST", "/gallery/artworks", {
        key: g.key,
        rawBody: JSON.stringify({ title: "x" }),
        headers: { "content-type": contentType },
      });
      await expectProblem(res, 415, "unsupported_media_type");
    }
    const noType = await call("POST", "/gallery/artworks", {
      key: g.key,
      rawBody: JSON.stringify({ title: "x" }),
    });
    await expectProblem(noType, 415, "unsupported_media_type");
  });

  it("references to another gallery's artist, tag or location, or to unknown ones → 400", async () => {
    const foreignArtist = await seedArtist(other.id, "Foreign");
    const foreignTag = await seedTag(other.id, "Foreign");
    const foreignLocation = newId("loc");
    await db().execute(insertRow("locations", { id: foreignLocation, gallery_id: other.id, name: "Vault" }));
    const bodies = [
      { title: "x", artists: [{ artist_id: foreignArtist }] },
      { title: "x", artists: [{ artist_id: newId("artist") }] },
      { title: "x", tag_ids: [foreignTag] },
      { title: "x", location_id: foreignLocation },
      { title: "x", parent_artwork_id: newId("art") },
    ];
    for (const body of bodies) {
      const res = await call("POST", "/gallery/artworks", { key: g.key, body });
      const problem = await expectProblem(res, 400, "invalid_request");
      expect(problem.detail).toMatch(/does not exist in this gallery/);
    }
  });

  it("after all of the above, the gallery holds no artwork and no event", async () => {
    expect(await countRows("artworks", g.id)).toBe(0);
    expect(await outboxEvents(g.id)).toEqual([]);
    expect(await countRows("idempotency_keys", g.id)).toBe(0);
  });

  it("needs the artworks:create scope", async () => {
    const readOnly = await g.keyWith(["artworks:read", "artists:read"]);
    const res = await call("POST", "/gallery/artworks", { key: readOnly, body: { title: "x" } });
    const problem = await expectProblem(res, 403, "forbidden");
    expect(problem.details).toMatchObject({ missing_scopes: ["artworks:create"] });
  });
});

describe("GET /gallery/artworks/{id}", () => {
  it("404 for an unknown id and for another gallery's id, alike", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const theirs = await create(other, { title: "Theirs" });
    const unknown = await expectProblem(
      await call("GET", `/gallery/artworks/${newId("art")}`, { key: g.key }),
      404,
      "not_found",
    );
    const foreign = await expectProblem(
      await call("GET", `/gallery/artworks/${theirs.id}`, { key: g.key }),
      404,
      "not_found",
    );
    expect(foreign.title).toBe(unknown.title);
    expect(foreign.detail).toBe(`No artwork ${theirs.id} in this gallery.`);
    // Nor can it be changed or deleted from the wrong gallery.
    await expectProblem(await patch(g, theirs.id, { title: "Mine" }), 404, "not_found");
    await expectProblem(
      await call("DELETE", `/gallery/artworks/${theirs.id}`, { key: g.key }),
      404,
      "not_found",
    );
    expect(await getArtwork(other, theirs.id)).toEqual(theirs);
    expect(await outboxEvents(g.id)).toEqual([]);
  });

  it("400 for a malformed id", async () => {
    const g = await createGallery();
    await expectProblem(
      await call("GET", "/gallery/artworks/not-an-id", { key: g.key }),
      400,
      "invalid_request",
      {
        field: "id",
        location: "path",
      },
    );
  });
});

describe("PATCH /gallery/artworks/{id}", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("changes only the fields sent and emits artwork.updated with previous_attributes", async () => {
    const before = await create(g, { title: "Before", price_cents: 1000, medium: "Oil", year: 1990 });
    const res = await patch(g, before.id, { title: "After", medium: null });
    expect(res.status).toBe(200);
    const after = await json<ArtworkBody>(res);
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
    const work = await create(g, { title: "Priced", price_cents: 1000 });
    const priced = await json<ArtworkBody>(await patch(g, work.id, { price_cents: 2000 }));
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
      summary: "Price changed",
      metadata: { from: { price_cents: 1000, currency: "USD" }, to: { price_cents: 2000, currency: "USD" } },
    });

    const inEuro = await json<ArtworkBody>(await patch(g, work.id, { currency: "EUR" }));
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
    const work = await create(g, { title: "Still", price_cents: 300, metadata: { a: "b", c: "d" } });
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
    for (const id of [from, to]) {
      await db().execute(insertRow("locations", { id, gallery_id: g.id, name: id }));
    }
    const work = await create(g, { title: "Traveller", location_id: from });
    const moved = await json<ArtworkBody>(await patch(g, work.id, { location_id: to }));
    expect(moved.location_id).toBe(to);
    const rows = await activity(work.id);
    expect(rows.map((a) => a.event_type)).toEqual(["created", "moved"]);
    expect(rows[1]).toMatchObject({ summary: "Location changed", metadata: { from, to } });
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
    const after = await json<ArtworkBody>(res);
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
    const cleared = await json<ArtworkBody>(await patch(g, work.id, { artists: [] }));
    expect([cleared.artist_id, cleared.artist_name, cleared.artists]).toEqual([null, null, []]);
  });

  it("refuses references to another gallery's artist, tag or location", async () => {
    const other = await createGallery();
    const foreignArtist = await seedArtist(other.id, "Foreign");
    const foreignTag = await seedTag(other.id, "Foreign");
    const foreignLocation = newId("loc");
    await db().execute(insertRow("locations", { id: foreignLocation, gallery_id: other.id, name: "Vault" }));
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
    const ok = await json<ArtworkBody>(await patch(g, work.id, { end_year: 1905 }));
    expect([ok.year, ok.end_year]).toEqual([1900, 1905]);
    expect(await json<ArtworkBody>(await patch(g, work.id, { year: 1905 }))).toMatchObject({ year: 1905 });
    await expectProblem(await patch(g, work.id, { year: 1906 }), 400, "invalid_request", {
      field: "end_year",
      location: "body",
    });
  });

  it("404 for an unknown artwork", async () => {
    await expectProblem(await patch(g, newId("art"), { title: "x" }), 404, "not_found");
  });
});

describe("DELETE /gallery/artworks/{id}", () => {
  it("deletes, answers {id, deleted: true}, emits artwork.deleted with the last state, and takes the timeline along", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Doomed", price_cents: 10 });
    await patch(g, work.id, { price_cents: 20 });
    const last = await getArtwork(g, work.id);
    expect((await activity(work.id)).length).toBe(2);

    const res = await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: work.id, deleted: true });

    await expectProblem(await call("GET", `/gallery/artworks/${work.id}`, { key: g.key }), 404, "not_found");
    await expectProblem(
      await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key }),
      404,
      "not_found",
    );
    expect(await listedIds(g.key, "")).toEqual([]);
    expect(await countRows("artworks", g.id)).toBe(0);
    expect(await activity(work.id)).toEqual([]);

    const events = await outboxEvents(g.id);
    expect(events.map((e) => e.type).filter((t) => t === "artwork.deleted")).toHaveLength(1);
    const deleted = events.find((e) => e.type === "artwork.deleted")!;
    expect(deleted.resource_id).toBe(work.id);
    expect(deleted.data).toEqual({ object: last });
  });
});

describe("Idempotency-Key", () => {
  it("same key and body: the stored response replayed with Idempotent-Replayed: true; one artwork, one event", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "create-once-1" };
    const first = await call("POST", "/gallery/artworks", {
      key: g.key,
      body: { title: "Once", price_cents: 1 },
      headers,
    });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const firstBody = await first.json();
    for (let i = 0; i < 2; i++) {
      const again = await call("POST", "/gallery/artworks", {
        key: g.key,
        // Same JSON with its keys in another order is the same request.
        body: i === 0 ? { title: "Once", price_cents: 1 } : { price_cents: 1, title: "Once" },
        headers,
      });
      expect(again.status).toBe(201);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(again.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await again.json()).toEqual(firstBody);
    }
    expect(await countRows("artworks", g.id)).toBe(1);
    expect((await outboxEvents(g.id)).map((e) => e.type)).toEqual(["artwork.created"]);
    expect(await countRows("idempotency_keys", g.id)).toBe(1);
  });

  it("replays from the database when the edge cache does not have the response", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "create-db-replay" };
    const first = await create(g, { title: "Db replay" }, headers);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("POST", "/gallery/artworks", {
      key: g.key,
      body: { title: "Db replay" },
      headers,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    expect(await countRows("artworks", g.id)).toBe(1);
    const reused = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Other" }, headers });
    await expectProblem(reused, 400, "idempotency_key_reused");
  });

  it("same key, different body → 400 idempotency_key_reused, nothing written", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "reuse-me" };
    await create(g, { title: "First" }, headers);
    const res = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Second" }, headers });
    const problem = await expectProblem(res, 400, "idempotency_key_reused", {
      field: "Idempotency-Key",
      location: "header",
    });
    expect(problem.retry).toBe("permanent");
    expect(await countRows("artworks", g.id)).toBe(1);
    expect(await outboxEvents(g.id)).toHaveLength(1);
  });

  it("the same key on another operation is a reuse too", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "cross-op" };
    const work = await create(g, { title: "Target" }, headers);
    const res = await patch(g, work.id, { title: "Target" }, headers);
    await expectProblem(res, 400, "idempotency_key_reused");
  });

  it("a request that fails validation does not consume its key", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "after-a-400" };
    await expectProblem(
      await call("POST", "/gallery/artworks", { key: g.key, body: {}, headers }),
      400,
      "invalid_request",
    );
    const res = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Valid" }, headers });
    expect(res.status).toBe(201);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("rejects a malformed key", async () => {
    const g = await createGallery();
    for (const key of ["has space", "x".repeat(256), "ключ"]) {
      const res = await call("POST", "/gallery/artworks", {
        key: g.key,
        body: { title: "x" },
        headers: { "Idempotency-Key": key },
      });
      await expectProblem(res, 400, "invalid_request", { field: "Idempotency-Key", location: "header" });
    }
    expect(await countRows("artworks", g.id)).toBe(0);
  });

  it("50 concurrent identical POSTs with one key: one artwork, one event, fifty 201s with the same id", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "stampede" };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        call("POST", "/gallery/artworks", {
          key: g.key,
          body: { title: "Stampede", price_cents: 42 },
          headers,
        }),
      ),
    );
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(
      responses.map((r) => r.status),
      bodies.find((b) => !b.includes("art_")),
    ).toEqual(Array(50).fill(201));
    const ids = new Set(bodies.map((b) => (JSON.parse(b) as { id: string }).id));
    expect(ids.size).toBe(1);
    expect(new Set(bodies.map((b) => JSON.stringify(JSON.parse(b)))).size).toBe(1);
    expect(responses.filter((r) => r.headers.get("Idempotent-Replayed") === "true")).toHaveLength(49);
    expect(await countRows("artworks", g.id)).toBe(1);
    const events = await outboxEvents(g.id);
    expect(events.map((e) => [e.type, e.resource_id])).toEqual([["artwork.created", [...ids][0]]]);
    expect(await activity([...ids][0]!)).toHaveLength(1);
  });

  it("keys are per gallery: another gallery may use the same key for its own request", async () => {
    const g1 = await createGallery();
    const g2 = await createGallery();
    const headers = { "Idempotency-Key": "shared-key" };
    const one = await create(g1, { title: "Shared" }, headers);
    const res = await call("POST", "/gallery/artworks", { key: g2.key, body: { title: "Shared" }, headers });
    expect(res.status).toBe(201);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    const two = await json<ArtworkBody>(res);
    expect(two.id).not.toBe(one.id);
    expect(await countRows("artworks", g1.id)).toBe(1);
    expect(await countRows("artworks", g2.id)).toBe(1);
    expect(await getArtwork(g2, two.id)).toEqual(two);
  });

  it("PATCH and DELETE replay too", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Replayable", price_cents: 1 });
    const patchHeaders = { "Idempotency-Key": "patch-once" };
    const first = await patch(g, work.id, { price_cents: 2 }, patchHeaders);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    const again = await patch(g, work.id, { price_cents: 2 }, patchHeaders);
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "artwork.price_changed")).toHaveLength(1);

    const deleteHeaders = { "Idempotency-Key": "delete-once" };
    const del = await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key, headers: deleteHeaders });
    expect(del.status).toBe(200);
    const delAgain = await call("DELETE", `/gallery/artworks/${work.id}`, {
      key: g.key,
      headers: deleteHeaders,
    });
    expect(delAgain.status).toBe(200);
    expect(delAgain.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await delAgain.json()).toEqual({ id: work.id, deleted: true });
    expect((await outboxEvents(g.id)).filter((e) => e.type === "artwork.deleted")).toHaveLength(1);
  });
});

describe("Idempotency-Key replay of PATCH and DELETE from the database", () => {
  // The edge cache is only a fast path: after it loses a response, the Postgres claim must still answer.
  it("PATCH: a retry replays the stored response instead of re-running as a no-op", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Replayable", price_cents: 1 });
    const headers = { "Idempotency-Key": "patch-db-replay" };
    const first = await patch(g, work.id, { price_cents: 2 }, headers);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await patch(g, work.id, { price_cents: 2 }, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(firstBody);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("PATCH: the same key with a different body is refused even when the new body would be a no-op", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Replayable", price_cents: 1 });
    const headers = { "Idempotency-Key": "patch-db-reuse" };
    expect((await patch(g, work.id, { price_cents: 2 }, headers)).status).toBe(200);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    await expectProblem(
      await patch(g, work.id, { title: "Replayable" }, headers),
      400,
      "idempotency_key_reused",
    );
  });

  it("DELETE: a retry replays {id, deleted: true} instead of answering 404", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Doomed" });
    const headers = { "Idempotency-Key": "delete-db-replay" };
    expect((await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key, headers })).status).toBe(200);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key, headers });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id: work.id, deleted: true });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("DELETE: the key of a finished delete cannot be reused for another artwork, present or gone", async () => {
    const g = await createGallery();
    const first = await create(g, { title: "First" });
    const second = await create(g, { title: "Second" });
    const headers = { "Idempotency-Key": "delete-reuse" };
    expect((await call("DELETE", `/gallery/artworks/${first.id}`, { key: g.key, headers })).status).toBe(200);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    for (const target of [second.id, newId("art")]) {
      const res = await call("DELETE", `/gallery/artworks/${target}`, { key: g.key, headers });
      await expectProblem(res, 400, "idempotency_key_reused");
    }
    expect(await getArtwork(g, second.id)).toEqual(second);
  });

  it("DELETE of an artwork that never existed stays a 404 on every retry and consumes no key", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "delete-missing" };
    const missing = newId("art");
    for (let i = 0; i < 2; i++) {
      const res = await call("DELETE", `/gallery/artworks/${missing}`, { key: g.key, headers });
      await expectProblem(res, 404, "not_found");
    }
    expect(await countRows("idempotency_keys", g.id)).toBe(0);
  });

  it("PATCH: a keyed no-op is recorded like any write, so its retry replays it", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Unchanged" });
    const headers = { "Idempotency-Key": "noop-keyed" };
    const first = await patch(g, work.id, { title: "Unchanged" }, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await first.json()).toEqual(work);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await patch(g, work.id, { title: "Unchanged" }, headers);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(work);
    expect((await outboxEvents(g.id)).map((e) => e.type)).toEqual(["artwork.created"]);
  });
});

describe("artist credits in another gallery's artwork", () => {
  it("an artist credited only in another gallery does not match artist_id here", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const artist = await seedArtist(other.id, "Elsewhere");
    const theirs = await create(other, { title: "Theirs", artists: [{ artist_id: artist }] });
    await creditArtist(other.id, theirs.id, await seedArtist(other.id, "Second"), "studio", 1);
    expect(await listedIds(g.key, `artist_id=${artist}`)).toEqual([]);
    expect(await listedIds(other.key, `artist_id=${artist}`)).toEqual([theirs.id]);
  });
});
