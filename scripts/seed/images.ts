/**
 * The demo's image files: every artwork image row and publication cover of the seed gets a real picture
 * (./pictures), stored in the API Worker's R2 bucket at the row's storage path, as the signed upload would have
 * stored it, so the asset route serves each `url`, `thumbnail_url` and `cover_image_url`.
 */
import type pg from "pg";
import * as schema from "../../db/schema";
import { ASSET_CACHE_CONTROL } from "../../lib/uploads";
import type { LocalBucket } from "../wrangler";
import type { Insert, SeedContext } from "./context";
import {
  type Picture,
  type PictureSubject,
  renderArtworkPicture,
  renderCover,
  viewOfCaption,
} from "./pictures";

export interface StoredPicture {
  path: string;
  picture: Picture;
}

/** sharp encodes on libuv's pool: a few images in flight keep both cores busy without queueing hundreds. */
const IN_FLIGHT = 4;

async function eachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

type ArtworkRow = Insert<typeof schema.artworks>;

/** A work as its row describes it (the database's row or the seed's), which is what its pictures are drawn from. */
interface WorkFields {
  id: string;
  title: string;
  artistName: string | null;
  medium: string | null;
  year: number | null;
  heightCm: number | null;
  widthCm: number | null;
  depthCm: number | null;
}

const subjectOf = (w: WorkFields): PictureSubject => ({
  id: w.id,
  title: w.title,
  artist: w.artistName ?? "",
  medium: w.medium,
  year: w.year,
  heightCm: w.heightCm,
  widthCm: w.widthCm,
  depthCm: w.depthCm,
});

const fieldsOfRow = (row: ArtworkRow): WorkFields => ({
  id: row.id,
  title: row.title,
  artistName: row.artistName ?? null,
  medium: row.medium ?? null,
  year: row.year ?? null,
  heightCm: row.heightCm ?? null,
  widthCm: row.widthCm ?? null,
  depthCm: row.depthCm ?? null,
});

/**
 * Renders the seed's images and covers, and writes what each file really is (pixels, bytes, type) into its
 * image row. Call once every row is generated: a picture is drawn from its work's final row.
 */
export async function renderSeedPictures(ctx: SeedContext): Promise<StoredPicture[]> {
  const works = new Map(ctx.rows(schema.artworks).map((row) => [row.id, row]));
  const out: StoredPicture[] = [];
  await eachLimited(ctx.rows(schema.artworkImages), IN_FLIGHT, async (image) => {
    const work = works.get(image.artworkId);
    if (!work) throw new Error(`seed: image ${image.id} belongs to no generated artwork`);
    const picture = await renderArtworkPicture(
      subjectOf(fieldsOfRow(work)),
      viewOfCaption(image.caption ?? null),
      image.position,
    );
    Object.assign(image, {
      width: picture.width,
      height: picture.height,
      sizeBytes: picture.bytes.byteLength,
      contentType: picture.contentType,
    });
    out.push({ path: image.storagePath, picture });
  });
  await eachLimited(
    ctx.rows(schema.publications).filter((p) => p.coverImagePath),
    IN_FLIGHT,
    async (publication) => {
      const picture = await renderCover({
        id: publication.id,
        title: publication.title,
        kind: publication.kind as string,
      });
      out.push({ path: publication.coverImagePath!, picture });
    },
  );
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Puts in flight at once: each waits mostly on the local R2 store, not on this process. */
const PUTS_IN_FLIGHT = 32;

/** Stores each picture at its path with the metadata the signed upload records (type, cache policy, pixels). */
export async function storePictures(bucket: LocalBucket, pictures: readonly StoredPicture[]): Promise<void> {
  await eachLimited(pictures, PUTS_IN_FLIGHT, async ({ path, picture }) => {
    await bucket.put(path, picture.bytes, {
      httpMetadata: { contentType: picture.contentType, cacheControl: ASSET_CACHE_CONTROL },
      customMetadata: { width: String(picture.width), height: String(picture.height) },
    });
  });
}

/** Every storage path the gallery's rows name: its artworks' images and its publications' covers. */
async function imagePaths(client: pg.ClientBase, galleryId: string): Promise<string[]> {
  const result = await client.query<{ path: string }>(
    `select storage_path as path from artwork_images where gallery_id = $1
     union all select cover_image_path from publications where gallery_id = $1 and cover_image_path is not null
     order by 1`,
    [galleryId],
  );
  return result.rows.map((r) => r.path);
}

/** The storage paths the gallery's rows name that hold no object in the bucket. */
export async function missingPictures(
  client: pg.ClientBase,
  galleryId: string,
  bucket: LocalBucket,
): Promise<string[]> {
  // One listing of the gallery's folder (a page per thousand objects) rather than a request per path.
  const stored = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: `galleries/${galleryId}/`, ...(cursor ? { cursor } : {}) });
    for (const object of page.objects) stored.add(object.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return (await imagePaths(client, galleryId)).filter((path) => !stored.has(path));
}

/**
 * Draws again and stores the pictures of the gallery's rows whose objects are missing (the bucket's state was
 * removed, or the database was seeded elsewhere), from the rows as they are now. Returns how many were stored.
 */
export async function restorePictures(
  client: pg.ClientBase,
  galleryId: string,
  bucket: LocalBucket,
): Promise<number> {
  const missing = await missingPictures(client, galleryId, bucket);
  if (missing.length === 0) return 0;
  const images = await client.query<WorkFields & { path: string; caption: string | null; position: number }>(
    `select i.storage_path as path, i.caption, i.position, a.id, a.title, a.artist_name as "artistName", a.medium, a.year,
        a.height_cm as "heightCm", a.width_cm as "widthCm", a.depth_cm as "depthCm"
      from artwork_images i join artworks a on a.id = i.artwork_id
      where i.gallery_id = $1 and i.storage_path = any($2::text[])`,
    [galleryId, missing],
  );
  const covers = await client.query<{ path: string; id: string; title: string; kind: string }>(
    `select cover_image_path as path, id, title, kind from publications
      where gallery_id = $1 and cover_image_path = any($2::text[])`,
    [galleryId, missing],
  );
  const pictures: StoredPicture[] = [];
  await eachLimited(images.rows, IN_FLIGHT, async (row) => {
    pictures.push({
      path: row.path,
      picture: await renderArtworkPicture(subjectOf(row), viewOfCaption(row.caption), row.position),
    });
  });
  await eachLimited(covers.rows, IN_FLIGHT, async (row) => {
    pictures.push({ path: row.path, picture: await renderCover(row) });
  });
  await storePictures(bucket, pictures);
  return pictures.length;
}
