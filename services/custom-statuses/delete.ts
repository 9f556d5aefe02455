import {
  customStatusResource,
  deleteCatalogueRow,
  findCatalogueRow,
  refuseWhileArtworksPoint,
} from "../../db/queries/catalogue";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes a custom status no work has as its `custom_status_id`, published or in a pending draft; otherwise 409
 * `conflict` with the number of such works (they are moved first). `custom_status.deleted` carries its last state.
 */
export async function deleteCustomStatus(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findCatalogueRow(db, customStatusResource, galleryId, id);
  return writeExisting(ctx, current, `No custom status ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [
      refuseWhileArtworksPoint(galleryId, "custom_status_id", id, "Custom status"),
      guarded(deleteCatalogueRow(db, customStatusResource, galleryId, id, found.updatedAt)),
    ],
    events: [changeEvent("custom_status.deleted", "custom_status", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
