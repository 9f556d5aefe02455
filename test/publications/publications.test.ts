import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Publication } from "../../lib/schemas/publications";
import { ISO_MS, newArtwork } from "../contact-interactions/helpers";
import { call, createGallery, readJson, signedInMember, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";
import { expireUpload, JPEG, type MintedTarget, mintImageUpload, PNG, putUpload } from "../helpers/uploads";

/**
 * Publications: GET/POST /gallery/publications, GET/PATCH/DELETE /gallery/publications/{id}, POST
 * …/{id}/unpublish and the cover: POST …/{id}/cover-upload, PUT /uploads/{token}, PATCH cover_image_path.
 */

type PublicationBody = z.infer<typeof Publication>;

const BASE = "/gallery/publications";

async function createPublication(
  g: TestGallery,
  body: Record<string, unknown>,
  key = g.key,
): Promise<PublicationBody> {
  const res = await call("POST", BASE, { key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(Publication, res);
}

async function patchPublication(g: TestGallery, id: string, body: Record<string, unknown>) {
  const res = await call("PATCH", `${BASE}/${id}`, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Publication, res);
}

async function getPublication(key: string, id: string): Promise<PublicationBody> {
  const res = await call("GET", `${BASE}/${id}`, { key });
  expect(res.status).toBe(200);
  return readJson(Publication, res);
}

async function mintCover(
  g: TestGallery,
  id: string,
  body: Record<string, unknown> = { content_type: "image/png" },
): Promise<MintedTarget> {
  const res = await call("POST", `${BASE}/${id}/cover-upload`, { key: (await g.editor()).token, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as MintedTarget;
}

const types = async (g: TestGallery) =>
  (await outboxEvents(g.id)).filter((e) => e.type.startsWith("publication.")).map((e) => e.type);

describe("POST /gallery/publications", () => {
  it("records every field; published sets published_at; a price writes the pricing record", async () => {
    const g = await createGallery();
    const works = [await newArtwork(g, "One"), await newArtwork(g, "Two")];
    const pub = await createPublication(g, {
      title: "Tidewater — Exhibition Catalogue",
      kind: "catalogue",
      body: "Plates and texts.",
      visibility: "public",
      published: true,
      artwork_ids: [works[1], works[0]],
      price: { price_cents: 4500, currency: "EUR", price_visibility: "members" },
    });
    expect(pub).toEqual({
      id: expect.stringMatching(/^pub_[0-9a-z]{26}$/),
      title: "Tidewater — Exhibition Catalogue",
      slug: "tidewater-exhibition-catalogue",
      kind: "catalogue",
      body: "Plates and texts.",
      cover_image_path: null,
      cover_image_url: null,
      published: true,
      published_at: pub.created_at,
      visibility: "public",
      artwork_ids: [works[1], works[0]],
      price: { price_cents: 4500, currency: "EUR", price_visibility: "members" },
      created_at: expect.stringMatching(ISO_MS),
      updated_at: pub.created_at,
    });
    expect(Object.keys(pub)).toEqual(Object.keys(Publication.shape));
    const events = (await outboxEvents(g.id)).filter((e) => e.type.startsWith("publication."));
    expect(events).toEqual([
      { id: expect.any(String), type: "publication.created", resource_id: pub.id, data: { object: pub } },
      { id: expect.any(String), type: "publication.published", resource_id: pub.id, data: { object: pub } },
    ]);
    expect(await getPublication(g.key, pub.id)).toEqual(pub);
  });

  it("defaults: an unpublished private catalogue without price; the price defaults to the gallery's currency", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Notes" });
    expect(pub).toMatchObject({
      slug: "notes",
      kind: "catalogue",
      body: null,
      published: false,
      published_at: null,
      visibility: "private",
      artwork_ids: [],
      price: null,
    });
    expect(await types(g)).toEqual(["publication.created"]);
    const priced = await createPublication(g, { title: "Priced", price: { price_cents: 0 } });
    expect(priced.price).toEqual({ price_cents: 0, currency: "USD", price_visibility: "private" });
  });

  it("derives free slugs from the title; a given slug that is taken is 409 naming its holder", async () => {
    const g = await createGallery();
    const first = await createPublication(g, { title: "Café Société!" });
    const second = await createPublication(g, { title: "café société" });
    const third = await createPublication(g, { title: "Café  Société" });
    expect([first.slug, second.slug, third.slug]).toEqual([
      "cafe-societe",
      "cafe-societe-2",
      "cafe-societe-3",
    ]);
    expect((await createPublication(g, { title: "***" })).slug).toBe("publication");
    const res = await call("POST", BASE, { key: g.key, body: { title: "Other", slug: "cafe-societe-2" } });
    const problem = await expectProblem(res, 409, "conflict");
    expect(problem.details).toEqual({ existing_id: second.id, slug: "cafe-societe-2" });
    expect((await createPublication(g, { title: "Other", slug: "spring-2025" })).slug).toBe("spring-2025");
    // Slugs are per gallery.
    expect((await createPublication(await createGallery(), { title: "Café Société" })).slug).toBe(
      "cafe-societe",
    );
  });

  it.each([
    ["title", { title: undefined }],
    ["title", { title: " " }],
    ["slug", { slug: "Upper-Case" }],
    ["slug", { slug: "double--hyphen" }],
    ["slug", { slug: "-lead" }],
    ["kind", { kind: "book" }],
    ["visibility", { visibility: "secret" }],
    ["published", { published: "true" }],
    ["artwork_ids", { artwork_ids: [newId("art")] }],
    ["artwork_ids.0", { artwork_ids: ["nope"] }],
    ["price.price_cents", { price: { price_cents: -1 } }],
    ["price.price_cents", { price: { currency: "USD" } }],
    ["price.currency", { price: { price_cents: 100, currency: "usd" } }],
    ["price.price_visibility", { price: { price_cents: 100, price_visibility: "everyone" } }],
    ["cover_image_path", { cover_image_path: null }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const g = await createGallery();
    const body = { title: "Catalogue", ...change };
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
    expect((await getPage(g.key, BASE)).data).toEqual([]);
  });
});

describe("PATCH /gallery/publications/{id}", () => {
  it("publishes, unpublishes and publishes again: published_at follows, with its events", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Essay", kind: "essay" });
    const published = await patchPublication(g, pub.id, { published: true });
    expect(published.published).toBe(true);
    expect(published.published_at).toBe(published.updated_at);
    const events = (await outboxEvents(g.id)).filter((e) => e.type.startsWith("publication."));
    expect(events.slice(1)).toEqual([
      {
        id: expect.any(String),
        type: "publication.updated",
        resource_id: pub.id,
        data: { object: published, previous_attributes: { published: false, published_at: null } },
      },
      {
        id: expect.any(String),
        type: "publication.published",
        resource_id: pub.id,
        data: { object: published },
      },
    ]);
    // Publishing what is published changes nothing.
    expect(await patchPublication(g, pub.id, { published: true })).toEqual(published);
    const unpublished = await patchPublication(g, pub.id, { published: false });
    expect(unpublished).toMatchObject({ published: false, published_at: null });
    const again = await patchPublication(g, pub.id, { published: true });
    expect(again.published_at! > published.published_at!).toBe(true);
    expect(await types(g)).toEqual([
      "publication.created",
      "publication.updated",
      "publication.published",
      "publication.updated",
      "publication.unpublished",
      "publication.updated",
      "publication.published",
    ]);
  });

  it("POST …/unpublish answers the unpublished publication, once", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Press", kind: "press_release", published: true });
    const res = await call("POST", `${BASE}/${pub.id}/unpublish`, { key: g.key });
    expect(res.status).toBe(200);
    const body = await readJson(Publication, res);
    expect(body).toMatchObject({ id: pub.id, published: false, published_at: null });
    const again = await call("POST", `${BASE}/${pub.id}/unpublish`, { key: g.key });
    expect(await readJson(Publication, again)).toEqual(body);
    expect(await types(g)).toEqual([
      "publication.created",
      "publication.published",
      "publication.updated",
      "publication.unpublished",
    ]);
    await expectProblem(
      await call("POST", `${BASE}/${newId("pub")}/unpublish`, { key: g.key }),
      404,
      "not_found",
    );
  });

  it("writes, changes and removes the price; replaces the works; changes the slug", async () => {
    const g = await createGallery();
    const works = [await newArtwork(g, "One"), await newArtwork(g, "Two")];
    const pub = await createPublication(g, { title: "Catalogue", artwork_ids: [works[0]] });
    const priced = await patchPublication(g, pub.id, {
      price: { price_cents: 9900, price_visibility: "public" },
    });
    expect(priced.price).toEqual({ price_cents: 9900, currency: "USD", price_visibility: "public" });
    // The currency and visibility stay the current price's unless given.
    const repriced = await patchPublication(g, pub.id, { price: { price_cents: 12000 } });
    expect(repriced.price).toEqual({ price_cents: 12000, currency: "USD", price_visibility: "public" });
    const moved = await patchPublication(g, pub.id, {
      artwork_ids: [works[1], works[0]],
      slug: "catalogue-2025",
    });
    expect(moved).toMatchObject({ artwork_ids: [works[1], works[0]], slug: "catalogue-2025" });
    const unpriced = await patchPublication(g, pub.id, { price: null });
    expect(unpriced.price).toBeNull();
    const updates = (await outboxEvents(g.id)).filter((e) => e.type === "publication.updated");
    expect(updates.map((e) => e.data.previous_attributes)).toEqual([
      { price: null },
      { price: { price_cents: 9900, currency: "USD", price_visibility: "public" } },
      { artwork_ids: [works[0]], slug: "catalogue" },
      { price: { price_cents: 12000, currency: "USD", price_visibility: "public" } },
    ]);
  });

  it("409 for a slug another publication has; 400 naming artwork_ids for another gallery's work", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const a = await createPublication(g, { title: "First" });
    const b = await createPublication(g, { title: "Second" });
    const res = await call("PATCH", `${BASE}/${b.id}`, { key: g.key, body: { slug: "first" } });
    expect((await expectProblem(res, 409, "conflict")).details).toEqual({ existing_id: a.id, slug: "first" });
    const bad = await call("PATCH", `${BASE}/${b.id}`, {
      key: g.key,
      body: { artwork_ids: [await newArtwork(other)], title: "Renamed" },
    });
    await expectProblem(bad, 400, "invalid_request", { field: "artwork_ids", location: "body" });
    expect(await getPublication(g.key, b.id)).toEqual(b);
  });
});

describe("the cover: mint, PUT once, PATCH cover_image_path", () => {
  it("uploads a cover through the signed URL, sets it, and refuses to reuse the URL", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Catalogue" });
    const target = await mintCover(g, pub.id);
    expect(target).toMatchObject({
      storage_path: expect.stringMatching(
        new RegExp(`^galleries/${g.id}/publications/${pub.id}/cov_[0-9a-z]{26}\\.png$`),
      ),
      token: expect.stringMatching(/^gupl_/),
      signed_url: `https://api.test/v1/uploads/${target.token}`,
    });
    const put = await putUpload(target, PNG);
    expect(put.status, await put.clone().text()).toBe(201);
    // The same URL again: gone.
    await expectProblem(await putUpload(target, PNG), 410, "upload_token_used");

    const covered = await patchPublication(g, pub.id, { cover_image_path: target.storage_path });
    expect(covered).toMatchObject({
      cover_image_path: target.storage_path,
      cover_image_url: `https://api.test/v1/assets/${target.storage_path}`,
    });
    expect(await getPublication(g.key, pub.id)).toEqual(covered);
    const asset = await call("GET", `/assets/${target.storage_path}`);
    expect(asset.status).toBe(200);
    expect(new Uint8Array(await asset.arrayBuffer())).toEqual(PNG);
    const updated = (await outboxEvents(g.id)).filter((e) => e.type === "publication.updated");
    expect(updated.map((e) => e.data.previous_attributes)).toEqual([
      { cover_image_path: null, cover_image_url: null },
    ]);

    // A second cover replaces the first, whose stored file goes; null removes the cover.
    const next = await mintCover(g, pub.id, { content_type: "image/jpeg" });
    expect((await putUpload(next, JPEG, "image/jpeg")).status).toBe(201);
    const replaced = await patchPublication(g, pub.id, { cover_image_path: next.storage_path });
    expect(replaced.cover_image_path).toBe(next.storage_path);
    expect(await env.UPLOADS.head(target.storage_path)).toBeNull();
    expect(await patchPublication(g, pub.id, { cover_image_path: null })).toMatchObject({
      cover_image_path: null,
      cover_image_url: null,
    });
  });

  it("an expired URL is gone: 410, and its path cannot become the cover", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Catalogue" });
    const target = await mintCover(g, pub.id);
    await expireUpload(target.storage_path);
    await expectProblem(await putUpload(target, PNG), 410, "upload_token_expired");
    const res = await call("PATCH", `${BASE}/${pub.id}`, {
      key: g.key,
      body: { cover_image_path: target.storage_path },
    });
    await expectProblem(res, 400, "invalid_request", { field: "cover_image_path", location: "body" });
  });

  it("400 naming cover_image_path for a path never uploaded, another publication's, or an artwork image's", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Catalogue" });
    const other = await createPublication(g, { title: "Other" });
    const pending = await mintCover(g, pub.id);
    const othersCover = await mintCover(g, other.id);
    expect((await putUpload(othersCover, PNG)).status).toBe(201);
    const artworkId = await newArtwork(g);
    const image = await mintImageUpload(g, artworkId);
    expect((await putUpload(image, PNG)).status).toBe(201);
    const never = `galleries/${g.id}/publications/${pub.id}/${newId("cov")}.png`;
    for (const path of [pending.storage_path, othersCover.storage_path, image.storage_path, never]) {
      const res = await call("PATCH", `${BASE}/${pub.id}`, { key: g.key, body: { cover_image_path: path } });
      await expectProblem(res, 400, "invalid_request", { field: "cover_image_path", location: "body" });
    }
    const malformed = await call("PATCH", `${BASE}/${pub.id}`, {
      key: g.key,
      body: { cover_image_path: "covers/cover.png" },
    });
    await expectProblem(malformed, 400, "invalid_request", { field: "cover_image_path", location: "body" });
    expect((await getPublication(g.key, pub.id)).cover_image_path).toBeNull();
  });

  it("checks the image type and size on the PUT", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Catalogue" });
    const target = await mintCover(g, pub.id, { content_type: "image/png", size_bytes: 10 });
    await expectProblem(await putUpload(target, JPEG, "image/jpeg"), 415, "unsupported_media_type");
    await expectProblem(await putUpload(target, PNG), 413, "payload_too_large");
    const mint = await call("POST", `${BASE}/${pub.id}/cover-upload`, {
      key: (await g.editor()).token,
      body: { content_type: "application/pdf" },
    });
    await expectProblem(mint, 400, "invalid_request", { field: "content_type", location: "body" });
  });

  it("the mint takes a member session only: a secret key gets 403 saying why", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Catalogue" });
    const res = await call("POST", `${BASE}/${pub.id}/cover-upload`, {
      key: g.key,
      body: { content_type: "image/png" },
    });
    const problem = await expectProblem(res, 403, "forbidden");
    expect(problem.detail).toContain("the cover is uploaded from a browser by a signed-in member");
    const viewer = await signedInMember(g.id, "viewer");
    await expectProblem(
      await call("POST", `${BASE}/${pub.id}/cover-upload`, {
        key: viewer.token,
        body: { content_type: "image/png" },
      }),
      403,
      "forbidden",
    );
    const other = await createGallery();
    await expectProblem(
      await call("POST", `${BASE}/${pub.id}/cover-upload`, {
        key: (await other.editor()).token,
        body: { content_type: "image/png" },
      }),
      404,
      "not_found",
    );
  });
});

