import { describe, expect, it } from "vitest";
import { CustomStatus } from "../../lib/schemas/catalogue";
import { seedDraft } from "../artworks/helpers";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { created, createdArtwork, eventsOfType, ISO_MS, listedIds } from "./helpers";

/** Custom statuses: gallery-defined workflow labels with a colour and a picker order. */

const BASE = "/gallery/custom-statuses";

function status(g: TestGallery, body: Record<string, unknown>) {
  return created(CustomStatus, g, BASE, body);
}

describe("POST /gallery/custom-statuses", () => {
  it("creates with colour slate, each new status after the last; emits custom_status.created", async () => {
    const g = await createGallery();
    const first = await status(g, { name: "Needs photography" });
    expect(first).toEqual({
      id: expect.stringMatching(/^cst_[0-9a-z]{26}$/),
      name: "Needs photography",
      color: "slate",
      position: 0,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: first.created_at,
    });
    expect(await status(g, { name: "Awaiting framing", color: "sky" })).toMatchObject({ position: 1 });
    expect(await status(g, { name: "Top", position: 10 })).toMatchObject({ position: 10 });
    expect(await status(g, { name: "After top" })).toMatchObject({ position: 11 });
    await status(g, { name: "Last", position: 1_000_000 });
    // Never past the largest position a caller may set.
    expect(await status(g, { name: "Beyond" })).toMatchObject({ position: 1_000_000 });
    const [event] = await eventsOfType(g.id, "custom_status.created");
    expect(event).toEqual({ resource_id: first.id, resource_type: "custom_status", data: { object: first } });
  });

  it("takes a #rrggbb colour and stores it in lower case", async () => {
    const g = await createGallery();
    expect(await status(g, { name: "Hex", color: "#FFAA00" })).toMatchObject({ color: "#ffaa00" });
  });

  it.each([
    ["a missing name", { color: "amber" }, "name"],
    ["a blank name", { name: "" }, "name"],
    ["an unknown colour name", { name: "x", color: "mauve" }, "color"],
    ["a short hex colour", { name: "x", color: "#fa0" }, "color"],
    ["a hex colour without #", { name: "x", color: "ffaa00" }, "color"],
    ["a negative position", { name: "x", position: -1 }, "position"],
    ["a fractional position", { name: "x", position: 1.5 }, "position"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    const g = await createGallery();
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
  });
});

describe("GET /gallery/custom-statuses", () => {
  it("lists newest first with a cursor, by position or by name", async () => {
    const g = await createGallery();
    const c = await status(g, { name: "Charlie", position: 0 });
    const a = await status(g, { name: "Alpha", position: 2 });
    const b = await status(g, { name: "Bravo", position: 1 });
    await status(await createGallery(), { name: "Elsewhere" });
    const first = await readJson(pageOf(CustomStatus), await call("GET", `${BASE}?limit=2`, { key: g.key }));
    expect(first.data.map((s) => s.id)).toEqual([b.id, a.id]);
    expect(await listedIds(g, `${BASE}?limit=2&cursor=${first.next_cursor}`)).toEqual([c.id]);
    expect(await listedIds(g, `${BASE}?sort=position&dir=asc`)).toEqual([c.id, b.id, a.id]);
    expect(await listedIds(g, `${BASE}?sort=name&dir=asc`)).toEqual([a.id, b.id, c.id]);
    const byPosition = await readJson(
      pageOf(CustomStatus),
      await call("GET", `${BASE}?sort=position&limit=1`, { key: g.key }),
    );
    expect(byPosition.data.map((s) => s.id)).toEqual([a.id]);
    expect(await listedIds(g, `${BASE}?sort=position&limit=5&cursor=${byPosition.next_cursor}`)).toEqual([
      b.id,
      c.id,
    ]);
    await expectProblem(await call("GET", `${BASE}?sort=color`, { key: g.key }), 400, "invalid_request", {
      field: "sort",
    });
  });
});

describe("PATCH and DELETE /gallery/custom-statuses/{id}", () => {
  it("changes the fields sent and emits custom_status.updated with previous_attributes", async () => {
    const g = await createGallery();
    const before = await status(g, { name: "Ready", color: "green" });
    const response = await call("PATCH", `${BASE}/${before.id}`, {
      key: g.key,
      body: { color: "emerald", position: 4, name: "Ready" },
    });
    const after = await readJson(CustomStatus, response);
    expect(after).toEqual({
      ...before,
      color: "emerald",
      position: 4,
      updated_at: expect.stringMatching(ISO_MS),
    });
    const [event] = await eventsOfType(g.id, "custom_status.updated");
    expect(event?.data).toEqual({ object: after, previous_attributes: { color: "green", position: 0 } });
    const same = await call("PATCH", `${BASE}/${before.id}`, { key: g.key, body: { color: "emerald" } });
    expect(await readJson(CustomStatus, same)).toEqual(after);
    expect(await eventsOfType(g.id, "custom_status.updated")).toHaveLength(1);
    await expectProblem(
      await call("PATCH", `${BASE}/${before.id}`, { key: g.key, body: { color: "#12345g" } }),
      400,
      "invalid_request",
      { field: "color", location: "body" },
    );
  });

  it("refuses to delete a status works carry (409 with the count), then deletes once they move", async () => {
    const g = await createGallery();
    const s = await status(g, { name: "In use" });
    const work = await createdArtwork(g, { custom_status_id: s.id });
    const drafted = await createdArtwork(g, {});
    await seedDraft(g.id, drafted.id, { custom_status_id: s.id });
    const problem = await expectProblem(
      await call("DELETE", `${BASE}/${s.id}`, { key: g.key }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ artwork_count: 2 });
    expect(problem.detail).toContain("custom_status_id");

    await call("PATCH", `/gallery/artworks/${work.id}`, { key: g.key, body: { custom_status_id: null } });
    await call("DELETE", `/gallery/artworks/${drafted.id}`, { key: g.key });
    const response = await call("DELETE", `${BASE}/${s.id}`, { key: g.key });
    expect(await response.json()).toEqual({ id: s.id, deleted: true });
    await expectProblem(await call("GET", `${BASE}/${s.id}`, { key: g.key }), 404, "not_found");
    const [event] = await eventsOfType(g.id, "custom_status.deleted");
    expect(event).toEqual({ resource_id: s.id, resource_type: "custom_status", data: { object: s } });
  });
});
