import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../lib/crypto";
import { detectImage } from "../../lib/image-type";
import { SignedUploadTarget, StoredUpload } from "../../lib/schemas/uploads";
import { call, callJson, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { expireUpload, JPEG, mintImageUpload, PNG, putUpload } from "../helpers/uploads";

async function newArtwork(g: TestGallery): Promise<string> {
  const response = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Upload target" } });
  return ((await response.json()) as { id: string }).id;
}

describe("minting a signed upload target", () => {
  let g: TestGallery;
  let artworkId: string;
  beforeAll(async () => {
    g = await createGallery();
    artworkId = await newArtwork(g);
  });

  it("answers storage_path, token and signed_url; stores only the token's SHA-256", async () => {
    const { status, body } = await callJson(
      SignedUploadTarget,
      "POST",
      `/gallery/artworks/${artworkId}/images/uploads`,
      { key: g.key, body: { content_type: "image/jpeg", size_bytes: 5000 } },
    );
    expect(status).toBe(201);
    expect(body.storage_path).toMatch(
      new RegExp(`^galleries/${g.id}/artworks/${artworkId}/img_[0-9a-z]{26}\\.jpg$`),
    );
    expect(body.token).toMatch(/^gupl_[A-Za-z0-9_-]{43}$/);
    expect(body.signed_url).toBe(`https://api.test/v1/uploads/${body.token}`);
    expect(Object.keys(body)).toEqual(["storage_path", "token", "signed_url"]);
    const rows = await db().execute<{
      token_hash: string;
      purpose: string;
      resource_id: string;
      actor_id: string;
      content_type: string;
      max_bytes: number;
      ttl_seconds: number;
    }>(
      sql`select token_hash, purpose, resource_id, actor_id, content_type, max_bytes,
          extract(epoch from expires_at - created_at)::float8 as ttl_seconds
        from upload_tokens where storage_path = ${body.storage_path}`,
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]!.token_hash).toBe(await sha256Hex(body.token!));
    // What the URL takes is what the mint named (the type, the size) for 15 minutes.
    expect(rows.rows[0]).toMatchObject({
      purpose: "artwork_image",
      resource_id: artworkId,
      content_type: "image/jpeg",
      max_bytes: 5000,
    });
    expect(rows.rows[0]!.ttl_seconds).toBeGreaterThan(14 * 60);
    expect(rows.rows[0]!.ttl_seconds).toBeLessThanOrEqual(15 * 60);
    const everything = JSON.stringify(
      (await db().execute(sql`select * from upload_tokens where storage_path = ${body.storage_path}`)).rows,
    );
    expect(everything).not.toContain(body.token!);
  });

  it("refuses a type that is not an image type, and a size beyond the limit", async () => {
    const path = `/gallery/artworks/${artworkId}/images/uploads`;
    for (const content_type of ["image/svg+xml", "text/html", "image/tiff", ""]) {
      await expectProblem(
        await call("POST", path, { key: g.key, body: { content_type } }),
        400,
        "invalid_request",
        {
          field: "content_type",
          location: "body",
        },
      );
    }
    await expectProblem(
      await call("POST", path, {
        key: g.key,
        body: { content_type: "image/png", size_bytes: 20 * 1024 * 1024 + 1 },
      }),
      400,
      "invalid_request",
      { field: "size_bytes", location: "body" },
    );
  });

  it("answers 404 for another gallery's artwork", async () => {
    const other = await createGallery();
    await expectProblem(
      await call("POST", `/gallery/artworks/${artworkId}/images/uploads`, {
        key: other.key,
        body: { content_type: "image/png" },
      }),
      404,
      "not_found",
    );
  });
});

