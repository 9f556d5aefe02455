import {
  deleteCatalogueRow,
  findCatalogueRow,
  locationResource,
  refuseWhileArtworksPoint,
} from "../../db/queries/catalogue";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes a location no work has as its `location_id`, published or in a pending draft; otherwise 409
 * `conflict` with the number of such works (they are moved first). `location.deleted` carries its last state.
 */
export async function deleteLocation(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findCatalogueRow(db, locationResource, galleryId, id);
  return writeExisting(ctx, current, `No location ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [
      refuseWhileArtworksPoint(galleryId, "location_id", id, "Location"),
      guarded(deleteCatalogueRow(db, locationResource, galleryId, id, found.updatedAt)),
    ],
    events: [changeEvent("location.deleted", "location", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
