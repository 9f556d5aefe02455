import { deleteCatalogueRow, findCatalogueRow, tagResource } from "../../db/queries/catalogue";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes a tag and takes it off every artwork and contact that carries it (foreign-key cascade): a tag is a
 * label, and no work's own fields change. `tag.deleted` carries its last state.
 */
export async function deleteTag(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findCatalogueRow(db, tagResource, galleryId, id);
  return writeExisting(ctx, current, `No tag ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteCatalogueRow(db, tagResource, galleryId, id, found.updatedAt))],
    events: [changeEvent("tag.deleted", "tag", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