describe("gated prices", () => {
  it("a read-only key sees price_cents only when public; a viewer also when members; writers always", async () => {
    const g = await createGallery();
    const made: Record<string, PublicationBody> = {};
    for (const v of ["public", "members", "private"]) {
      made[v] = await createPublication(g, { title: v, price: { price_cents: 1000, price_visibility: v } });
    }
    const readKey = await g.keyWith(["publications:read"]);
    const viewer = await signedInMember(g.id, "viewer");
    const editor = await signedInMember(g.id, "editor");
    const seen = async (key: string) => {
      const single = [];
      for (const v of ["public", "members", "private"])
        single.push((await getPublication(key, made[v]!.id)).price);
      const listed = (await getPage<PublicationBody>(key, BASE, "sort=created&dir=asc")).data.map(
        (p) => p.price,
      );
      expect(listed).toEqual(single);
      return single.map((p) => p?.price_cents);
    };
    expect(await seen(readKey)).toEqual([1000, null, null]);
    expect(await seen(viewer.token)).toEqual([1000, 1000, null]);
    expect(await seen(editor.token)).toEqual([1000, 1000, 1000]);
    expect(await seen(g.key)).toEqual([1000, 1000, 1000]);
    // The object still says there is a price, in which currency, to whom it is shown.
    expect((await getPublication(readKey, made.private!.id)).price).toEqual({
      price_cents: null,
      currency: "USD",
      price_visibility: "private",
    });
  });

  it("events show a read-only caller the price as the publication's own read does", async () => {
    const g = await createGallery();
    await createPublication(g, {
      title: "Public",
      price: { price_cents: 1000, currency: "USD", price_visibility: "public" },
    });
    await createPublication(g, {
      title: "Private",
      price: { price_cents: 2000, currency: "USD", price_visibility: "private" },
    });
    const readKey = await g.keyWith(["events:read", "publications:read"]);
    const page = await getPage<{ data: { object: PublicationBody } }>(
      readKey,
      "/gallery/events",
      "type=publication.created",
    );
    expect(page.data.map((e) => e.data.object.price)).toEqual([
      { price_cents: null, currency: "USD", price_visibility: "private" },
      { price_cents: 1000, currency: "USD", price_visibility: "public" },
    ]);
    const full = await getPage<{ data: { object: PublicationBody } }>(
      g.key,
      "/gallery/events",
      "type=publication.created",
    );
    expect(full.data.map((e) => e.data.object.price?.price_cents)).toEqual([2000, 1000]);
    // Reading a publication's events takes what reading the publication takes.
    const eventsOnly = await g.keyWith(["events:read"]);
    expect((await getPage(eventsOnly, "/gallery/events", "type=publication.created")).data).toEqual([]);
  });
});

