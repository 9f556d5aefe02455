import {
  closePosition,
  deleteArtworkImageStatement,
  findArtworkImage,
  lockArtwork,
  refreshArtworkImages,
} from "../../db/queries/artwork-images";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Removes the image; the images after it move up one place, and the artwork's image_count and thumbnail_url
 * follow in the same transaction. `artwork_image.deleted` carries its last state. The stored object is deleted
 * from R2 after the commit (not on a replay): its URL stops working then.
 */
export async function deleteArtworkImage(ctx: ServiceContext, artworkId: string, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findArtworkImage(db, galleryId, artworkId, id);
  const written = await writeExisting(
    ctx,
    current,
    `No image ${id} of artwork ${artworkId} in this gallery.`,
    (found, at) => ({
      schema: DeleteResult,
      statements: [
        lockArtwork(galleryId, artworkId),
        guarded(deleteArtworkImageStatement(db, galleryId, artworkId, id, found.updatedAt)),
        closePosition(artworkId, found.position, at),
        refreshArtworkImages(galleryId, artworkId, at),
      ],
      events: [changeEvent("artwork_image.deleted", "artwork_image", id, found.body)],
      status: 200,
      body: deletedBody(id),
    }),
  );
  if (current && !written.replayed) ctx.waitUntil(ctx.env.UPLOADS.delete(current.storagePath));
  return written;
}
