import { locationResource, refuseWhileArtworksPoint } from "../../db/queries/catalogue";
import { deleteCatalogueEntry } from "../catalogue-delete";
import type { ServiceContext } from "../context";

/**
 * Deletes a location no work has as its `location_id`, published or in a pending draft; otherwise 409
 * `conflict` with the number of such works (they are moved first). `location.deleted` carries its last state.
 */
export function deleteLocation(ctx: ServiceContext, id: string) {
  return deleteCatalogueEntry(ctx, locationResource, {
    id,
    noun: "location",
    resourceType: "location",
    eventType: "location.deleted",
    refusals: [refuseWhileArtworksPoint(ctx.principal.galleryId, "location_id", id, "Location")],
  });
}