describe("GET /gallery/publications and DELETE", () => {
  it("filters by published, kind, visibility and artwork; pages by cursor", async () => {
    const g = await createGallery();
    const work = await newArtwork(g);
    const a = await createPublication(g, {
      title: "A",
      kind: "article",
      published: true,
      visibility: "public",
    });
    const b = await createPublication(g, { title: "B", artwork_ids: [work] });
    const c = await createPublication(g, { title: "C", kind: "article", visibility: "unlisted" });
    const ids = async (q: string) => (await getPage<PublicationBody>(g.key, BASE, q)).data.map((p) => p.id);
    expect(await ids("")).toEqual([c.id, b.id, a.id]);
    expect(await ids("published=true")).toEqual([a.id]);
    expect(await ids("published=false")).toEqual([c.id, b.id]);
    expect(await ids("kind=article")).toEqual([c.id, a.id]);
    expect(await ids("visibility=unlisted")).toEqual([c.id]);
    expect(await ids(`artwork_id=${work}`)).toEqual([b.id]);
    const pages = await walkPages<PublicationBody>(g.key, BASE, { limit: "2", dir: "asc" });
    expect(pages.flatMap((p) => p.data.map((x) => x.id))).toEqual([a.id, b.id, c.id]);
    await patchPublication(g, a.id, { title: "A2" });
    expect((await ids("sort=updated"))[0]).toBe(a.id);
    await expectProblem(await call("GET", `${BASE}?kind=book`, { key: g.key }), 400, "invalid_request", {
      field: "kind",
    });
    await expectProblem(await call("GET", `${BASE}?published=yes`, { key: g.key }), 400, "invalid_request", {
      field: "published",
    });
  });

  it("deletes the publication with its price and cover file; publication.deleted carries its last state", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Gone", price: { price_cents: 100 } });
    const target = await mintCover(g, pub.id);
    expect((await putUpload(target, PNG)).status).toBe(201);
    const covered = await patchPublication(g, pub.id, { cover_image_path: target.storage_path });
    const res = await call("DELETE", `${BASE}/${pub.id}`, { key: g.key });
    expect(await res.json()).toEqual({ id: pub.id, deleted: true });
    await expectProblem(await call("GET", `${BASE}/${pub.id}`, { key: g.key }), 404, "not_found");
    expect(await env.UPLOADS.head(target.storage_path)).toBeNull();
    const deleted = (await outboxEvents(g.id)).filter((e) => e.type === "publication.deleted");
    expect(deleted.map((e) => e.data)).toEqual([{ object: covered }]);
    await expectProblem(await call("DELETE", `${BASE}/${pub.id}`, { key: g.key }), 404, "not_found");
  });
});

