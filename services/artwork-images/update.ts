import {
  artworkImageResource,
  findArtworkImage,
  lockArtwork,
  moveArtworkImage,
  refreshArtworkImages,
  updateArtworkImageStatement,
} from "../../db/queries/artwork-images";
import { previousAttributes } from "../../lib/json";
import { ArtworkImage, type ArtworkImageUpdateInput } from "../../lib/schemas/artwork-images";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes the caption and/or the position; a new position moves the images between the old place and the new
 * one by one place (a position beyond the end means last). Moving an image to or from 0 changes the artwork's
 * thumbnail_url in the same transaction. Records `artwork_image.updated` with `previous_attributes` (the moved
 * image's own former position only); a patch that changes nothing writes nothing and records nothing.
 */
export async function updateArtworkImage(
  ctx: ServiceContext,
  artworkId: string,
  id: string,
  input: ArtworkImageUpdateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findArtworkImage(db, galleryId, artworkId, id);
  return writeExisting(
    ctx,
    current,
    `No image ${id} of artwork ${artworkId} in this gallery.`,
    (found, at) => {
      // A position past the last place is the last place.
      const position =
        input.position === undefined ? undefined : Math.min(input.position, found.imageCount - 1);
      const previous = previousAttributes(found.body, {
        ...(input.caption !== undefined ? { caption: input.caption } : {}),
        ...(position !== undefined ? { position } : {}),
      });
      const moves = "position" in previous && position !== undefined;
      return updatePlan({
        schema: ArtworkImage,
        type: "artwork_image.updated",
        resourceType: "artwork_image",
        id,
        object: artworkImageResource.jsonById(galleryId, id, {}),
        previous,
        statements: [
          lockArtwork(galleryId, artworkId),
          guarded(
            updateArtworkImageStatement(db, galleryId, artworkId, id, input.caption, found.updatedAt, at),
          ),
          ...(moves ? [moveArtworkImage(artworkId, id, found.position, position, at)] : []),
          refreshArtworkImages(galleryId, artworkId, at),
        ],
      });
    },
  );
}
