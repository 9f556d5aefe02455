import { orphanEditionsStatement } from "../../db/queries/artwork-editions";
import { findArtwork } from "../../db/queries/artworks";
import { deleteAsRead } from "../../db/queries/rows";
import { artworks } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import { deleteStoredUnder, storagePrefix } from "../../lib/uploads";
import { ARTWORK_IMAGE_COLLECTION } from "../artwork-images/upload";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes the artwork and everything that hangs off it, its stored images included; `artwork.deleted` carries its
 * last state. Its editions stay, keeping the values they showed, with no parent.
 */
export async function deleteArtwork(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const current = await findArtwork(db, principal.galleryId, id, { draft: false, gatePrices: false });
  const written = await writeExisting(ctx, current, `No artwork ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [
      orphanEditionsStatement(principal.galleryId, id),
      guarded(deleteAsRead(artworks, principal.galleryId, id, found.updatedAt)),
    ],
    events: [changeEvent("artwork.deleted", "artwork", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
  // Its images' rows went with it; their stored bytes (and any upload never attached) go after the commit.
  if (!written.replayed) {
    ctx.waitUntil(
      deleteStoredUnder(ctx.env.UPLOADS, storagePrefix(principal.galleryId, ARTWORK_IMAGE_COLLECTION, id)),
    );
  }
  return written;
}