describe("security", () => {
  it("each operation takes its publications scope", async () => {
    const g = await createGallery();
    const pub = await createPublication(g, { title: "Scoped" });
    const cases: [string, string, string, Record<string, unknown> | undefined][] = [
      ["GET", BASE, "publications:read", undefined],
      ["POST", BASE, "publications:create", { title: "X" }],
      ["GET", `${BASE}/${pub.id}`, "publications:read", undefined],
      ["PATCH", `${BASE}/${pub.id}`, "publications:update", { title: "Y" }],
      ["POST", `${BASE}/${pub.id}/unpublish`, "publications:update", undefined],
      ["DELETE", `${BASE}/${pub.id}`, "publications:delete", undefined],
    ];
    for (const [method, path, scope, body] of cases) {
      const all = ["publications:read", "publications:create", "publications:update", "publications:delete"];
      const without = await g.keyWith(all.filter((s) => s !== scope));
      await expectProblem(await call(method, path, { key: without, body }), 403, "forbidden");
      expect((await call(method, path, { key: await g.keyWith([scope]), body })).status).toBeLessThan(300);
    }
  });

  it("another gallery's publication is not found and never listed", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const pub = await createPublication(g, { title: "Mine" });
    for (const [method, path, body] of [
      ["GET", `${BASE}/${pub.id}`, undefined],
      ["PATCH", `${BASE}/${pub.id}`, { title: "Theirs" }],
      ["POST", `${BASE}/${pub.id}/unpublish`, undefined],
      ["DELETE", `${BASE}/${pub.id}`, undefined],
    ] as const) {
      await expectProblem(await call(method, path, { key: other.key, body }), 404, "not_found");
    }
    expect((await getPage(other.key, BASE)).data).toEqual([]);
    // Another gallery's finished cover upload cannot become this publication's cover.
    const theirs = await createPublication(other, { title: "Theirs" });
    const target = await mintCover(other, theirs.id);
    expect((await putUpload(target, PNG)).status).toBe(201);
    const res = await call("PATCH", `${BASE}/${pub.id}`, {
      key: g.key,
      body: { cover_image_path: target.storage_path },
    });
    await expectProblem(res, 400, "invalid_request", { field: "cover_image_path", location: "body" });
  });
});
