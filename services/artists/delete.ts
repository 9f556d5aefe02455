import { artistResource, refuseWhileArtistCredited } from "../../db/queries/catalogue";
import { deleteCatalogueEntry } from "../catalogue-delete";
import type { ServiceContext } from "../context";

/**
 * Deletes an artist no work credits, published or in a pending draft; otherwise 409 `conflict` with the number
 * of such works (the credits are removed first, on the works). `artist.deleted` carries their last state.
 */
export function deleteArtist(ctx: ServiceContext, id: string) {
  return deleteCatalogueEntry(ctx, artistResource, {
    id,
    noun: "artist",
    resourceType: "artist",
    eventType: "artist.deleted",
    refusals: [refuseWhileArtistCredited(ctx.principal.galleryId, id)],
  });
}
