import { customStatusResource, refuseWhileArtworksPoint } from "../../db/queries/catalogue";
import { deleteCatalogueEntry } from "../catalogue-delete";
import type { ServiceContext } from "../context";

/**
 * Deletes a custom status no work has as its `custom_status_id`, published or in a pending draft; otherwise 409
 * `conflict` with the number of such works (they are moved first). `custom_status.deleted` carries its last state.
 */
export function deleteCustomStatus(ctx: ServiceContext, id: string) {
  return deleteCatalogueEntry(ctx, customStatusResource, {
    id,
    noun: "custom status",
    resourceType: "custom_status",
    eventType: "custom_status.deleted",
    refusals: [refuseWhileArtworksPoint(ctx.principal.galleryId, "custom_status_id", id, "Custom status")],
  });
}
