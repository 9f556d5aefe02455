import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { MAX_TAGS_PER_SHOW, ShowTag, ShowTagList } from "../../lib/schemas/shows";
import { ISO_MS } from "../contact-interactions/helpers";
import { call, createGallery, db, readJson, signedInMember, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** A show's tags: GET/POST /gallery/shows/{showId}/tags, PATCH/DELETE /gallery/shows/{showId}/tags/{tagId}. */

type TagBody = z.infer<typeof ShowTag>;

async function newShow(g: TestGallery, title = "Show"): Promise<string> {
  const res = await call("POST", "/gallery/shows", { key: g.key, body: { title } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const tagsOf = (showId: string) => `/gallery/shows/${showId}/tags`;

async function addTag(g: TestGallery, showId: string, body: Record<string, unknown>, key = g.key) {
  const res = await call("POST", tagsOf(showId), { key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(ShowTag, res);
}

async function listTags(g: TestGallery, showId: string, key = g.key): Promise<TagBody[]> {
  const res = await call("GET", tagsOf(showId), { key });
  expect(res.status).toBe(200);
  return (await readJson(ShowTagList, res)).data;
}

describe("POST /gallery/shows/{showId}/tags", () => {
  it("applies a tag with its colour, facet and origin; emits show_tag.created", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const tag = await addTag(g, showId, { name: "Oil painting", facet: "medium", color: "amber" });
    expect(tag).toEqual({
      id: expect.stringMatching(/^stag_[0-9a-z]{26}$/),
      name: "Oil painting",
      color: "amber",
      facet: "medium",
      origin: "manual",
      created_at: expect.stringMatching(ISO_MS),
      updated_at: tag.created_at,
    });
    expect(Object.keys(tag)).toEqual(Object.keys(ShowTag.shape));
    expect((await outboxEvents(g.id)).filter((e) => e.type.startsWith("show_tag."))).toEqual([
      {
        id: expect.any(String),
        type: "show_tag.created",
        resource_id: tag.id,
        data: { object: tag, show_id: showId },
      },
    ]);
    const suggested = await addTag(g, showId, {
      name: "Nordic light",
      facet: "region",
      origin: "ai_suggested",
    });
    expect(suggested).toMatchObject({ color: "slate", origin: "ai_suggested" });
    const show = await call("GET", `/gallery/shows/${showId}`, { key: g.key });
    expect(((await show.json()) as { tag_count: number }).tag_count).toBe(2);
  });

  it("409 naming the existing tag for a name the show has, ignoring case; another show may use it", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const tag = await addTag(g, showId, { name: "Bronze", facet: "material" });
    const res = await call("POST", tagsOf(showId), {
      key: g.key,
      body: { name: "  bRONZE ", facet: "medium" },
    });
    const problem = await expectProblem(res, 409, "conflict");
    expect(problem.details).toEqual({ existing_id: tag.id });
    expect(await listTags(g, showId)).toEqual([tag]);
    await addTag(g, await newShow(g, "Other"), { name: "Bronze", facet: "material" });
  });

  it(`409 beyond ${MAX_TAGS_PER_SHOW} tags on one show`, async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const values = Array.from(
      { length: MAX_TAGS_PER_SHOW },
      (_, i) => sql`(${newId("stag")}, ${g.id}, ${showId}, ${`Tag ${i}`}, 'theme')`,
    );
    await db().execute(
      sql`insert into show_tags (id, gallery_id, show_id, name, facet) values ${sql.join(values, sql`, `)}`,
    );
    const res = await call("POST", tagsOf(showId), {
      key: g.key,
      body: { name: "One more", facet: "theme" },
    });
    const problem = await expectProblem(res, 409, "conflict");
    expect(problem.details).toEqual({ max_tags: MAX_TAGS_PER_SHOW });
    expect(await listTags(g, showId)).toHaveLength(MAX_TAGS_PER_SHOW);
  });

  it.each([
    ["name", { name: undefined }],
    ["name", { name: "" }],
    ["name", { name: "x".repeat(61) }],
    ["name", { name: "tab\there" }],
    ["facet", { facet: undefined }],
    ["facet", { facet: "mood" }],
    ["color", { color: "#ff0000" }],
    ["color", { color: "beige" }],
    ["origin", { origin: "ai" }],
    ["no_such_field", { no_such_field: true }],
  ])("400 naming %s (case %#)", async (field, change) => {
    const g = await createGallery();
    const showId = await newShow(g);
    const body = { name: "Tag", facet: "theme", ...change };
    await expectProblem(await call("POST", tagsOf(showId), { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
    expect(await listTags(g, showId)).toEqual([]);
  });

  it("404 for a show the gallery does not have", async () => {
    const g = await createGallery();
    const res = await call("POST", tagsOf(newId("show")), {
      key: g.key,
      body: { name: "Tag", facet: "theme" },
    });
    await expectProblem(res, 404, "not_found");
  });
});

describe("GET /gallery/shows/{showId}/tags", () => {
  it("lists every tag by name ignoring case, with its origin, in one response", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const names = ["minimalism", "Bronze", "sound", "Installation", "bronze age"];
    const made = [];
    for (const name of names) made.push(await addTag(g, showId, { name, facet: "theme" }));
    const res = await call("GET", tagsOf(showId), { key: g.key });
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["data"]);
    expect((body.data as TagBody[]).map((t) => t.name)).toEqual([
      "Bronze",
      "bronze age",
      "Installation",
      "minimalism",
      "sound",
    ]);
    expect(await listTags(g, await newShow(g, "Empty"))).toEqual([]);
    await expectProblem(await call("GET", tagsOf(newId("show")), { key: g.key }), 404, "not_found");
  });
});

describe("PATCH /gallery/shows/{showId}/tags/{tagId}", () => {
  it("changes colour, facet or name; records show_tag.updated with previous_attributes", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const tag = await addTag(g, showId, { name: "Sound", facet: "theme", color: "emerald" });
    const res = await call("PATCH", `${tagsOf(showId)}/${tag.id}`, {
      key: g.key,
      body: { color: "rose", name: "Sound art", facet: "theme" },
    });
    expect(res.status).toBe(200);
    const updated = await readJson(ShowTag, res);
    expect(updated).toMatchObject({ id: tag.id, name: "Sound art", color: "rose", facet: "theme" });
    expect(updated.updated_at > tag.updated_at).toBe(true);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "show_tag.updated")).toEqual([
      {
        id: expect.any(String),
        type: "show_tag.updated",
        resource_id: tag.id,
        data: {
          object: updated,
          previous_attributes: { color: "emerald", name: "Sound" },
          show_id: showId,
        },
      },
    ]);
  });

  it("an ai_suggested tag edited without origin becomes manual; origin may be said outright", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const tag = await addTag(g, showId, { name: "Postwar", facet: "period", origin: "ai_suggested" });
    const patch = (body: Record<string, unknown>) =>
      call("PATCH", `${tagsOf(showId)}/${tag.id}`, { key: g.key, body }).then((r) => readJson(ShowTag, r));
    // Sending the values it has changes nothing and keeps the origin.
    expect((await patch({ facet: "period" })).origin).toBe("ai_suggested");
    expect(await patch({ color: "violet" })).toMatchObject({ color: "violet", origin: "manual" });
    const events = (await outboxEvents(g.id)).filter((e) => e.type === "show_tag.updated");
    expect(events.map((e) => e.data.previous_attributes)).toEqual([
      { color: "slate", origin: "ai_suggested" },
    ]);
    expect(await patch({ origin: "ai_suggested", color: "sky" })).toMatchObject({ origin: "ai_suggested" });
  });

  it("409 naming the existing tag when renamed onto another tag's name; renaming its own case is fine", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const [a, b] = [
      await addTag(g, showId, { name: "Bronze", facet: "material" }),
      await addTag(g, showId, { name: "Steel", facet: "material" }),
    ];
    const res = await call("PATCH", `${tagsOf(showId)}/${b.id}`, { key: g.key, body: { name: "BRONZE" } });
    expect((await expectProblem(res, 409, "conflict")).details).toEqual({ existing_id: a.id });
    const renamed = await call("PATCH", `${tagsOf(showId)}/${a.id}`, {
      key: g.key,
      body: { name: "BRONZE" },
    });
    expect((await readJson(ShowTag, renamed)).name).toBe("BRONZE");
  });

  it("400 naming the field; 404 for a tag of another show", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const tag = await addTag(g, showId, { name: "Bronze", facet: "material" });
    const res = await call("PATCH", `${tagsOf(showId)}/${tag.id}`, { key: g.key, body: { facet: "mood" } });
    await expectProblem(res, 400, "invalid_request", { field: "facet", location: "body" });
    const other = await newShow(g, "Other");
    await expectProblem(
      await call("PATCH", `${tagsOf(other)}/${tag.id}`, { key: g.key, body: { color: "red" } }),
      404,
      "not_found",
    );
  });
});

