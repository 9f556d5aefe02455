import { findPublication } from "../../db/queries/publications";
import { deleteAsRead } from "../../db/queries/rows";
import { publications } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import { deleteStoredUnder, storagePrefix } from "../../lib/uploads";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";
import { PUBLICATION_COVER_COLLECTION } from "./cover";

/**
 * Deletes a publication with its works list and price. `publication.deleted` carries its last state. Its stored
 * covers are deleted from R2 after the commit (not on a replay).
 */
export async function deletePublication(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findPublication(db, galleryId, id);
  const written = await writeExisting(ctx, current, `No publication ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(publications, galleryId, id, found.updatedAt))],
    events: [changeEvent("publication.deleted", "publication", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
  if (current && !written.replayed) {
    ctx.waitUntil(
      deleteStoredUnder(ctx.env.UPLOADS, storagePrefix(galleryId, PUBLICATION_COVER_COLLECTION, id)),
    );
  }
  return written;
}
