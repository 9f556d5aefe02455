import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ArtworkImage, ArtworkImageList } from "../../lib/schemas/artwork-images";
import { Artwork } from "../../lib/schemas/artworks";
import { call, callJson, createGallery, db, type TestGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";
import { expectProblem } from "../helpers/problem";
import {
  attachImage,
  expireUpload,
  mintImageUpload,
  PNG,
  putUpload,
  uploadedImagePath,
} from "../helpers/uploads";

async function newArtwork(g: TestGallery, title = "Imaged"): Promise<string> {
  const response = await call("POST", "/gallery/artworks", { key: g.key, body: { title } });
  return ((await response.json()) as { id: string }).id;
}

async function artwork(g: TestGallery, id: string) {
  return (await callJson(Artwork, "GET", `/gallery/artworks/${id}`, { key: g.key })).body;
}

async function images(g: TestGallery, id: string) {
  const { status, body } = await callJson(ArtworkImageList, "GET", `/gallery/artworks/${id}/images`, {
    key: g.key,
  });
  expect(status).toBe(200);
  return body.data;
}

async function imageCount(id: string): Promise<number> {
  const rows = await db().execute<{ image_count: number }>(
    sql`select image_count from artworks where id = ${id}`,
  );
  return rows.rows[0]!.image_count;
}

async function eventsOf(g: TestGallery, type: string) {
  const response = await call("GET", `/gallery/events?type=${type}`, { key: g.key });
  return ((await response.json()) as { data: { data: { object: { id: string } } }[] }).data;
}

describe("adding an image: mint → PUT → attach", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("makes the artwork has_image with the image as thumbnail, served at its url", async () => {
    const artworkId = await newArtwork(g);
    const bare = await newArtwork(g, "Bare");
    const target = await mintImageUpload(g, artworkId);
    expect((await putUpload(target, PNG)).status).toBe(201);
    const { status, body } = await callJson(ArtworkImage, "POST", `/gallery/artworks/${artworkId}/images`, {
      key: g.key,
      body: { storage_path: target.storage_path, caption: "Front" },
      headers: { "Idempotency-Key": `attach-${crypto.randomUUID()}` },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      artwork_id: artworkId,
      storage_path: target.storage_path,
      url: `https://api.test/v1/assets/${target.storage_path}`,
      caption: "Front",
      position: 0,
      width: 2,
      height: 3,
      content_type: "image/png",
      size_bytes: PNG.byteLength,
    });
    // The image's id is the one its storage path was minted with.
    expect(target.storage_path).toContain(`/${body.id}.png`);

    const work = await artwork(g, artworkId);
    expect(work.thumbnail_url).toBe(body.url);
    expect(await imageCount(artworkId)).toBe(1);
    const withImage = await call("GET", "/gallery/artworks?has_image=true&limit=100", { key: g.key });
    const ids = ((await withImage.json()) as { data: { id: string }[] }).data.map((a) => a.id);
    expect(ids).toContain(artworkId);
    expect(ids).not.toContain(bare);
    const without = await call("GET", "/gallery/artworks?has_image=false&limit=100", { key: g.key });
    expect(((await without.json()) as { data: { id: string }[] }).data.map((a) => a.id)).toEqual([bare]);

    const served = await call("GET", new URL(work.thumbnail_url!).pathname.replace(/^\/v1/, ""));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    expect(await images(g, artworkId)).toEqual([body]);
    const created = await eventsOf(g, "artwork_image.created");
    expect(created.map((e) => e.data.object)).toContainEqual(body);
  });

  it("a member session may add images too", async () => {
    const artworkId = await newArtwork(g);
    const member = await createMember(g.id, "editor");
    const signIn = await call("POST", "/auth/sessions", {
      body: { email: member.email, password: member.password },
    });
    const session = ((await signIn.json()) as { token: string }).token;
    const minted = await call("POST", `/gallery/artworks/${artworkId}/images/uploads`, {
      key: session,
      body: { content_type: "image/png" },
    });
    expect(minted.status).toBe(201);
    const target = (await minted.json()) as { storage_path: string; signed_url: string };
    const rows = await db().execute<{ member_id: string }>(
      sql`select member_id from upload_tokens where storage_path = ${target.storage_path}`,
    );
    expect(rows.rows[0]!.member_id).toBe(member.id);
    expect((await putUpload(target, PNG)).status).toBe(201);
    const attached = await call("POST", `/gallery/artworks/${artworkId}/images`, {
      key: session,
      body: { storage_path: target.storage_path },
    });
    expect(attached.status).toBe(201);
  });

  it("refuses a storage path that is not a completed upload minted for this artwork", async () => {
    const artworkId = await newArtwork(g);
    const elsewhere = await newArtwork(g);
    const attach = (storage_path: string, id = artworkId) =>
      call("POST", `/gallery/artworks/${id}/images`, { key: g.key, body: { storage_path } });

    // Minted for another artwork of the gallery.
    const foreign = await uploadedImagePath(g, elsewhere);
    await expectProblem(await attach(foreign), 400, "invalid_request", {
      field: "storage_path",
      location: "body",
    });
    // Never minted at all, though well formed.
    const made = foreign.replace(/img_[0-9a-z]+/, "img_01aaaaaaaaaaaaaaaaaaaaaaaa");
    await expectProblem(await attach(made), 400, "invalid_request", {
      field: "storage_path",
      location: "body",
    });
    // Not a path this API mints.
    await expectProblem(await attach("../../etc/passwd"), 400, "invalid_request", {
      field: "storage_path",
      location: "body",
    });
    // Minted, but nothing uploaded yet.
    const pending = await mintImageUpload(g, artworkId);
    const notYet = await expectProblem(await attach(pending.storage_path), 409, "conflict");
    expect(notYet.details).toMatchObject({ upload: "pending" });
    // Uploaded and attached: not twice.
    await putUpload(pending, PNG);
    expect((await attach(pending.storage_path)).status).toBe(201);
    await expectProblem(await attach(pending.storage_path), 409, "conflict");
    expect(await imageCount(artworkId)).toBe(1);
  });

  it("an expired, never-used target cannot be uploaded to nor attached", async () => {
    const artworkId = await newArtwork(g);
    const target = await mintImageUpload(g, artworkId);
    await expireUpload(target.storage_path);
    await expectProblem(await putUpload(target, PNG), 410, "upload_token_expired");
    await expectProblem(
      await call("POST", `/gallery/artworks/${artworkId}/images`, {
        key: g.key,
        body: { storage_path: target.storage_path },
      }),
      409,
      "conflict",
    );
  });

  it("answers 404 for another gallery's artwork, on every image route", async () => {
    const artworkId = await newArtwork(g);
    const imageId = await attachImage(g, artworkId);
    const path = await uploadedImagePath(g, artworkId);
    const other = await createGallery();
    const as = { key: other.key };
    await expectProblem(await call("GET", `/gallery/artworks/${artworkId}/images`, as), 404, "not_found");
    await expectProblem(
      await call("POST", `/gallery/artworks/${artworkId}/images`, { ...as, body: { storage_path: path } }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("PATCH", `/gallery/artworks/${artworkId}/images/${imageId}`, {
        ...as,
        body: { caption: "x" },
      }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("DELETE", `/gallery/artworks/${artworkId}/images/${imageId}`, as),
      404,
      "not_found",
    );
    // Attaching this gallery's upload to the other gallery's own artwork is refused too.
    const theirs = await newArtwork(other);
    await expectProblem(
      await call("POST", `/gallery/artworks/${theirs}/images`, { ...as, body: { storage_path: path } }),
      400,
      "invalid_request",
    );
  });
});

describe("ordering, editing and removing images", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("inserts at a position, shifting the others; the first image is the thumbnail", async () => {
    const artworkId = await newArtwork(g);
    const a = await attachImage(g, artworkId, { caption: "A" });
    const b = await attachImage(g, artworkId, { caption: "B" });
    const c = await attachImage(g, artworkId, { caption: "C", position: 0 });
    const d = await attachImage(g, artworkId, { caption: "D", position: 99 });
    const list = await images(g, artworkId);
    expect(list.map((i) => [i.id, i.position])).toEqual([
      [c, 0],
      [a, 1],
      [b, 2],
      [d, 3],
    ]);
    expect((await artwork(g, artworkId)).thumbnail_url).toBe(list[0]!.url);
    expect(await imageCount(artworkId)).toBe(4);
  });

  it("moving an image reorders the others and changes the thumbnail", async () => {
    const artworkId = await newArtwork(g);
    const a = await attachImage(g, artworkId);
    const b = await attachImage(g, artworkId);
    const c = await attachImage(g, artworkId);
    const before = await artwork(g, artworkId);
    const moved = await callJson(ArtworkImage, "PATCH", `/gallery/artworks/${artworkId}/images/${c}`, {
      key: g.key,
      body: { position: 0 },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.position).toBe(0);
    let list = await images(g, artworkId);
    expect(list.map((i) => i.id)).toEqual([c, a, b]);
    const after = await artwork(g, artworkId);
    expect(after.thumbnail_url).toBe(moved.body.url);
    expect(after.thumbnail_url).not.toBe(before.thumbnail_url);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));

    // Down the list, and past its end: the last place.
    await call("PATCH", `/gallery/artworks/${artworkId}/images/${c}`, { key: g.key, body: { position: 50 } });
    list = await images(g, artworkId);
    expect(list.map((i) => [i.id, i.position])).toEqual([
      [a, 0],
      [b, 1],
      [c, 2],
    ]);
    expect((await artwork(g, artworkId)).thumbnail_url).toBe(list[0]!.url);

    const updates = await eventsOf(g, "artwork_image.updated");
    expect(updates.length).toBe(2);
  });

  it("a caption edit changes the image, not the artwork; a no-op records nothing", async () => {
    const artworkId = await newArtwork(g);
    const id = await attachImage(g, artworkId, { caption: "Old" });
    const before = await artwork(g, artworkId);
    const eventsBefore = (await eventsOf(g, "artwork_image.updated")).length;
    const { body } = await callJson(ArtworkImage, "PATCH", `/gallery/artworks/${artworkId}/images/${id}`, {
      key: g.key,
      body: { caption: "New" },
    });
    expect(body.caption).toBe("New");
    expect((await artwork(g, artworkId)).updated_at).toBe(before.updated_at);
    await call("PATCH", `/gallery/artworks/${artworkId}/images/${id}`, {
      key: g.key,
      body: { caption: "New" },
    });
    await call("PATCH", `/gallery/artworks/${artworkId}/images/${id}`, { key: g.key, body: { position: 7 } });
    expect((await eventsOf(g, "artwork_image.updated")).length).toBe(eventsBefore + 1);
  });

  it("deleting an image updates image_count and thumbnail_url and removes the stored file", async () => {
    const artworkId = await newArtwork(g);
    const first = await attachImage(g, artworkId);
    const second = await attachImage(g, artworkId);
    const [firstImage, secondImage] = await images(g, artworkId);
    const response = await call("DELETE", `/gallery/artworks/${artworkId}/images/${first}`, {
      key: g.key,
      headers: { "Idempotency-Key": `delete-${crypto.randomUUID()}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: first, deleted: true });
    expect(await imageCount(artworkId)).toBe(1);
    expect((await artwork(g, artworkId)).thumbnail_url).toBe(secondImage!.url);
    const remaining = await images(g, artworkId);
    expect(remaining.map((i) => [i.id, i.position])).toEqual([[second, 0]]);
    expect(await env.UPLOADS.head(firstImage!.storage_path)).toBeNull();
    await expectProblem(
      await call("GET", new URL(firstImage!.url).pathname.replace(/^\/v1/, "")),
      404,
      "not_found",
    );

    await call("DELETE", `/gallery/artworks/${artworkId}/images/${second}`, { key: g.key });
    const bare = await artwork(g, artworkId);
    expect(bare.thumbnail_url).toBeNull();
    expect(await imageCount(artworkId)).toBe(0);
    const deleted = await eventsOf(g, "artwork_image.deleted");
    expect(deleted.map((e) => e.data.object.id)).toEqual(expect.arrayContaining([first, second]));
  });

  it("deleting the artwork removes its stored images, attached or only uploaded", async () => {
    const artworkId = await newArtwork(g);
    await attachImage(g, artworkId);
    const loose = await uploadedImagePath(g, artworkId);
    const [attached] = await images(g, artworkId);
    expect(await env.UPLOADS.head(attached!.storage_path)).not.toBeNull();
    expect(await env.UPLOADS.head(loose)).not.toBeNull();
    const response = await call("DELETE", `/gallery/artworks/${artworkId}`, { key: g.key });
    expect(response.status).toBe(200);
    // The bytes go after the response (waitUntil): each probe is a storage read, not a sleep.
    let left = [attached!.storage_path, loose];
    for (let i = 0; i < 500 && left.length > 0; i++) {
      const heads = await Promise.all(left.map((path) => env.UPLOADS.head(path)));
      left = left.filter((_, n) => heads[n] !== null);
    }
    expect(left).toEqual([]);
  });

  it("images are refused beyond the caption limit and on unknown fields", async () => {
    const artworkId = await newArtwork(g);
    const id = await attachImage(g, artworkId);
    await expectProblem(
      await call("PATCH", `/gallery/artworks/${artworkId}/images/${id}`, {
        key: g.key,
        body: { caption: "x".repeat(1001) },
      }),
      400,
      "invalid_request",
      { field: "caption", location: "body" },
    );
    await expectProblem(
      await call("PATCH", `/gallery/artworks/${artworkId}/images/${id}`, {
        key: g.key,
        body: { position: -1 },
      }),
      400,
      "invalid_request",
      { field: "position", location: "body" },
    );
    await expectProblem(
      await call("PATCH", `/gallery/artworks/${artworkId}/images/${id}`, { key: g.key, body: { url: "x" } }),
      400,
      "invalid_request",
      { field: "url", location: "body" },
    );
  });
});
