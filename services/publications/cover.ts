import type { z } from "zod";
import { publicationExists } from "../../db/queries/publications";
import { newId } from "../../lib/ids";
import {
  MAX_PUBLICATION_COVER_BYTES,
  type PublicationCoverUploadInput,
} from "../../lib/schemas/publications";
import type { SignedUploadTarget } from "../../lib/schemas/uploads";
import type { ServiceContext } from "../context";
import { mintUpload } from "../uploads/mint";
import { notFoundUnlessReplay } from "../write";

/** Where a publication's covers are stored: `galleries/<gallery>/publications/<publication>/…`. */
export const PUBLICATION_COVER_COLLECTION = "publications";

/** The purpose recorded on a cover's upload target; PATCH …/publications/{id} checks it. */
export const PUBLICATION_COVER_PURPOSE = "publication_cover";

/**
 * Mints a signed upload target for a new cover of the publication, stored under
 * `galleries/<gallery>/publications/<publication>/<cov id>.<ext>`; PATCH `cover_image_path` sets it once the
 * bytes are up.
 */
export async function mintPublicationCoverUpload(
  ctx: ServiceContext,
  publicationId: string,
  input: PublicationCoverUploadInput,
) {
  if (!(await publicationExists(ctx.db, ctx.principal.galleryId, publicationId))) {
    return notFoundUnlessReplay<z.output<typeof SignedUploadTarget>, 201>(
      ctx,
      `No publication ${publicationId} in this gallery.`,
    );
  }
  return mintUpload(ctx, {
    purpose: PUBLICATION_COVER_PURPOSE,
    collection: PUBLICATION_COVER_COLLECTION,
    ownerId: publicationId,
    fileId: newId("cov"),
    contentType: input.content_type,
    maxBytes: input.size_bytes ?? MAX_PUBLICATION_COVER_BYTES,
  });
}
