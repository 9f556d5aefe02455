import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Tag } from "../../lib/schemas/catalogue";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { created, createdArtwork, eventsOfType, ISO_MS, listedIds } from "./helpers";

/** Tags: create, list by scope and name, rename, delete (which takes the tag off its works). */

const BASE = "/gallery/tags";

function tag(g: TestGallery, body: Record<string, unknown>) {
  return created(Tag, g, BASE, body);
}

describe("POST /gallery/tags", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("creates an artwork tag by default, the name trimmed, and emits tag.created", async () => {
    const body = await tag(g, { name: " Botanical " });
    expect(body).toEqual({
      id: expect.stringMatching(/^tag_[0-9a-z]{26}$/),
      name: "Botanical",
      scope: "artwork",
      created_at: expect.stringMatching(ISO_MS),
      updated_at: body.created_at,
    });
    expect(await readJson(Tag, await call("GET", `${BASE}/${body.id}`, { key: g.key }))).toEqual(body);
    const events = await eventsOfType(g.id, "tag.created");
    expect(events.find((e) => e.resource_id === body.id)?.data).toEqual({ object: body });
  });

  it("refuses a name the scope already has, ignoring case: 409 naming the existing tag", async () => {
    const first = await tag(g, { name: "Collectors", scope: "contact" });
    const problem = await expectProblem(
      await call("POST", BASE, { key: g.key, body: { name: "  COLLECTORS", scope: "contact" } }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ existing_id: first.id });
    expect(problem.detail).toContain(first.id);
    // The same name in another scope is another tag.
    expect(await tag(g, { name: "Collectors", scope: "show" })).toMatchObject({ scope: "show" });
    expect(await tag(g, { name: "Collectors" })).toMatchObject({ scope: "artwork" });
  });

  it.each([
    ["a missing name", { scope: "artwork" }, "name"],
    ["a blank name", { name: " " }, "name"],
    ["a name over 200 characters", { name: "t".repeat(201) }, "name"],
    ["an unknown scope", { name: "x", scope: "painting" }, "scope"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
  });
});

describe("GET /gallery/tags", () => {
  let g: TestGallery;
  let ids: { a: string; b: string; c: string; d: string };
  beforeAll(async () => {
    g = await createGallery();
    ids = {
      a: (await tag(g, { name: "Abstract" })).id,
      b: (await tag(g, { name: "VIP", scope: "contact" })).id,
      c: (await tag(g, { name: "Landscape" })).id,
      d: (await tag(g, { name: "Opening", scope: "show" })).id,
    };
    await tag(await createGallery(), { name: "Elsewhere" });
  });

  it("lists newest first, pages with a cursor, and filters by scope", async () => {
    const first = await readJson(pageOf(Tag), await call("GET", `${BASE}?limit=3`, { key: g.key }));
    expect(first.data.map((t) => t.id)).toEqual([ids.d, ids.c, ids.b]);
    expect(await listedIds(g, `${BASE}?limit=3&cursor=${first.next_cursor}`)).toEqual([ids.a]);
    expect(await listedIds(g, `${BASE}?scope=artwork`)).toEqual([ids.c, ids.a]);
    expect(await listedIds(g, `${BASE}?scope=contact`)).toEqual([ids.b]);
    await expectProblem(await call("GET", `${BASE}?scope=works`, { key: g.key }), 400, "invalid_request", {
      field: "scope",
    });
  });

  it("sorts by name, within a scope too", async () => {
    expect(await listedIds(g, `${BASE}?sort=name&dir=asc`)).toEqual([ids.a, ids.c, ids.d, ids.b]);
    const page = await readJson(
      pageOf(Tag),
      await call("GET", `${BASE}?sort=name&dir=asc&scope=artwork&limit=1`, { key: g.key }),
    );
    expect(page.data.map((t) => t.id)).toEqual([ids.a]);
    expect(
      await listedIds(g, `${BASE}?sort=name&dir=asc&scope=artwork&limit=1&cursor=${page.next_cursor}`),
    ).toEqual([ids.c]);
  });

  it("answers 404 for another gallery's tag", async () => {
    const theirs = await tag(await createGallery(), { name: "Theirs" });
    await expectProblem(await call("GET", `${BASE}/${theirs.id}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${newId("tag")}`, { key: g.key }), 404, "not_found");
  });
});

