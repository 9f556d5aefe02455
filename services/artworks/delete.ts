import { sql } from "drizzle-orm";
import { deleteArtworkStatement } from "../../db/queries/artwork-writes";
import { findArtwork } from "../../db/queries/artworks";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, writeExisting } from "../write";

/** Deletes the artwork and everything that hangs off it; `artwork.deleted` carries its last state. */
export async function deleteArtwork(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const current = await findArtwork(db, principal.galleryId, id, { draft: false, gatePrices: false });
  return writeExisting(ctx, current, `No artwork ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteArtworkStatement(db, principal.galleryId, id, found.updatedAt))],
    events: [changeEvent("artwork.deleted", "artwork", id, found.body)],
    status: 200,
    body: sql`json_build_object('id', ${id}::text, 'deleted', true)`,
  }));
}
