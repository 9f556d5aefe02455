import type { z } from "zod";
import { artworkExists } from "../../db/queries/artwork-images";
import { newId } from "../../lib/ids";
import type { ImageType } from "../../lib/image-type";
import { MAX_ARTWORK_IMAGE_BYTES } from "../../lib/schemas/artwork-images";
import type { SignedUploadTarget } from "../../lib/schemas/uploads";
import type { ServiceContext } from "../context";
import { mintUpload } from "../uploads/mint";
import { notFoundUnlessReplay } from "../write";

/** Where an artwork's images are stored: `galleries/<gallery>/artworks/<artwork>/…`. */
export const ARTWORK_IMAGE_COLLECTION = "artworks";

/** The purpose recorded on an artwork image's upload target; attaching checks it. */
export const ARTWORK_IMAGE_PURPOSE = "artwork_image";

/**
 * Mints a signed upload target for a new image of the artwork: stored under
 * `galleries/<gallery>/artworks/<artwork>/<img id>.<ext>`; the image, once attached, takes that img id.
 */
export async function mintArtworkImageUpload(
  ctx: ServiceContext,
  artworkId: string,
  input: { content_type: ImageType; size_bytes?: number | undefined },
) {
  if (!(await artworkExists(ctx.db, ctx.principal.galleryId, artworkId)))
    return notFoundUnlessReplay<z.output<typeof SignedUploadTarget>, 201>(
      ctx,
      `No artwork ${artworkId} in this gallery.`,
    );
  return mintUpload(ctx, {
    purpose: ARTWORK_IMAGE_PURPOSE,
    collection: ARTWORK_IMAGE_COLLECTION,
    ownerId: artworkId,
    fileId: newId("img"),
    contentType: input.content_type,
    maxBytes: input.size_bytes ?? MAX_ARTWORK_IMAGE_BYTES,
  });
}
