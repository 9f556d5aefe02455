import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { fromBase64url } from "../../lib/crypto";
import { call, db, type TestGallery } from "./gallery";

/** A real 2×3 PNG. */
export const PNG = fromBase64url(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEElEQVR4nGP4z8AARAwoFABE0AX7pM_egAAAAABJRU5ErkJggg",
)!;

/** A JPEG header as a camera writes it (SOI, JFIF APP0, a baseline frame of 640×480), then the end marker. */
export const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01,
  0x03, 0x11, 0x01, 0xff, 0xd9,
]);

export interface MintedTarget {
  storage_path: string;
  token: string;
  signed_url: string;
}

/** Mints an upload target for a new image of the artwork. */
export async function mintImageUpload(
  g: TestGallery,
  artworkId: string,
  body: Record<string, unknown> = { content_type: "image/png" },
): Promise<MintedTarget> {
  const response = await call("POST", `/gallery/artworks/${artworkId}/images/uploads`, { key: g.key, body });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as MintedTarget;
}

/** PUTs bytes to a signed URL, with no credential, as a browser or a script would. */
export function putUpload(
  target: Pick<MintedTarget, "signed_url">,
  bytes: Uint8Array,
  contentType = "image/png",
  headers: Record<string, string> = {},
): Promise<Response> {
  const path = new URL(target.signed_url).pathname.replace(/^\/v1/, "");
  return call("PUT", path, { rawBody: bytes, headers: { "content-type": contentType, ...headers } });
}

/** Mints, uploads the PNG: the storage path of a completed upload for the artwork. */
export async function uploadedImagePath(g: TestGallery, artworkId: string): Promise<string> {
  const target = await mintImageUpload(g, artworkId);
  const put = await putUpload(target, PNG);
  expect(put.status, await put.clone().text()).toBe(201);
  return target.storage_path;
}

/** Uploads the PNG and attaches it to the artwork; returns the image's id. */
export async function attachImage(
  g: TestGallery,
  artworkId: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const storage_path = await uploadedImagePath(g, artworkId);
  const response = await call("POST", `/gallery/artworks/${artworkId}/images`, {
    key: g.key,
    body: { storage_path, ...body },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Makes an upload target's expiry lie in the past. */
export async function expireUpload(storagePath: string): Promise<void> {
  await db().execute(
    sql`update upload_tokens set expires_at = now() - interval '1 second' where storage_path = ${storagePath}`,
  );
}
