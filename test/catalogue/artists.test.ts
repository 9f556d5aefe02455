import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Artwork } from "../../lib/schemas/artworks";
import { Artist } from "../../lib/schemas/catalogue";
import { seedDraft } from "../artworks/helpers";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { created, createdArtwork, eventsOfType, ISO_MS, listedIds } from "./helpers";

/** The artists of the catalogue: create, list, retrieve, update, delete. */

const BASE = "/gallery/artists";

function artist(g: TestGallery, body: Record<string, unknown>) {
  return created(Artist, g, BASE, body);
}

describe("POST /gallery/artists", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("creates an artist with every field, the name trimmed, and emits artist.created", async () => {
    const body = await artist(g, {
      name: "  Hilma af Klint ",
      birth_year: 1862,
      death_year: 1944,
      nationality: "Swedish",
      bio: "Painter and mystic.",
    });
    expect(body).toEqual({
      id: expect.stringMatching(/^artist_[0-9a-z]{26}$/),
      name: "Hilma af Klint",
      birth_year: 1862,
      death_year: 1944,
      nationality: "Swedish",
      bio: "Painter and mystic.",
      created_at: expect.stringMatching(ISO_MS),
      updated_at: body.created_at,
    });
    const get = await call("GET", `${BASE}/${body.id}`, { key: g.key });
    expect(await readJson(Artist, get)).toEqual(body);
    const events = await eventsOfType(g.id, "artist.created");
    expect(events.find((e) => e.resource_id === body.id)).toEqual({
      resource_id: body.id,
      resource_type: "artist",
      data: { object: body },
    });
  });

  it("takes a name alone; years may be negative (BCE) and equal", async () => {
    expect(await artist(g, { name: "Anonymous" })).toMatchObject({
      birth_year: null,
      death_year: null,
      nationality: null,
      bio: null,
    });
    expect(await artist(g, { name: "Workshop", birth_year: -480, death_year: -420 })).toMatchObject({
      birth_year: -480,
      death_year: -420,
    });
    expect(await artist(g, { name: "Brief", birth_year: 1900, death_year: 1900 })).toMatchObject({
      death_year: 1900,
    });
  });

  it.each([
    ["a missing name", { birth_year: 1900 }, "name"],
    ["a blank name", { name: "   " }, "name"],
    ["a name over 200 characters", { name: "x".repeat(201) }, "name"],
    ["a fractional birth year", { name: "x", birth_year: 1900.5 }, "birth_year"],
    ["a birth year as a string", { name: "x", birth_year: "1900" }, "birth_year"],
    ["a death year before the birth year", { name: "x", birth_year: 1900, death_year: 1899 }, "death_year"],
    ["a name with a control character", { name: "Tab\there" }, "name"],
    ["a nationality over 100 characters", { name: "x", nationality: "y".repeat(101) }, "nationality"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
  });
});

