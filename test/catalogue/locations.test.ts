import { describe, expect, it } from "vitest";
import { Location } from "../../lib/schemas/catalogue";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { created, createdArtwork, eventsOfType, ISO_MS, listedIds } from "./helpers";

/** Locations: where works are. */

const BASE = "/gallery/locations";

function location(g: TestGallery, body: Record<string, unknown>) {
  return created(Location, g, BASE, body);
}

describe("POST /gallery/locations", () => {
  it("creates a storage location by default; emits location.created", async () => {
    const g = await createGallery();
    const body = await location(g, { name: " Red Hook Storage, Bay 4 " });
    expect(body).toEqual({
      id: expect.stringMatching(/^loc_[0-9a-z]{26}$/),
      name: "Red Hook Storage, Bay 4",
      kind: "storage",
      address: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: body.created_at,
    });
    expect(await readJson(Location, await call("GET", `${BASE}/${body.id}`, { key: g.key }))).toEqual(body);
    const [event] = await eventsOfType(g.id, "location.created");
    expect(event).toEqual({ resource_id: body.id, resource_type: "location", data: { object: body } });
  });

  it("takes every kind the demo data uses, and an address", async () => {
    const g = await createGallery();
    for (const kind of ["gallery", "storage", "framer", "conservator", "loan", "fair", "other"]) {
      expect(await location(g, { name: kind, kind, address: "14 Wharf Street" })).toMatchObject({
        kind,
        address: "14 Wharf Street",
      });
    }
  });

  it.each([
    ["a missing name", { kind: "storage" }, "name"],
    ["a blank name", { name: "  " }, "name"],
    ["an unknown kind", { name: "x", kind: "garage" }, "kind"],
    ["an address over 1000 characters", { name: "x", address: "a".repeat(1001) }, "address"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    const g = await createGallery();
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
  });
});

describe("GET /gallery/locations", () => {
  it("lists newest first with a cursor, or by name", async () => {
    const g = await createGallery();
    const b = await location(g, { name: "Bowery Frames", kind: "framer" });
    const a = await location(g, { name: "Art Basel booth", kind: "fair" });
    const c = await location(g, { name: "Cellar" });
    await location(await createGallery(), { name: "Elsewhere" });
    const first = await readJson(pageOf(Location), await call("GET", `${BASE}?limit=2`, { key: g.key }));
    expect(first.data.map((l) => l.id)).toEqual([c.id, a.id]);
    expect(await listedIds(g, `${BASE}?limit=2&cursor=${first.next_cursor}`)).toEqual([b.id]);
    expect(await listedIds(g, `${BASE}?sort=name&dir=asc`)).toEqual([a.id, b.id, c.id]);
    const byName = await readJson(
      pageOf(Location),
      await call("GET", `${BASE}?sort=name&limit=1`, { key: g.key }),
    );
    expect(byName.data.map((l) => l.id)).toEqual([c.id]);
    // A cursor belongs to its sort.
    await expectProblem(
      await call("GET", `${BASE}?cursor=${byName.next_cursor}`, { key: g.key }),
      400,
      "invalid_request",
    );
  });
});

describe("PATCH and DELETE /gallery/locations/{id}", () => {
  it("changes the fields sent and emits location.updated with previous_attributes", async () => {
    const g = await createGallery();
    const before = await location(g, { name: "Studio", kind: "gallery", address: "1 Old Street" });
    const response = await call("PATCH", `${BASE}/${before.id}`, {
      key: g.key,
      body: { kind: "storage", address: null },
    });
    const after = await readJson(Location, response);
    expect(after).toEqual({
      ...before,
      kind: "storage",
      address: null,
      updated_at: expect.stringMatching(ISO_MS),
    });
    const [event] = await eventsOfType(g.id, "location.updated");
    expect(event?.data).toEqual({
      object: after,
      previous_attributes: { kind: "gallery", address: "1 Old Street" },
    });
    await expectProblem(
      await call("PATCH", `${BASE}/${before.id}`, { key: g.key, body: { kind: "attic" } }),
      400,
      "invalid_request",
      { field: "kind", location: "body" },
    );
    const other = await createGallery();
    await expectProblem(
      await call("PATCH", `${BASE}/${before.id}`, { key: other.key, body: { name: "Mine" } }),
      404,
      "not_found",
    );
  });

  it("refuses to delete a location works are at (409 with the count), then deletes once they move", async () => {
    const g = await createGallery();
    const here = await location(g, { name: "Here" });
    const there = await location(g, { name: "There" });
    const works = [
      await createdArtwork(g, { location_id: here.id }),
      await createdArtwork(g, { location_id: here.id }),
    ];
    await createdArtwork(g, { location_id: there.id });
    const problem = await expectProblem(
      await call("DELETE", `${BASE}/${here.id}`, { key: g.key }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ artwork_count: 2 });
    expect((await call("GET", `${BASE}/${here.id}`, { key: g.key })).status).toBe(200);

    for (const work of works) {
      await call("PATCH", `/gallery/artworks/${work.id}`, { key: g.key, body: { location_id: there.id } });
    }
    const response = await call("DELETE", `${BASE}/${here.id}`, { key: g.key });
    expect(await response.json()).toEqual({ id: here.id, deleted: true });
    const [event] = await eventsOfType(g.id, "location.deleted");
    expect(event).toEqual({ resource_id: here.id, resource_type: "location", data: { object: here } });
  });
});
