import {
  artistResource,
  deleteCatalogueRow,
  findCatalogueRow,
  refuseWhileArtistCredited,
} from "../../db/queries/catalogue";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes an artist no work credits, published or in a pending draft; otherwise 409 `conflict` with the number
 * of such works (the credits are removed first, on the works). `artist.deleted` carries their last state.
 */
export async function deleteArtist(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findCatalogueRow(db, artistResource, galleryId, id);
  return writeExisting(ctx, current, `No artist ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [
      refuseWhileArtistCredited(galleryId, id),
      guarded(deleteCatalogueRow(db, artistResource, galleryId, id, found.updatedAt)),
    ],
    events: [changeEvent("artist.deleted", "artist", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
