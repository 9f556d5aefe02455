import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Show } from "../../lib/schemas/shows";
import { ISO_MS, newArtwork } from "../contact-interactions/helpers";
import { call, createGallery, readJson, signedInMember, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** Shows: GET/POST /gallery/shows, GET/PATCH/DELETE /gallery/shows/{id}. */

type ShowBody = z.infer<typeof Show>;

const BASE = "/gallery/shows";

async function createShow(g: TestGallery, body: Record<string, unknown>): Promise<ShowBody> {
  const res = await call("POST", BASE, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(Show, res);
}

async function patchShow(g: TestGallery, id: string, body: Record<string, unknown>): Promise<ShowBody> {
  const res = await call("PATCH", `${BASE}/${id}`, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Show, res);
}

describe("POST /gallery/shows", () => {
  it("records every field in order, emits show.created, and reads back the same", async () => {
    const g = await createGallery();
    const works = [await newArtwork(g, "One"), await newArtwork(g, "Two")];
    const show = await createShow(g, {
      title: "Tidewater: New Paintings",
      description: "Seascapes.",
      starts_on: "2024-02-29",
      ends_on: "2024-04-19",
      status: "open",
      venue: "Main Gallery",
      artwork_ids: [works[1], works[0]],
    });
    expect(show).toEqual({
      id: expect.stringMatching(/^show_[0-9a-z]{26}$/),
      title: "Tidewater: New Paintings",
      description: "Seascapes.",
      starts_on: "2024-02-29",
      ends_on: "2024-04-19",
      status: "open",
      venue: "Main Gallery",
      artwork_ids: [works[1], works[0]],
      tag_count: 0,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(Object.keys(show)).toEqual(Object.keys(Show.shape));
    expect((await outboxEvents(g.id)).filter((e) => e.type.startsWith("show."))).toEqual([
      { id: expect.any(String), type: "show.created", resource_id: show.id, data: { object: show } },
    ]);
    expect(await readJson(Show, await call("GET", `${BASE}/${show.id}`, { key: g.key }))).toEqual(show);
  });

  it("defaults: planned, no dates, no works", async () => {
    const g = await createGallery();
    const show = await createShow(g, { title: "Untitled" });
    expect(show).toMatchObject({
      description: null,
      starts_on: null,
      ends_on: null,
      status: "planned",
      venue: null,
      artwork_ids: [],
      tag_count: 0,
    });
  });

  it.each([
    ["title", { title: undefined }],
    ["title", { title: "  " }],
    ["title", { title: "x".repeat(301) }],
    ["starts_on", { starts_on: "2023-02-29" }],
    ["starts_on", { starts_on: "2024-02-29T00:00Z" }],
    ["ends_on", { ends_on: "29/02/2024" }],
    ["ends_on", { starts_on: "2024-03-01", ends_on: "2024-02-29" }],
    ["status", { status: "running" }],
    ["venue", { venue: "" }],
    ["artwork_ids", { artwork_ids: [newId("art")] }],
    ["artwork_ids", { artwork_ids: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }],
    ["artwork_ids.0", { artwork_ids: ["nope"] }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const g = await createGallery();
    const body = { title: "Show", ...change };
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
    expect((await getPage(g.key, BASE)).data).toEqual([]);
  });

  it("400 naming artwork_ids for a work listed twice or another gallery's", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const mine = await newArtwork(g);
    const theirs = await newArtwork(other);
    for (const artwork_ids of [
      [mine, mine],
      [mine, theirs],
    ]) {
      const res = await call("POST", BASE, { key: g.key, body: { title: "Show", artwork_ids } });
      await expectProblem(res, 400, "invalid_request", { field: "artwork_ids", location: "body" });
    }
  });

  it("the ends_on problem says the start day", async () => {
    const g = await createGallery();
    const res = await call("POST", BASE, {
      key: g.key,
      body: { title: "Show", starts_on: "2025-03-06", ends_on: "2025-03-05" },
    });
    const problem = await expectProblem(res, 400, "invalid_request", { field: "ends_on", location: "body" });
    expect(problem.details?.[0]?.message).toBe("must be on or after starts_on (2025-03-06)");
    // One day is a show too.
    await createShow(g, { title: "One day", starts_on: "2025-03-06", ends_on: "2025-03-06" });
  });
});

describe("PATCH /gallery/shows/{id}", () => {
  it("changes fields, replaces works, and records show.updated with previous_attributes", async () => {
    const g = await createGallery();
    const works = [await newArtwork(g, "One"), await newArtwork(g, "Two"), await newArtwork(g, "Three")];
    const show = await createShow(g, { title: "Show", artwork_ids: [works[0], works[1]] });
    const updated = await patchShow(g, show.id, {
      status: "open",
      venue: "Project Room",
      artwork_ids: [works[2], works[0]],
      title: "Show",
    });
    expect(updated).toMatchObject({
      status: "open",
      venue: "Project Room",
      artwork_ids: [works[2], works[0]],
    });
    expect(updated.updated_at > show.updated_at).toBe(true);
    const events = (await outboxEvents(g.id)).filter((e) => e.type === "show.updated");
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: "show.updated",
        resource_id: show.id,
        data: {
          object: updated,
          previous_attributes: { status: "planned", venue: null, artwork_ids: [works[0], works[1]] },
        },
      },
    ]);
    // Nothing changes: no write, no event.
    const same = await patchShow(g, show.id, { status: "open" });
    expect(same).toEqual(updated);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "show.updated")).toHaveLength(1);
    // An empty list clears the works; null clears a field.
    expect(await patchShow(g, show.id, { artwork_ids: [], venue: null })).toMatchObject({
      artwork_ids: [],
      venue: null,
    });
  });

  it("checks the dates as the show ends up: 400 naming ends_on", async () => {
    const g = await createGallery();
    const show = await createShow(g, { title: "Show", starts_on: "2025-03-06", ends_on: "2025-04-19" });
    let res = await call("PATCH", `${BASE}/${show.id}`, { key: g.key, body: { ends_on: "2025-03-01" } });
    await expectProblem(res, 400, "invalid_request", { field: "ends_on", location: "body" });
    res = await call("PATCH", `${BASE}/${show.id}`, { key: g.key, body: { starts_on: "2025-05-01" } });
    await expectProblem(res, 400, "invalid_request", { field: "ends_on", location: "body" });
    // Moving both together, or clearing the start, is fine.
    expect(await patchShow(g, show.id, { starts_on: "2025-05-01", ends_on: "2025-06-01" })).toMatchObject({
      starts_on: "2025-05-01",
      ends_on: "2025-06-01",
    });
    expect(await patchShow(g, show.id, { starts_on: null, ends_on: "2025-01-01" })).toMatchObject({
      starts_on: null,
      ends_on: "2025-01-01",
    });
  });

  it("400 naming artwork_ids for another gallery's work; the show is unchanged", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const show = await createShow(g, { title: "Show" });
    const res = await call("PATCH", `${BASE}/${show.id}`, {
      key: g.key,
      body: { artwork_ids: [await newArtwork(other)], status: "open" },
    });
    await expectProblem(res, 400, "invalid_request", { field: "artwork_ids", location: "body" });
    expect(await readJson(Show, await call("GET", `${BASE}/${show.id}`, { key: g.key }))).toEqual(show);
  });
});