describe("PATCH /gallery/tags/{id}", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("renames and emits tag.updated with the former name", async () => {
    const before = await tag(g, { name: "Sculpure" });
    const response = await call("PATCH", `${BASE}/${before.id}`, { key: g.key, body: { name: "Sculpture" } });
    const after = await readJson(Tag, response);
    expect(after).toEqual({ ...before, name: "Sculpture", updated_at: expect.stringMatching(ISO_MS) });
    const [event] = await eventsOfType(g.id, "tag.updated");
    expect(event?.data).toEqual({ object: after, previous_attributes: { name: "Sculpure" } });
  });

  it("allows a change of case of its own name; refuses another tag's name in the scope (409)", async () => {
    const mine = await tag(g, { name: "prints" });
    const theirs = await tag(g, { name: "Photography" });
    const recased = await call("PATCH", `${BASE}/${mine.id}`, { key: g.key, body: { name: "Prints" } });
    expect(await readJson(Tag, recased)).toMatchObject({ name: "Prints" });
    const problem = await expectProblem(
      await call("PATCH", `${BASE}/${mine.id}`, { key: g.key, body: { name: "photography" } }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ existing_id: theirs.id });
    const contact = await tag(g, { name: "Photography buyers", scope: "contact" });
    const renamed = await call("PATCH", `${BASE}/${contact.id}`, {
      key: g.key,
      body: { name: "Photography" },
    });
    expect(await readJson(Tag, renamed)).toMatchObject({ name: "Photography", scope: "contact" });
  });

  it("emits nothing for a patch that changes nothing; the scope cannot change", async () => {
    const g2 = await createGallery();
    const before = await tag(g2, { name: "Still" });
    const same = await call("PATCH", `${BASE}/${before.id}`, { key: g2.key, body: { name: "Still" } });
    expect(await readJson(Tag, same)).toEqual(before);
    expect(await eventsOfType(g2.id, "tag.updated")).toEqual([]);
    const body = await expectProblem(
      await call("PATCH", `${BASE}/${before.id}`, { key: g2.key, body: { scope: "contact" } }),
      400,
      "invalid_request",
      { field: "scope", location: "body" },
    );
    expect(body.details).toContainEqual({
      location: "body",
      field: "scope",
      message: "is not a known field",
    });
  });
});

describe("DELETE /gallery/tags/{id}", () => {
  it("deletes the tag, takes it off its works, and emits tag.deleted", async () => {
    const g = await createGallery();
    const t = await tag(g, { name: "Fragile" });
    const kept = await tag(g, { name: "Kept" });
    const work = await createdArtwork(g, { tag_ids: [t.id, kept.id] });
    expect(await listedIds(g, `/gallery/artworks?tag_id=${t.id}`)).toEqual([work.id]);

    const response = await call("DELETE", `${BASE}/${t.id}`, { key: g.key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: t.id, deleted: true });
    expect(await listedIds(g, `/gallery/artworks?tag_id=${t.id}`)).toEqual([]);
    expect(await listedIds(g, `/gallery/artworks?tag_id=${kept.id}`)).toEqual([work.id]);
    expect((await call("GET", `/gallery/artworks/${work.id}`, { key: g.key })).status).toBe(200);
    const [event] = await eventsOfType(g.id, "tag.deleted");
    expect(event).toEqual({ resource_id: t.id, resource_type: "tag", data: { object: t } });
    // Its name is free again.
    expect(await tag(g, { name: "Fragile" })).toMatchObject({ name: "Fragile" });
  });
});
