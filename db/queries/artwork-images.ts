import { and, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { ArtworkImage } from "../../lib/schemas/artwork-images";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { artworkImages } from "../schema";

/**
 * An artwork's images. They belong to the live work (no draft): every write applies at once and keeps the
 * artwork's `image_count` and `thumbnail_url` (the first image's url) right in the same transaction, so the
 * artworks list filters and shows them with no join. Positions are dense (0..n-1) and every image write locks
 * the artwork's row first, so concurrent writes to one work's images apply one after the other.
 */

export const artworkImageResource = resource({
  schema: ArtworkImage,
  table: artworkImages,
  alias: "im",
  name: "artwork_image",
});

export interface ArtworkImageState {
  body: Record<string, unknown>;
  position: number;
  /** How many images the artwork has. */
  imageCount: number;
  storagePath: string;
  updatedAt: string;
}

/** One image of an artwork in the gallery, with what a guarded write needs, or null. One round trip. */
export async function findArtworkImage(
  db: Db,
  galleryId: string,
  artworkId: string,
  id: string,
): Promise<ArtworkImageState | null> {
  const result = await db.execute<{
    body: Record<string, unknown>;
    position: number;
    image_count: number;
    storage_path: string;
    updated_at: string;
  }>(sql`select ${artworkImageResource.json({})} as body, im.position, im.storage_path,
      (select count(*)::int from artwork_images o where o.artwork_id = im.artwork_id) as image_count,
      ${isoMs(sql`im.updated_at`)} as updated_at
    from artwork_images im where im.gallery_id = ${galleryId} and im.artwork_id = ${artworkId} and im.id = ${id}`);
  const row = result.rows[0];
  return row
    ? {
        body: row.body,
        position: row.position,
        imageCount: row.image_count,
        storagePath: row.storage_path,
        updatedAt: row.updated_at,
      }
    : null;
}

/** Whether the artwork is the gallery's. */
export async function artworkExists(db: Db, galleryId: string, id: string): Promise<boolean> {
  const result = await db.execute(sql`select 1 from artworks where gallery_id = ${galleryId} and id = ${id}`);
  return result.rows.length > 0;
}

/** An artwork's images, in order, as `{data, next_cursor}` JSON text; null when the artwork is not the gallery's. */
export async function artworkImagesText(
  db: Db,
  galleryId: string,
  artworkId: string,
): Promise<string | null> {
  const result = await db.execute<{ body: string | null }>(sql`select case when exists
      (select 1 from artworks where gallery_id = ${galleryId} and id = ${artworkId})
    then json_build_object('data', coalesce((select json_agg(${artworkImageResource.json({})} order by im.position, im.id)
        from artwork_images im where im.gallery_id = ${galleryId} and im.artwork_id = ${artworkId}), '[]'::json),
      'next_cursor', null)::text end as body`);
  return result.rows[0]?.body ?? null;
}

/** What attaching an upload to an artwork needs to know, read in one round trip. */
export interface AttachState {
  artworkExists: boolean;
  imageCount: number;
  /** The upload target minted at this storage path in the gallery, if any. */
  upload: { purpose: string; resourceId: string | null; usedAt: string | null } | null;
  /** An image (of any artwork of the gallery) already holds this storage path. */
  attached: boolean;
}

export async function findAttachState(
  db: Db,
  galleryId: string,
  artworkId: string,
  storagePath: string,
): Promise<AttachState> {
  const result = await db.execute<{
    artwork_exists: boolean;
    image_count: number;
    purpose: string | null;
    resource_id: string | null;
    used_at: string | null;
    minted: boolean;
    attached: boolean;
  }>(sql`select
      exists (select 1 from artworks where gallery_id = ${galleryId} and id = ${artworkId}) as artwork_exists,
      (select count(*)::int from artwork_images where gallery_id = ${galleryId} and artwork_id = ${artworkId}) as image_count,
      t.id is not null as minted, t.purpose, t.resource_id, ${isoMs(sql`t.used_at`)} as used_at,
      exists (select 1 from artwork_images where gallery_id = ${galleryId} and storage_path = ${storagePath}) as attached
    from (select 1) one
    left join upload_tokens t on t.gallery_id = ${galleryId} and t.storage_path = ${storagePath}`);
  const row = result.rows[0]!;
  return {
    artworkExists: row.artwork_exists,
    imageCount: row.image_count,
    upload: row.minted ? { purpose: row.purpose!, resourceId: row.resource_id, usedAt: row.used_at } : null,
    attached: row.attached,
  };
}

/**
 * Statements that write images, composed into one transaction by services/write.ts; none of them runs on its
 * own. Every image write starts with `lockArtwork` and ends with `refreshArtworkImages`.
 */

/** Locks the artwork's row for the transaction; aborts (409 concurrent_modification) if it is gone. */
export function lockArtwork(galleryId: string, artworkId: string): SQL {
  return sql`with locked as (select 1 from artworks where gallery_id = ${galleryId} and id = ${artworkId} for update)
    select expect_one_row((select count(*) from locked))`;
}

/**
 * Sets the artwork's image_count and thumbnail_url from its images as they now are; its updated_at moves only
 * when one of them changed (a caption edit leaves the artwork as it was).
 */
export function refreshArtworkImages(galleryId: string, artworkId: string, at: string): SQL {
  return sql`with next as (
      select count(*)::int as n,
        (select url from artwork_images where artwork_id = ${artworkId} order by position, id limit 1) as thumb
      from artwork_images where artwork_id = ${artworkId})
    update artworks a set image_count = next.n, thumbnail_url = next.thumb,
      updated_at = case when (a.image_count, a.thumbnail_url) is distinct from (next.n, next.thumb)
        then greatest(${at}::timestamptz, a.updated_at + interval '1 millisecond') else a.updated_at end
    from next where a.gallery_id = ${galleryId} and a.id = ${artworkId}`;
}

/** Moves the images at `from` and after one place down, to make room at `from`. */
export function openPosition(artworkId: string, from: number, at: string): SQL {
  return sql`update artwork_images set position = position + 1, updated_at = ${at}
    where artwork_id = ${artworkId} and position >= ${from}`;
}

/** Moves the images after `position` one place up, closing the gap a removed image left. */
export function closePosition(artworkId: string, position: number, at: string): SQL {
  return sql`update artwork_images set position = position - 1, updated_at = ${at}
    where artwork_id = ${artworkId} and position > ${position}`;
}

export interface NewArtworkImage {
  id: string;
  storagePath: string;
  url: string;
  caption: string | null;
  width: number | null;
  height: number | null;
  contentType: string;
  sizeBytes: number;
}

/** Inserts the image at `position`, or after the last image when that is beyond the end (or not given). */
export function insertArtworkImage(
  galleryId: string,
  artworkId: string,
  image: NewArtworkImage,
  position: number | null,
  at: string,
): SQL {
  return sql`insert into artwork_images (id, gallery_id, artwork_id, storage_path, url, caption, width, height,
      content_type, size_bytes, position, created_at, updated_at)
    select ${image.id}, ${galleryId}, ${artworkId}, ${image.storagePath}, ${image.url}, ${image.caption},
      ${image.width}::int, ${image.height}::int, ${image.contentType}, ${image.sizeBytes}::int,
      least(coalesce(${position}::int, n), n), ${at}, ${at}
    from (select count(*)::int as n from artwork_images where artwork_id = ${artworkId}) c`;
}

function sameImage(galleryId: string, artworkId: string, id: string, readUpdatedAt: string): SQL | undefined {
  return and(
    eq(artworkImages.galleryId, galleryId),
    eq(artworkImages.artworkId, artworkId),
    eq(artworkImages.id, id),
    eq(artworkImages.updatedAt, readUpdatedAt),
  );
}

/** The UPDATE for `guarded()`: sets the caption (when given) and moves updated_at, on the row exactly as read. */
export function updateArtworkImageStatement(
  db: Db,
  galleryId: string,
  artworkId: string,
  id: string,
  caption: string | null | undefined,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  return db
    .update(artworkImages)
    .set({ ...(caption !== undefined ? { caption } : {}), updatedAt: at })
    .where(sameImage(galleryId, artworkId, id, readUpdatedAt));
}

/**
 * Moves the image from `from` to `to` (clamped to the last place), shifting the images between by one place, in
 * one statement.
 */
export function moveArtworkImage(artworkId: string, id: string, from: number, to: number, at: string): SQL {
  return sql`with target as (select least(${to}::int, count(*)::int - 1) as p
      from artwork_images where artwork_id = ${artworkId})
    update artwork_images im set updated_at = ${at}, position = case
        when im.id = ${id} then target.p
        when target.p < ${from}::int then im.position + 1
        else im.position - 1 end
    from target
    where im.artwork_id = ${artworkId} and target.p <> ${from}::int
      and (im.id = ${id} or im.position between least(${from}::int, target.p) and greatest(${from}::int, target.p))`;
}

/** The DELETE for `guarded()`: matches only the row as it was read. */
export function deleteArtworkImageStatement(
  db: Db,
  galleryId: string,
  artworkId: string,
  id: string,
  readUpdatedAt: string,
): SQLWrapper {
  return db.delete(artworkImages).where(sameImage(galleryId, artworkId, id, readUpdatedAt));
}