describe("DELETE /gallery/shows/{id}", () => {
  it("deletes the show with its tags; the works stay; show.deleted carries its last state", async () => {
    const g = await createGallery();
    const work = await newArtwork(g);
    const show = await createShow(g, { title: "Show", artwork_ids: [work] });
    const tag = await call("POST", `${BASE}/${show.id}/tags`, {
      key: g.key,
      body: { name: "Bronze", facet: "medium" },
    });
    expect(tag.status).toBe(201);
    const before = await readJson(Show, await call("GET", `${BASE}/${show.id}`, { key: g.key }));
    expect(before.tag_count).toBe(1);
    const res = await call("DELETE", `${BASE}/${show.id}`, { key: g.key });
    expect(await res.json()).toEqual({ id: show.id, deleted: true });
    await expectProblem(await call("GET", `${BASE}/${show.id}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${show.id}/tags`, { key: g.key }), 404, "not_found");
    expect((await call("GET", `/gallery/artworks/${work}`, { key: g.key })).status).toBe(200);
    const deleted = (await outboxEvents(g.id)).filter((e) => e.type === "show.deleted");
    expect(deleted).toEqual([
      { id: expect.any(String), type: "show.deleted", resource_id: show.id, data: { object: before } },
    ]);
    await expectProblem(await call("DELETE", `${BASE}/${show.id}`, { key: g.key }), 404, "not_found");
  });
});