describe("GET /gallery/artists", () => {
  let g: TestGallery;
  let ids: { monet: string; cassatt: string; bonheur: string };
  beforeAll(async () => {
    const other = await createGallery();
    g = await createGallery();
    ids = {
      monet: (await artist(g, { name: "Claude Monet" })).id,
      cassatt: (await artist(g, { name: "Mary Cassatt" })).id,
      bonheur: (await artist(g, { name: "Rosa Bonheur" })).id,
    };
    await artist(other, { name: "Claude Elsewhere" });
  });

  it("lists newest first and pages with a cursor; never another gallery's artists", async () => {
    const first = await readJson(pageOf(Artist), await call("GET", `${BASE}?limit=2`, { key: g.key }));
    expect(first.data.map((a) => a.id)).toEqual([ids.bonheur, ids.cassatt]);
    const second = await readJson(
      pageOf(Artist),
      await call("GET", `${BASE}?limit=2&cursor=${first.next_cursor}`, { key: g.key }),
    );
    expect(second.data.map((a) => a.id)).toEqual([ids.monet]);
    expect(second.next_cursor).toBeNull();
  });

  it("sorts by name both ways, across pages", async () => {
    const asc = await readJson(
      pageOf(Artist),
      await call("GET", `${BASE}?sort=name&dir=asc&limit=2`, { key: g.key }),
    );
    expect(asc.data.map((a) => a.name)).toEqual(["Claude Monet", "Mary Cassatt"]);
    const rest = await listedIds(g, `${BASE}?sort=name&dir=asc&limit=2&cursor=${asc.next_cursor}`);
    expect(rest).toEqual([ids.bonheur]);
    expect(await listedIds(g, `${BASE}?sort=name`)).toEqual([ids.bonheur, ids.cassatt, ids.monet]);
  });

  it("pages by name through the longest names a cursor can carry", async () => {
    const g2 = await createGallery();
    // 200 characters of three UTF-8 bytes each: the largest sort key a name can be.
    const longest = ["\u4e00", "\u4e01", "\u4e02"].map((c) => c.repeat(200));
    const made = [];
    for (const name of longest) made.push((await artist(g2, { name })).id);
    const first = await readJson(
      pageOf(Artist),
      await call("GET", `${BASE}?sort=name&dir=asc&limit=1`, { key: g2.key }),
    );
    expect(first.next_cursor!.length).toBeLessThanOrEqual(1024);
    const rest = await listedIds(g2, `${BASE}?sort=name&dir=asc&cursor=${first.next_cursor}`);
    expect(new Set([first.data[0]!.id, ...rest])).toEqual(new Set(made));
    expect(rest).toHaveLength(2);
  });

  it("keeps the artists whose name contains q, ignoring case", async () => {
    expect(await listedIds(g, `${BASE}?q=CLAUDE`)).toEqual([ids.monet]);
    expect(await listedIds(g, `${BASE}?q=ss`)).toEqual([ids.cassatt]);
    expect(await listedIds(g, `${BASE}?q=${encodeURIComponent("%")}`)).toEqual([]);
    await expectProblem(await call("GET", `${BASE}?q=`, { key: g.key }), 400, "invalid_request", {
      field: "q",
    });
  });

  it("answers 404 for another gallery's artist or an unknown one; 400 for a malformed id", async () => {
    const other = await createGallery();
    const theirs = await artist(other, { name: "Theirs" });
    await expectProblem(await call("GET", `${BASE}/${theirs.id}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${newId("artist")}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/art_123`, { key: g.key }), 400, "invalid_request", {
      field: "id",
      location: "path",
    });
  });
});

