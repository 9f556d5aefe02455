import { type SQL, sql } from "drizzle-orm";
import { newId } from "../../lib/ids";
import type { ArtworkCreateInput, ArtworkUpdateInput } from "../../lib/schemas/artworks";
import { expectReferences, insertRow, setList } from "./rows";

/**
 * Statements that write artworks. They are composed into one transaction by lib/write.ts; none of them runs on
 * its own.
 */

type Relations = Pick<ArtworkUpdateInput, "artists" | "dimensions" | "tag_ids">;

/** Checks that every id the input names belongs to the caller's gallery. */
export function artworkReferenceChecks(galleryId: string, input: ArtworkUpdateInput): SQL[] {
  const checks: SQL[] = [];
  if (input.artists?.length) {
    checks.push(
      expectReferences(
        "artists",
        galleryId,
        input.artists.map((a) => a.artist_id),
        "artists[].artist_id",
      ),
    );
  }
  if (input.tag_ids?.length) checks.push(expectReferences("tags", galleryId, input.tag_ids, "tag_ids[]"));
  if (input.location_id)
    checks.push(expectReferences("locations", galleryId, [input.location_id], "location_id"));
  if (input.custom_status_id) {
    checks.push(expectReferences("custom_statuses", galleryId, [input.custom_status_id], "custom_status_id"));
  }
  if (input.parent_artwork_id) {
    checks.push(expectReferences("artworks", galleryId, [input.parent_artwork_id], "parent_artwork_id"));
  }
  return checks;
}

function scalarFields(input: ArtworkUpdateInput): Record<string, unknown> {
  const { artists: _a, dimensions: _d, tag_ids: _t, ...scalars } = input;
  return scalars;
}

/** Replaces the artwork's credited artists, dimensions and tags with the given lists (when given). */
function relationStatements(galleryId: string, artworkId: string, input: Relations, replace: boolean): SQL[] {
  const out: SQL[] = [];
  if (input.artists) {
    if (replace) out.push(sql`delete from artwork_artists where artwork_id = ${artworkId}`);
    input.artists.forEach((a, position) => {
      out.push(
        insertRow("artwork_artists", {
          gallery_id: galleryId,
          artwork_id: artworkId,
          artist_id: a.artist_id,
          role: a.role,
          position,
        }),
      );
    });
    // The first primary artist (else the first credited) is denormalised onto the artwork for lists and search.
    const primary = input.artists.find((a) => a.role === "primary") ?? input.artists[0];
    out.push(
      primary
        ? sql`update artworks set artist_id = ar.id, artist_name = ar.name from artists ar
            where artworks.id = ${artworkId} and ar.id = ${primary.artist_id}`
        : sql`update artworks set artist_id = null, artist_name = null where id = ${artworkId}`,
    );
  }
  if (input.dimensions) {
    if (replace) out.push(sql`delete from artwork_dimensions where artwork_id = ${artworkId}`);
    input.dimensions.forEach((d, position) => {
      out.push(
        insertRow("artwork_dimensions", {
          id: newId("dim"),
          gallery_id: galleryId,
          artwork_id: artworkId,
          ...d,
          position,
        }),
      );
    });
  }
  if (input.tag_ids) {
    if (replace) out.push(sql`delete from artwork_tags where artwork_id = ${artworkId}`);
    for (const tagId of input.tag_ids) {
      out.push(insertRow("artwork_tags", { gallery_id: galleryId, artwork_id: artworkId, tag_id: tagId }));
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
  galleryId: string,
  artworkId: string,
  actorId: string,
  at: string,
  entry: ActivityEntry,
): SQL {
  return sql`insert into artwork_activity_events (id, gallery_id, artwork_id, actor_id, event_type, summary, metadata, occurred_at, created_at)
    values (gen_random_uuid(), ${galleryId}, ${artworkId}, ${actorId}, ${entry.eventType}, ${entry.summary},
      ${JSON.stringify(entry.metadata)}::jsonb, ${at}, ${at})`;
}

export function createArtworkStatements(
  galleryId: string,
  id: string,
  input: ArtworkCreateInput,
  at: string,
): SQL[] {
  return [
    ...artworkReferenceChecks(galleryId, input),
    insertRow("artworks", {
      ...scalarFields(input),
      id,
      gallery_id: galleryId,
      created_at: at,
      updated_at: at,
    }),
    ...relationStatements(galleryId, id, input, false),
  ];
}

/** The UPDATE for `guarded()`: matches only the row as it was read. */
export function updateArtworkStatement(
  galleryId: string,
  id: string,
  input: ArtworkUpdateInput,
  readUpdatedAt: string,
  at: string,
): SQL {
  return sql`update artworks set ${setList({ ...scalarFields(input), updated_at: at })}
    where gallery_id = ${galleryId} and id = ${id} and updated_at = ${readUpdatedAt}::timestamptz`;
}

export function updateArtworkRelations(galleryId: string, id: string, input: ArtworkUpdateInput): SQL[] {
  return relationStatements(galleryId, id, input, true);
}

export function deleteArtworkStatement(galleryId: string, id: string, readUpdatedAt: string): SQL {
  return sql`delete from artworks where gallery_id = ${galleryId} and id = ${id} and updated_at = ${readUpdatedAt}::timestamptz`;
}