describe("PUT /v1/uploads/{token}", () => {
  let g: TestGallery;
  let artworkId: string;
  beforeAll(async () => {
    g = await createGallery();
    artworkId = await newArtwork(g);
  });

  it("stores the bytes in R2 under the storage path, with their type and size", async () => {
    const target = await mintImageUpload(g, artworkId);
    const response = await putUpload(target, PNG);
    expect(response.status).toBe(201);
    const stored = await readJson(StoredUpload, response);
    expect(stored).toMatchObject({
      storage_path: target.storage_path,
      url: `https://api.test/v1/assets/${target.storage_path}`,
      content_type: "image/png",
      size_bytes: PNG.byteLength,
      width: 2,
      height: 3,
    });
    const object = await env.UPLOADS.get(target.storage_path);
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(PNG);
  });

  it("takes a JPEG and reads its size from the frame header", async () => {
    const target = await mintImageUpload(g, artworkId, { content_type: "image/jpeg" });
    const stored = await readJson(StoredUpload, await putUpload(target, JPEG, "image/jpeg"));
    expect(stored).toMatchObject({ content_type: "image/jpeg", width: 640, height: 480 });
  });

  it("works once: a second PUT with the token is 410 upload_token_used", async () => {
    const target = await mintImageUpload(g, artworkId);
    expect((await putUpload(target, PNG)).status).toBe(201);
    const again = await expectProblem(await putUpload(target, PNG), 410, "upload_token_used");
    expect(again.details).toHaveProperty("used_at");
  });

  it("of two concurrent PUTs with one token, exactly one stores", async () => {
    const target = await mintImageUpload(g, artworkId);
    const statuses = (await Promise.all([putUpload(target, PNG), putUpload(target, PNG)])).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual([201, 410]);
  });

  it("refuses an expired token: 410 upload_token_expired, nothing stored", async () => {
    const target = await mintImageUpload(g, artworkId);
    await expireUpload(target.storage_path);
    await expectProblem(await putUpload(target, PNG), 410, "upload_token_expired");
    expect(await env.UPLOADS.head(target.storage_path)).toBeNull();
  });

  it("refuses another Content-Type than the one minted: 415, and the token stays usable", async () => {
    const target = await mintImageUpload(g, artworkId);
    await expectProblem(await putUpload(target, PNG, "image/jpeg"), 415, "unsupported_media_type");
    await expectProblem(await putUpload(target, PNG, "application/json"), 415, "unsupported_media_type");
    expect((await putUpload(target, PNG)).status).toBe(201);
  });

  it("refuses bytes that are not the declared image type: 415", async () => {
    const target = await mintImageUpload(g, artworkId);
    const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    const body = await expectProblem(await putUpload(target, html), 415, "unsupported_media_type");
    expect(body.details).toMatchObject({ expected_content_type: "image/png", detected_content_type: null });
    const jpegAsPng = await expectProblem(await putUpload(target, JPEG), 415, "unsupported_media_type");
    expect(jpegAsPng.details).toMatchObject({ detected_content_type: "image/jpeg" });
    expect(await env.UPLOADS.head(target.storage_path)).toBeNull();
  });

  it("refuses an empty body: 400", async () => {
    const target = await mintImageUpload(g, artworkId);
    await expectProblem(await putUpload(target, new Uint8Array()), 400, "invalid_request");
  });

  it("refuses more bytes than max_bytes: 413, by Content-Length and by the bytes themselves", async () => {
    const target = await mintImageUpload(g, artworkId, {
      content_type: "image/png",
      size_bytes: PNG.byteLength - 1,
    });
    await expectProblem(await putUpload(target, PNG), 413, "payload_too_large");
    // Streamed without a length: the limit holds as the bytes arrive.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(PNG);
        controller.close();
      },
    });
    const path = new URL(target.signed_url).pathname;
    const response = await call("PUT", path.replace(/^\/v1/, ""), {
      rawBody: stream as unknown as Uint8Array,
      headers: { "content-type": "image/png" },
    });
    await expectProblem(response, 413, "payload_too_large");
    const fits = await mintImageUpload(g, artworkId, {
      content_type: "image/png",
      size_bytes: PNG.byteLength,
    });
    expect((await putUpload(fits, PNG)).status).toBe(201);
  });

  it("takes an image larger than the 1 MiB limit of JSON bodies", async () => {
    const big = new Uint8Array(3 * 1024 * 1024);
    big.set(PNG.subarray(0, 33));
    const target = await mintImageUpload(g, artworkId);
    const response = await putUpload(target, big);
    expect(response.status, await response.clone().text()).toBe(201);
  });

  it("answers 404 to an unknown token, and ignores any other credential", async () => {
    const unknown = `gupl_${"A".repeat(43)}`;
    await expectProblem(
      await putUpload({ signed_url: `https://api.test/v1/uploads/${unknown}` }, PNG),
      404,
      "not_found",
    );
    const target = await mintImageUpload(g, artworkId);
    const withKey = await putUpload(target, PNG, "image/png", { authorization: `Bearer ${g.key}` });
    expect(withKey.status).toBe(201);
  });
});

describe("GET /v1/assets/{storage path}", () => {
  it("serves the stored bytes with their type, long caching and nosniff; 404 for an unknown path", async () => {
    const g = await createGallery();
    const target = await mintImageUpload(g, await newArtwork(g));
    await putUpload(target, PNG);
    const response = await call("GET", `/assets/${target.storage_path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("etag")).toBeTruthy();
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
    // A browser sending its session cookie along still gets a cacheable public image.
    const withCookie = await call("GET", `/assets/${target.storage_path}`, {
      headers: { cookie: "gallery_session=gss_x" },
    });
    expect(withCookie.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    await withCookie.arrayBuffer();
    const missing = target.storage_path.replace(/img_[0-9a-z]+/, "img_01aaaaaaaaaaaaaaaaaaaaaaaa");
    await expectProblem(await call("GET", `/assets/${missing}`), 404, "not_found");
    await expectProblem(
      await call("GET", "/assets/galleries/x/y/z/..%2F..%2Fsecret"),
      400,
      "invalid_request",
    );
  });
});

describe("detectImage", () => {
  it("reads the type and size of PNG, JPEG, GIF and WebP headers, and refuses anything else", () => {
    expect(detectImage(PNG)).toEqual({ contentType: "image/png", width: 2, height: 3 });
    expect(detectImage(JPEG)).toEqual({ contentType: "image/jpeg", width: 640, height: 480 });
    const gif = new Uint8Array([...new TextEncoder().encode("GIF89a"), 0x10, 0x00, 0x20, 0x00, 0x80]);
    expect(detectImage(gif)).toEqual({ contentType: "image/gif", width: 16, height: 32 });
    const vp8x = new Uint8Array(30);
    vp8x.set(new TextEncoder().encode("RIFF"), 0);
    vp8x.set(new TextEncoder().encode("WEBPVP8X"), 8);
    vp8x.set([99, 0, 0, 49, 0, 0], 24);
    expect(detectImage(vp8x)).toEqual({ contentType: "image/webp", width: 100, height: 50 });
    expect(detectImage(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(detectImage(new Uint8Array([0xff, 0xd8]))).toBeNull();
  });
});