describe("DELETE /gallery/shows/{showId}/tags/{tagId}", () => {
  it("removes the tag and records show_tag.deleted with its last state", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const tag = await addTag(g, showId, { name: "Bronze", facet: "material" });
    const res = await call("DELETE", `${tagsOf(showId)}/${tag.id}`, { key: g.key });
    expect(await res.json()).toEqual({ id: tag.id, deleted: true });
    expect(await listTags(g, showId)).toEqual([]);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "show_tag.deleted")).toEqual([
      {
        id: expect.any(String),
        type: "show_tag.deleted",
        resource_id: tag.id,
        data: { object: tag, show_id: showId },
      },
    ]);
    await expectProblem(
      await call("DELETE", `${tagsOf(showId)}/${tag.id}`, { key: g.key }),
      404,
      "not_found",
    );
    // The name is free again.
    await addTag(g, showId, { name: "Bronze", facet: "material" });
  });
});

describe("security", () => {
  it("GET takes shows:read; add, change and remove take shows:create, :update and :delete", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const tag = await addTag(g, showId, { name: "Bronze", facet: "material" });
    const cases: [string, string, string, Record<string, unknown> | undefined][] = [
      ["GET", tagsOf(showId), "shows:read", undefined],
      ["POST", tagsOf(showId), "shows:create", { name: "Steel", facet: "material" }],
      ["PATCH", `${tagsOf(showId)}/${tag.id}`, "shows:update", { color: "red" }],
      ["DELETE", `${tagsOf(showId)}/${tag.id}`, "shows:delete", undefined],
    ];
    for (const [method, path, scope, body] of cases) {
      const others = ["shows:read", "shows:create", "shows:update", "shows:delete"].filter(
        (s) => s !== scope,
      );
      const without = await g.keyWith(others);
      await expectProblem(await call(method, path, { key: without, body }), 403, "forbidden");
      const withIt = await g.keyWith([scope]);
      expect((await call(method, path, { key: withIt, body })).status).toBeLessThan(300);
    }
  });

  it("another gallery's show and tags are not found", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const showId = await newShow(g);
    const tag = await addTag(g, showId, { name: "Bronze", facet: "material" });
    await expectProblem(await call("GET", tagsOf(showId), { key: other.key }), 404, "not_found");
    await expectProblem(
      await call("POST", tagsOf(showId), { key: other.key, body: { name: "X", facet: "theme" } }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("PATCH", `${tagsOf(showId)}/${tag.id}`, { key: other.key, body: { color: "red" } }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("DELETE", `${tagsOf(showId)}/${tag.id}`, { key: other.key }),
      404,
      "not_found",
    );
    expect(await listTags(g, showId)).toEqual([tag]);
  });

  it("a viewer member reads the tags; a signed-in editor adds them", async () => {
    const g = await createGallery();
    const showId = await newShow(g);
    const viewer = await signedInMember(g.id, "viewer");
    const editor = await signedInMember(g.id, "editor");
    await addTag(g, showId, { name: "Bronze", facet: "material" }, editor.token);
    expect(await listTags(g, showId, viewer.token)).toHaveLength(1);
    await expectProblem(
      await call("POST", tagsOf(showId), { key: viewer.token, body: { name: "X", facet: "theme" } }),
      403,
      "forbidden",
    );
  });
});