describe("GET /gallery/shows", () => {
  it("filters by status, artwork and start days; sorts by start with undated shows last", async () => {
    const g = await createGallery();
    const work = await newArtwork(g);
    const a = await createShow(g, { title: "A", starts_on: "2025-01-10", status: "closed" });
    const b = await createShow(g, { title: "B", starts_on: "2025-06-01", artwork_ids: [work] });
    const c = await createShow(g, { title: "C" });
    const d = await createShow(g, { title: "D", starts_on: "2025-03-01", status: "open" });
    const ids = async (query: string) => (await getPage<ShowBody>(g.key, BASE, query)).data.map((s) => s.id);
    expect(await ids("")).toEqual([d.id, c.id, b.id, a.id]);
    expect(await ids("status=open")).toEqual([d.id]);
    expect(await ids(`artwork_id=${work}`)).toEqual([b.id]);
    expect(await ids("starts_after=2025-03-01")).toEqual([d.id, b.id]);
    expect(await ids("starts_before=2025-03-01")).toEqual([a.id]);
    expect(await ids("sort=starts")).toEqual([b.id, d.id, a.id, c.id]);
    expect(await ids("sort=starts&dir=asc")).toEqual([c.id, a.id, d.id, b.id]);
    const pages = await walkPages<ShowBody>(g.key, BASE, { sort: "starts", limit: "1" });
    expect(pages.flatMap((p) => p.data.map((s) => s.id))).toEqual([b.id, d.id, a.id, c.id]);
    await patchShow(g, a.id, { title: "A2" });
    expect((await ids("sort=updated"))[0]).toBe(a.id);
  });

  it.each([
    ["status", "status=running"],
    ["starts_after", "starts_after=2025-02-30"],
    ["starts_before", "starts_before=tomorrow"],
    ["artwork_id", "artwork_id=nope"],
    ["sort", "sort=title"],
    ["limit", "limit=0"],
  ])("400 naming %s", async (field, query) => {
    const g = await createGallery();
    await expectProblem(await call("GET", `${BASE}?${query}`, { key: g.key }), 400, "invalid_request", {
      field,
    });
  });
});

describe("security", () => {
  it("each operation takes its shows scope", async () => {
    const g = await createGallery();
    const show = await createShow(g, { title: "Show" });
    const cases: [string, string, string, Record<string, unknown> | undefined][] = [
      ["GET", BASE, "shows:read", undefined],
      ["POST", BASE, "shows:create", { title: "X" }],
      ["GET", `${BASE}/${show.id}`, "shows:read", undefined],
      ["PATCH", `${BASE}/${show.id}`, "shows:update", { status: "open" }],
      ["DELETE", `${BASE}/${show.id}`, "shows:delete", undefined],
    ];
    const readOnly = await g.keyWith(["shows:read"]);
    const unrelated = await g.keyWith([
      "artworks:read",
      "artworks:create",
      "artworks:update",
      "artworks:delete",
    ]);
    for (const [method, path, scope, body] of cases) {
      await expectProblem(await call(method, path, { key: unrelated, body }), 403, "forbidden");
      if (scope !== "shows:read") {
        await expectProblem(await call(method, path, { key: readOnly, body }), 403, "forbidden");
      }
    }
    expect((await call("GET", `${BASE}/${show.id}`, { key: readOnly })).status).toBe(200);
  });

  it("another gallery's show is not found, and never listed", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const show = await createShow(g, { title: "Mine" });
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { title: "Theirs" }],
      ["DELETE", undefined],
    ] as const) {
      await expectProblem(
        await call(method, `${BASE}/${show.id}`, { key: other.key, body }),
        404,
        "not_found",
      );
    }
    expect((await getPage(other.key, BASE)).data).toEqual([]);
    expect(await readJson(Show, await call("GET", `${BASE}/${show.id}`, { key: g.key }))).toEqual(show);
  });

  it("a viewer member reads shows but cannot change them", async () => {
    const g = await createGallery();
    const show = await createShow(g, { title: "Show" });
    const viewer = await signedInMember(g.id, "viewer");
    expect((await call("GET", `${BASE}/${show.id}`, { key: viewer.token })).status).toBe(200);
    await expectProblem(
      await call("PATCH", `${BASE}/${show.id}`, { key: viewer.token, body: { title: "No" } }),
      403,
      "forbidden",
    );
  });
});
