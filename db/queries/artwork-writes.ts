import { and, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { newId } from "../../lib/ids";
import type { ArtworkCreateInput, ArtworkUpdateInput } from "../../lib/schemas/artworks";
import type { Db } from "../client";
import {
  artists,
  artworkActivityEvents,
  artworkArtists,
  artworkDimensions,
  artworks,
  artworkTags,
  customStatuses,
  locations,
  tags,
} from "../schema";
import { artworkDimensionResource, artworkResource } from "./artworks";
import { expectReferences } from "./rows";

/**
 * Statements that write artworks. They are composed into one transaction by services/write.ts; none of them
 * runs on its own.
 */

type Relations = Pick<ArtworkUpdateInput, "artists" | "dimensions" | "tag_ids">;

/** Checks that every id the input names belongs to the caller's gallery. */
export function artworkReferenceChecks(galleryId: string, input: ArtworkUpdateInput): SQL[] {
  const checks: SQL[] = [];
  if (input.artists?.length) {
    const ids = input.artists.map((a) => a.artist_id);
    checks.push(expectReferences(artists, galleryId, ids, "artists[].artist_id"));
  }
  if (input.tag_ids?.length) checks.push(expectReferences(tags, galleryId, input.tag_ids, "tag_ids[]"));
  if (input.location_id) {
    checks.push(expectReferences(locations, galleryId, [input.location_id], "location_id"));
  }
  if (input.custom_status_id) {
    checks.push(expectReferences(customStatuses, galleryId, [input.custom_status_id], "custom_status_id"));
  }
  if (input.parent_artwork_id) {
    checks.push(expectReferences(artworks, galleryId, [input.parent_artwork_id], "parent_artwork_id"));
  }
  return checks;
}

/** The fields of the input that are columns of the artwork (the lists are written to their own tables). */
function scalarFields(input: ArtworkUpdateInput) {
  const { artists: _a, dimensions: _d, tag_ids: _t, ...scalars } = input;
  return scalars;
}

/** Replaces the artwork's credited artists, dimensions and tags with the given lists (when given). */
function relationStatements(
  db: Db,
  galleryId: string,
  artworkId: string,
  input: Relations,
  replace: boolean,
): SQLWrapper[] {
  const out: SQLWrapper[] = [];
  if (input.artists) {
    if (replace) out.push(db.delete(artworkArtists).where(eq(artworkArtists.artworkId, artworkId)));
    if (input.artists.length) {
      out.push(
        db.insert(artworkArtists).values(
          input.artists.map((a, position) => ({
            galleryId,
            artworkId,
            artistId: a.artist_id,
            role: a.role,
            position,
          })),
        ),
      );
    }
    // The first primary artist (else the first credited) is denormalised onto the artwork for lists and search.
    const primary = input.artists.find((a) => a.role === "primary") ?? input.artists[0];
    out.push(
      primary
        ? sql`update artworks set artist_id = ar.id, artist_name = ar.name from artists ar
            where artworks.id = ${artworkId} and ar.id = ${primary.artist_id}`
        : db.update(artworks).set({ artistId: null, artistName: null }).where(eq(artworks.id, artworkId)),
    );
  }
  if (input.dimensions) {
    if (replace) out.push(db.delete(artworkDimensions).where(eq(artworkDimensions.artworkId, artworkId)));
    if (input.dimensions.length) {
      out.push(
        db.insert(artworkDimensions).values(
          input.dimensions.map((d, position) =>
            artworkDimensionResource.row({
              ...d,
              id: newId("dim"),
              gallery_id: galleryId,
              artwork_id: artworkId,
              position,
            }),
          ),
        ),
      );
    }
  }
  if (input.tag_ids) {
    if (replace) out.push(db.delete(artworkTags).where(eq(artworkTags.artworkId, artworkId)));
    if (input.tag_ids.length) {
      out.push(
        db.insert(artworkTags).values(input.tag_ids.map((tagId) => ({ galleryId, artworkId, tagId }))),
      );
    }
  }
  return out;
}

export interface ActivityEntry {
  eventType: "created" | "updated" | "moved" | "price_changed" | "status_changed";
  summary: string;
  metadata: Record<string, unknown>;
}

/** An entry of the artwork's activity timeline (UUID id, as the spec requires). */
export function activityInsert(
  db: Db,
  galleryId: string,
  artworkId: string,
  actorId: string,
  at: string,
  entry: ActivityEntry,
): SQLWrapper {
  return db.insert(artworkActivityEvents).values({
    id: sql`gen_random_uuid()`,
    galleryId,
    artworkId,
    actorId,
    eventType: entry.eventType,
    summary: entry.summary,
    metadata: entry.metadata,
    occurredAt: at,
    createdAt: at,
  });
}

export function createArtworkStatements(
  db: Db,
  galleryId: string,
  id: string,
  input: ArtworkCreateInput,
  at: string,
): SQLWrapper[] {
  return [
    ...artworkReferenceChecks(galleryId, input),
    db.insert(artworks).values(
      artworkResource.row({
        ...scalarFields(input),
        id,
        gallery_id: galleryId,
        created_at: at,
        updated_at: at,
      }),
    ),
    ...relationStatements(db, galleryId, id, input, false),
  ];
}

/** The UPDATE for `guarded()`: matches only the row as it was read. */
export function updateArtworkStatement(
  db: Db,
  galleryId: string,
  id: string,
  input: ArtworkUpdateInput,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  return db
    .update(artworks)
    .set(artworkResource.row({ ...scalarFields(input), updated_at: at }))
    .where(
      and(eq(artworks.galleryId, galleryId), eq(artworks.id, id), eq(artworks.updatedAt, readUpdatedAt)),
    );
}

export function updateArtworkRelations(
  db: Db,
  galleryId: string,
  id: string,
  input: ArtworkUpdateInput,
): SQLWrapper[] {
  return relationStatements(db, galleryId, id, input, true);
}

/** The DELETE for `guarded()`: matches only the row as it was read. */
export function deleteArtworkStatement(
  db: Db,
  galleryId: string,
  id: string,
  readUpdatedAt: string,
): SQLWrapper {
  return db
    .delete(artworks)
    .where(
      and(eq(artworks.galleryId, galleryId), eq(artworks.id, id), eq(artworks.updatedAt, readUpdatedAt)),
    );
}
