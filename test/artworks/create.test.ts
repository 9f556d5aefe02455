import { beforeAll, describe, expect, it } from "vitest";
import { locations } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Artwork } from "../../lib/schemas/artworks";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { countRows, insertRow, outboxEvents } from "../helpers/seed";
import {
  activity,
  create,
  DEFAULTS,
  getArtwork,
  ISO_MS,
  keyId,
  listedIds,
  seedArtist,
  seedTag,
  UUID,
} from "./helpers";

/** POST /gallery/artworks: what a create stores and emits, and the requests it refuses. */

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
    const body = await readJson(Artwork, res);
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
    expect((await readJson(pageOf(Artwork), list)).data).toEqual([body]);
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
      edition_overrides: ["title", "medium"],
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
    const created = await create(fresh, { title: "Evented", price_cents: 500, currency: "USD" });
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
      summary: "Added “Evented” to the inventory.",
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
    await db().execute(insertRow(locations, { id: foreignLocation, gallery_id: other.id, name: "Vault" }));
    const bodies = [
      { title: "x", artists: [{ artist_id: foreignArtist }] },
      { title: "x", artists: [{ artist_id: newId("artist") }] },
      { title: "x", tag_ids: [foreignTag] },
      { title: "x", location_id: foreignLocation },
      { title: "x", is_edition: true, parent_artwork_id: newId("art") },
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