describe("PATCH /gallery/artists/{id}", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("changes the fields sent and emits artist.updated with previous_attributes", async () => {
    const before = await artist(g, { name: "Berthe Morisot", nationality: "French", bio: "Old bio" });
    const response = await call("PATCH", `${BASE}/${before.id}`, {
      key: g.key,
      body: { birth_year: 1841, death_year: 1895, bio: null, nationality: "French" },
    });
    const after = await readJson(Artist, response);
    expect(response.status, JSON.stringify(after)).toBe(200);
    expect(after).toEqual({
      ...before,
      birth_year: 1841,
      death_year: 1895,
      bio: null,
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    const [event] = await eventsOfType(g.id, "artist.updated");
    expect(event?.data).toEqual({
      object: after,
      previous_attributes: { birth_year: null, death_year: null, bio: "Old bio" },
    });
  });

  it("writes and emits nothing for a patch that changes nothing", async () => {
    const g2 = await createGallery();
    const before = await artist(g2, { name: "Same", birth_year: 1900 });
    const response = await call("PATCH", `${BASE}/${before.id}`, {
      key: g2.key,
      body: { name: " Same ", birth_year: 1900 },
    });
    expect(await readJson(Artist, response)).toEqual(before);
    expect(await eventsOfType(g2.id, "artist.updated")).toEqual([]);
  });

  it("checks the life span against the stored years, naming the field sent", async () => {
    const a = await artist(g, { name: "Span", birth_year: 1900, death_year: 1950 });
    await expectProblem(
      await call("PATCH", `${BASE}/${a.id}`, { key: g.key, body: { death_year: 1899 } }),
      400,
      "invalid_request",
      { field: "death_year", location: "body" },
    );
    await expectProblem(
      await call("PATCH", `${BASE}/${a.id}`, { key: g.key, body: { birth_year: 1951 } }),
      400,
      "invalid_request",
      { field: "birth_year", location: "body" },
    );
    const cleared = await call("PATCH", `${BASE}/${a.id}`, {
      key: g.key,
      body: { death_year: null, birth_year: 1960 },
    });
    expect(await readJson(Artist, cleared)).toMatchObject({ birth_year: 1960, death_year: null });
    await expectProblem(
      await call("PATCH", `${BASE}/${a.id}`, { key: g.key, body: { name: "" } }),
      400,
      "invalid_request",
      { field: "name", location: "body" },
    );
  });

  it("shows a new name on the works crediting the artist, in lists and search", async () => {
    const a = await artist(g, { name: "Old Name" });
    const work = await createdArtwork(g, { artists: [{ artist_id: a.id, role: "primary" }] });
    expect(work.artist_name).toBe("Old Name");
    await call("PATCH", `${BASE}/${a.id}`, { key: g.key, body: { name: "New Name" } });
    const listed = await readJson(
      pageOf(Artwork),
      await call("GET", `/gallery/artworks?ids=${work.id}`, { key: g.key }),
    );
    expect(listed.data[0]).toMatchObject({
      artist_name: "New Name",
      artists: [{ artist_id: a.id, artist_name: "New Name" }],
    });
    expect(await listedIds(g, "/gallery/artworks?q=new%20name")).toEqual([work.id]);
  });

  it("answers 404 for another gallery's artist", async () => {
    const other = await createGallery();
    const theirs = await artist(other, { name: "Theirs" });
    await expectProblem(
      await call("PATCH", `${BASE}/${theirs.id}`, { key: g.key, body: { name: "Mine" } }),
      404,
      "not_found",
    );
  });
});

describe("DELETE /gallery/artists/{id}", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("deletes an uncredited artist, emits artist.deleted with their last state, and replays a retry", async () => {
    const a = await artist(g, { name: "Gone", birth_year: 1800 });
    const headers = { "Idempotency-Key": `delete-${crypto.randomUUID()}` };
    const response = await call("DELETE", `${BASE}/${a.id}`, { key: g.key, headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: a.id, deleted: true });
    await expectProblem(await call("GET", `${BASE}/${a.id}`, { key: g.key }), 404, "not_found");
    const [event] = await eventsOfType(g.id, "artist.deleted");
    expect(event).toEqual({ resource_id: a.id, resource_type: "artist", data: { object: a } });
    const retry = await call("DELETE", `${BASE}/${a.id}`, { key: g.key, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    await expectProblem(await call("DELETE", `${BASE}/${a.id}`, { key: g.key }), 404, "not_found");
  });

  it("refuses while works credit the artist (409 with the count), and deletes once the credits are gone", async () => {
    const a = await artist(g, { name: "Credited" });
    const other = await artist(g, { name: "Other" });
    const first = await createdArtwork(g, { artists: [{ artist_id: a.id, role: "primary" }] });
    const second = await createdArtwork(g, {
      artists: [
        { artist_id: other.id, role: "primary" },
        { artist_id: a.id, role: "collaborator" },
      ],
    });
    const problem = await expectProblem(
      await call("DELETE", `${BASE}/${a.id}`, { key: g.key }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ artwork_count: 2 });
    expect(problem.detail).toContain("2 artwork(s)");
    expect((await call("GET", `${BASE}/${a.id}`, { key: g.key })).status).toBe(200);
    expect(await eventsOfType(g.id, "artist.deleted")).not.toContainEqual(
      expect.objectContaining({ resource_id: a.id }),
    );

    for (const work of [first, second]) {
      await call("PATCH", `/gallery/artworks/${work.id}`, {
        key: g.key,
        body: {
          artists: work.artists
            .filter((c) => c.artist_id !== a.id)
            .map(({ artist_id, role }) => ({ artist_id, role })),
        },
      });
    }
    const response = await call("DELETE", `${BASE}/${a.id}`, { key: g.key });
    expect(await response.json()).toEqual({ id: a.id, deleted: true });
  });

  it("refuses while a pending draft credits the artist", async () => {
    const a = await artist(g, { name: "Drafted" });
    const work = await createdArtwork(g, {});
    await seedDraft(g.id, work.id, { artists: [{ artist_id: a.id, role: "primary" }] });
    const problem = await expectProblem(
      await call("DELETE", `${BASE}/${a.id}`, { key: g.key }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ artwork_count: 1 });
  });
});
