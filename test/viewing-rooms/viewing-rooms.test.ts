import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { ViewingRoom } from "../../lib/schemas/viewing-rooms";
import { forgetCachedResponse } from "../artworks/helpers";
import { ISO_MS, memberSession, minutesFromNow, newArtwork } from "../contact-interactions/helpers";
import { call, createGallery, db, mintKey, readJson, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** Viewing rooms, managed: GET/POST /gallery/viewing-rooms, GET/PATCH/DELETE /gallery/viewing-rooms/{id}. */

type RoomBody = z.infer<typeof ViewingRoom>;

const BASE = "/gallery/viewing-rooms";

async function createRoom(
  g: TestGallery,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<RoomBody> {
  const res = await call("POST", BASE, { key: g.key, body, headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(ViewingRoom, res);
}

async function patchRoom(g: TestGallery, id: string, body: Record<string, unknown>): Promise<RoomBody> {
  const res = await call("PATCH", `${BASE}/${id}`, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(ViewingRoom, res);
}

/** A publication of `g`, written directly (its API is another group's). */
async function newPublication(g: TestGallery): Promise<string> {
  const id = newId("pub");
  await db().execute(
    sql`insert into publications (id, gallery_id, title, slug) values (${id}, ${g.id}, 'Catalogue', ${id})`,
  );
  return id;
}

describe("POST /gallery/viewing-rooms", () => {
  it("records every field, emits viewing_room.created and reads back the same", async () => {
    const g = await createGallery();
    const [a, b] = [await newArtwork(g, "One"), await newArtwork(g, "Two")];
    const publicationId = await newPublication(g);
    const room = await createRoom(g, {
      title: "Spring paintings",
      slug: "spring-2026",
      description: "New work.",
      visibility: "public",
      opens_at: "2024-02-29T10:00Z",
      closes_at: "2999-01-01T00:00:00.000Z",
      publication_id: publicationId,
      artworks: [{ artwork_id: b, show_price: true }, { artwork_id: a }],
    });
    expect(room).toEqual({
      id: expect.stringMatching(/^room_[0-9a-z]{26}$/),
      title: "Spring paintings",
      slug: "spring-2026",
      description: "New work.",
      visibility: "public",
      opens_at: "2024-02-29T10:00:00.000Z",
      closes_at: "2999-01-01T00:00:00.000Z",
      publication_id: publicationId,
      artworks: [
        { artwork_id: b, position: 0, show_price: true },
        { artwork_id: a, position: 1, show_price: false },
      ],
      is_open: true,
      published_at: room.created_at,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: room.created_at,
    });
    expect(Object.keys(room)).toEqual(Object.keys(ViewingRoom.shape));
    expect((await outboxEvents(g.id)).filter((e) => e.type.startsWith("viewing_room."))).toEqual([
      { id: expect.any(String), type: "viewing_room.created", resource_id: room.id, data: { object: room } },
    ]);
    const read = await call("GET", `${BASE}/${room.id}`, { key: g.key });
    expect(await readJson(ViewingRoom, read)).toEqual(room);
  });

  it("defaults: private, unpublished, open-ended, no works; the slug derived from the title", async () => {
    const g = await createGallery();
    const room = await createRoom(g, { title: "  Été à Paris: Œuvres sur papier!  " });
    expect(room).toMatchObject({
      title: "Été à Paris: Œuvres sur papier!",
      slug: "ete-a-paris-uvres-sur-papier",
      description: null,
      visibility: "private",
      opens_at: null,
      closes_at: null,
      publication_id: null,
      artworks: [],
      is_open: true,
      published_at: null,
    });
    expect((await createRoom(g, { title: "!!!" })).slug).toBe("room");
  });

  it("a derived slug takes the first free variant; a given slug that is taken is 409 naming the room", async () => {
    const g = await createGallery();
    const first = await createRoom(g, { title: "Winter" });
    const second = await createRoom(g, { title: "Winter" });
    const third = await createRoom(g, { title: "winter!" });
    expect([first.slug, second.slug, third.slug]).toEqual(["winter", "winter-2", "winter-3"]);
    const long = "x".repeat(100);
    const cut = await createRoom(g, { title: long });
    const cutAgain = await createRoom(g, { title: long });
    expect(cut.slug).toBe("x".repeat(80));
    expect(cutAgain.slug).toBe(`${"x".repeat(78)}-2`);

    const res = await call("POST", BASE, { key: g.key, body: { title: "Other", slug: "winter-2" } });
    const problem = await expectProblem(res, 409, "conflict");
    expect(problem.details).toEqual({ field: "slug", slug: "winter-2", viewing_room_id: second.id });
    expect(problem.detail).toContain(second.id);
    // Another gallery may use the same slug.
    const other = await createGallery();
    expect((await createRoom(other, { title: "Other", slug: "winter-2" })).slug).toBe("winter-2");
  });

  it("rejects bad input with a 400 naming the field", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const mine = await newArtwork(g);
    const theirs = await newArtwork(other);
    const cases: [Record<string, unknown>, string][] = [
      [{}, "title"],
      [{ title: "   " }, "title"],
      [{ title: "x".repeat(201) }, "title"],
      [{ title: "R", slug: "Upper" }, "slug"],
      [{ title: "R", slug: "-lead" }, "slug"],
      [{ title: "R", slug: "trail-" }, "slug"],
      [{ title: "R", slug: "a b" }, "slug"],
      [{ title: "R", slug: "" }, "slug"],
      [{ title: "R", slug: "a".repeat(81) }, "slug"],
      [{ title: "R", visibility: "hidden" }, "visibility"],
      [{ title: "R", opens_at: "2024-01-01T00:00:00+01:00" }, "opens_at"],
      [{ title: "R", opens_at: "2024-02-01T00:00Z", closes_at: "2024-02-01T00:00Z" }, "closes_at"],
      [{ title: "R", opens_at: "2024-02-02T00:00Z", closes_at: "2024-02-01T00:00Z" }, "closes_at"],
      [{ title: "R", publication_id: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }, "publication_id"],
      [{ title: "R", publication_id: newId("pub") }, "publication_id"],
      [{ title: "R", artworks: [{ artwork_id: mine }, { artwork_id: mine }] }, "artworks.1.artwork_id"],
      [{ title: "R", artworks: [{ artwork_id: mine }, { artwork_id: theirs }] }, "artworks.1.artwork_id"],
      [{ title: "R", artworks: [{ artwork_id: newId("art") }] }, "artworks.0.artwork_id"],
      [{ title: "R", artworks: [{ artwork_id: mine, position: 3 }] }, "artworks.0.position"],
      [{ title: "R", artworks: [{ artwork_id: mine, show_price: "yes" }] }, "artworks.0.show_price"],
      [{ title: "R", is_open: true }, "is_open"],
    ];
    for (const [body, field] of cases) {
      const res = await call("POST", BASE, { key: g.key, body });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    const tooMany = Array.from({ length: 201 }, () => ({ artwork_id: mine }));
    await expectProblem(
      await call("POST", BASE, { key: g.key, body: { title: "R", artworks: tooMany } }),
      400,
      "invalid_request",
      { field: "artworks", location: "body" },
    );
    expect((await outboxEvents(g.id)).filter((e) => e.type.startsWith("viewing_room."))).toEqual([]);
  });

  it("replays an idempotent create", async () => {
    const g = await createGallery();
    const key = `room-${crypto.randomUUID()}`;
    const first = await createRoom(g, { title: "Once" }, { "Idempotency-Key": key });
    await forgetCachedResponse(g.id, key);
    const again = await call("POST", BASE, {
      key: g.key,
      body: { title: "Once" },
      headers: { "Idempotency-Key": key },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await readJson(ViewingRoom, again)).toEqual(first);
    expect((await getPage(g.key, BASE)).data).toHaveLength(1);
  });
});

describe("PATCH /gallery/viewing-rooms/{id}", () => {
  it("changes fields, replaces the works and records previous_attributes", async () => {
    const g = await createGallery();
    const [a, b, c] = [await newArtwork(g, "A"), await newArtwork(g, "B"), await newArtwork(g, "C")];
    const room = await createRoom(g, { title: "Room", artworks: [{ artwork_id: a }, { artwork_id: b }] });
    const updated = await patchRoom(g, room.id, {
      title: "Room, second hang",
      description: "Rehung.",
      artworks: [{ artwork_id: c, show_price: true }, { artwork_id: a }],
    });
    expect(updated).toMatchObject({
      title: "Room, second hang",
      slug: "room",
      description: "Rehung.",
      artworks: [
        { artwork_id: c, position: 0, show_price: true },
        { artwork_id: a, position: 1, show_price: false },
      ],
    });
    expect(updated.updated_at > room.updated_at).toBe(true);
    const events = (await outboxEvents(g.id)).filter((e) => e.type === "viewing_room.updated");
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: "viewing_room.updated",
        resource_id: room.id,
        data: {
          object: updated,
          previous_attributes: { title: "Room", description: null, artworks: room.artworks },
        },
      },
    ]);
    // Emptying the works.
    expect((await patchRoom(g, room.id, { artworks: [] })).artworks).toEqual([]);
  });

  it("a request that changes nothing emits nothing", async () => {
    const g = await createGallery();
    const a = await newArtwork(g);
    const room = await createRoom(g, {
      title: "Same",
      opens_at: "2024-01-01T00:00:00Z",
      artworks: [{ artwork_id: a, show_price: false }],
    });
    const same = await patchRoom(g, room.id, {
      title: "Same",
      opens_at: "2024-01-01T00:00Z",
      artworks: [{ artwork_id: a }],
    });
    expect(same).toEqual(room);
    expect((await outboxEvents(g.id)).map((e) => e.type)).toEqual([
      "artwork.created",
      "viewing_room.created",
    ]);
  });

  it("published_at follows visibility: set on leaving private, kept between public and unlisted, cleared on private", async () => {
    const g = await createGallery();
    const room = await createRoom(g, { title: "Vis" });
    expect(room.published_at).toBeNull();
    const unlisted = await patchRoom(g, room.id, { visibility: "unlisted" });
    expect(unlisted.published_at).toBe(unlisted.updated_at);
    const pub = await patchRoom(g, room.id, { visibility: "public" });
    expect(pub.published_at).toBe(unlisted.published_at);
    const priv = await patchRoom(g, room.id, { visibility: "private" });
    expect(priv.published_at).toBeNull();
    const updates = (await outboxEvents(g.id)).filter((e) => e.type === "viewing_room.updated");
    expect(updates.map((e) => e.data.previous_attributes)).toEqual([
      { visibility: "private", published_at: null },
      { visibility: "unlisted" },
      { visibility: "public", published_at: unlisted.published_at },
    ]);
  });

  it("checks the open and close times against the stored ones, naming the bound the request gave", async () => {
    const g = await createGallery();
    const room = await createRoom(g, {
      title: "Times",
      opens_at: "2024-03-01T00:00Z",
      closes_at: "2024-04-01T00:00Z",
    });
    let res = await call("PATCH", `${BASE}/${room.id}`, {
      key: g.key,
      body: { closes_at: "2024-02-01T00:00Z" },
    });
    await expectProblem(res, 400, "invalid_request", { field: "closes_at", location: "body" });
    res = await call("PATCH", `${BASE}/${room.id}`, { key: g.key, body: { opens_at: "2024-04-01T00:00Z" } });
    const problem = await expectProblem(res, 400, "invalid_request", { field: "opens_at", location: "body" });
    expect(problem.details).toEqual([
      { location: "body", field: "opens_at", message: "must be before closes_at" },
    ]);
    // Both together, or one cleared, are judged as they will be stored.
    expect(
      await patchRoom(g, room.id, { opens_at: "2025-01-01T00:00Z", closes_at: "2025-02-01T00:00Z" }),
    ).toMatchObject({
      opens_at: "2025-01-01T00:00:00.000Z",
      closes_at: "2025-02-01T00:00:00.000Z",
      is_open: false,
    });
    expect(await patchRoom(g, room.id, { closes_at: null })).toMatchObject({
      closes_at: null,
      is_open: true,
    });
    expect(await patchRoom(g, room.id, { opens_at: "2999-01-01T00:00Z" })).toMatchObject({ is_open: false });
  });

  it("a taken slug is 409 naming the room; the own slug is no change; bad works name their index", async () => {
    const g = await createGallery();
    const first = await createRoom(g, { title: "First" });
    const second = await createRoom(g, { title: "Second" });
    const res = await call("PATCH", `${BASE}/${second.id}`, { key: g.key, body: { slug: "first" } });
    const problem = await expectProblem(res, 409, "conflict");
    expect(problem.details).toEqual({ field: "slug", slug: "first", viewing_room_id: first.id });
    expect(await patchRoom(g, second.id, { slug: "second" })).toEqual(second);
    expect((await patchRoom(g, second.id, { slug: "renamed" })).slug).toBe("renamed");
    // The freed slug can be taken.
    expect((await createRoom(g, { title: "New", slug: "second" })).slug).toBe("second");
    const other = await createGallery();
    const theirs = await newArtwork(other);
    const mine = await newArtwork(g);
    const bad = await call("PATCH", `${BASE}/${first.id}`, {
      key: g.key,
      body: { artworks: [{ artwork_id: mine }, { artwork_id: mine }, { artwork_id: theirs }] },
    });
    await expectProblem(bad, 400, "invalid_request", { field: "artworks.1.artwork_id", location: "body" });
    const foreign = await call("PATCH", `${BASE}/${first.id}`, {
      key: g.key,
      body: { artworks: [{ artwork_id: mine }, { artwork_id: theirs }] },
    });
    await expectProblem(foreign, 400, "invalid_request", {
      field: "artworks.1.artwork_id",
      location: "body",
    });
  });

  it("is 404 for an unknown room or another gallery's", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const theirs = await createRoom(other, { title: "Theirs" });
    for (const id of [newId("room"), theirs.id]) {
      await expectProblem(
        await call("PATCH", `${BASE}/${id}`, { key: g.key, body: { title: "x" } }),
        404,
        "not_found",
      );
      await expectProblem(await call("GET", `${BASE}/${id}`, { key: g.key }), 404, "not_found");
      await expectProblem(await call("DELETE", `${BASE}/${id}`, { key: g.key }), 404, "not_found");
    }
    expect((await call("GET", `${BASE}/${theirs.id}`, { key: other.key })).status).toBe(200);
  });
});

describe("DELETE /gallery/viewing-rooms/{id}", () => {
  it("deletes the room and its works list, keeps the works, emits viewing_room.deleted with the last state", async () => {
    const g = await createGallery();
    const a = await newArtwork(g);
    const room = await createRoom(g, { title: "Gone", artworks: [{ artwork_id: a }] });
    const res = await call("DELETE", `${BASE}/${room.id}`, { key: g.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: room.id, deleted: true });
    await expectProblem(await call("GET", `${BASE}/${room.id}`, { key: g.key }), 404, "not_found");
    expect((await call("GET", `/gallery/artworks/${a}`, { key: g.key })).status).toBe(200);
    const left = await db().execute(
      sql`select 1 from viewing_room_artworks where viewing_room_id = ${room.id}`,
    );
    expect(left.rows).toEqual([]);
    const deleted = (await outboxEvents(g.id)).filter((e) => e.type === "viewing_room.deleted");
    expect(deleted).toEqual([
      { id: expect.any(String), type: "viewing_room.deleted", resource_id: room.id, data: { object: room } },
    ]);
    // The slug is free again.
    expect((await createRoom(g, { title: "Gone" })).slug).toBe("gone");
  });

  it("a deleted work leaves the room's list", async () => {
    const g = await createGallery();
    const [a, b] = [await newArtwork(g, "A"), await newArtwork(g, "B")];
    const room = await createRoom(g, { title: "R", artworks: [{ artwork_id: a }, { artwork_id: b }] });
    expect((await call("DELETE", `/gallery/artworks/${a}`, { key: g.key })).status).toBe(200);
    const read = await readJson(ViewingRoom, await call("GET", `${BASE}/${room.id}`, { key: g.key }));
    expect(read.artworks).toEqual([{ artwork_id: b, position: 1, show_price: false }]);
  });
});

describe("GET /gallery/viewing-rooms", () => {
  it("lists every visibility newest first, filters by visibility and is_open, sorts by updated, pages", async () => {
    const g = await createGallery();
    const pub = await createRoom(g, { title: "Pub", visibility: "public" });
    const unl = await createRoom(g, { title: "Unl", visibility: "unlisted", closes_at: "2020-01-01T00:00Z" });
    const priv = await createRoom(g, { title: "Priv", opens_at: minutesFromNow(60) });
    const ids = async (query: string) => (await getPage<RoomBody>(g.key, BASE, query)).data.map((r) => r.id);
    expect(await ids("")).toEqual([priv.id, unl.id, pub.id]);
    expect(await ids("dir=asc")).toEqual([pub.id, unl.id, priv.id]);
    expect(await ids("visibility=unlisted")).toEqual([unl.id]);
    expect(await ids("is_open=true")).toEqual([pub.id]);
    expect(await ids("is_open=false")).toEqual([priv.id, unl.id]);
    expect(await ids("visibility=public&is_open=false")).toEqual([]);
    await patchRoom(g, pub.id, { title: "Pub, touched" });
    expect(await ids("sort=updated")).toEqual([pub.id, priv.id, unl.id]);
    const pages = await walkPages<RoomBody>(g.key, BASE, { limit: "1" });
    expect(pages.flatMap((p) => p.data.map((r) => r.id))).toEqual([priv.id, unl.id, pub.id]);
    await expectProblem(await call("GET", `${BASE}?is_open=yes`, { key: g.key }), 400, "invalid_request", {
      field: "is_open",
    });
    await expectProblem(
      await call("GET", `${BASE}?visibility=open`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "visibility",
      },
    );
    // Another gallery's rooms never show.
    const other = await createGallery();
    expect((await getPage(other.key, BASE)).data).toEqual([]);
  });
});

describe("security", () => {
  it("each operation needs its scope; a viewer's session reads but does not write; a publishable token is refused", async () => {
    const g = await createGallery();
    const room = await createRoom(g, { title: "Sec" });
    const readOnly = await g.keyWith(["viewing_rooms:read"]);
    expect((await call("GET", BASE, { key: readOnly })).status).toBe(200);
    expect((await call("GET", `${BASE}/${room.id}`, { key: readOnly })).status).toBe(200);
    const body = await expectProblem(
      await call("POST", BASE, { key: readOnly, body: { title: "x" } }),
      403,
      "forbidden",
    );
    expect(body.details).toHaveProperty("missing_scopes", ["viewing_rooms:create"]);
    const viewer = await memberSession(g, "viewer");
    expect((await call("GET", BASE, { key: viewer.token })).status).toBe(200);
    await expectProblem(
      await call("PATCH", `${BASE}/${room.id}`, { key: viewer.token, body: { title: "x" } }),
      403,
      "forbidden",
    );
    const editor = await memberSession(g, "editor");
    expect(
      (await call("PATCH", `${BASE}/${room.id}`, { key: editor.token, body: { title: "Ed" } })).status,
    ).toBe(200);
    const publishable = await mintKey(g.id, ["viewing_rooms:read"], "publishable");
    const refused = await expectProblem(await call("GET", BASE, { key: publishable }), 403, "forbidden");
    expect(refused.details).toHaveProperty("credential", "publishable");
  });

  it("sends no CORS headers, even to a browser's preflight, and is never cached", async () => {
    const g = await createGallery();
    const origin = { origin: "https://collector.example" };
    const res = await call("GET", BASE, { key: g.key, headers: origin });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect([...res.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([]);
    const preflight = await call("OPTIONS", BASE, {
      headers: {
        ...origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect([...preflight.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });
});
