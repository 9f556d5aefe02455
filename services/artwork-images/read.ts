import { artworkImagesText } from "../../db/queries/artwork-images";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** The artwork's images in order, as `{data, next_cursor}` JSON text. */
export async function listArtworkImages(ctx: ServiceContext, artworkId: string): Promise<string> {
  const text = await artworkImagesText(ctx.db, ctx.principal.galleryId, artworkId);
  if (text === null) throw new ApiError("not_found", `No artwork ${artworkId} in this gallery.`);
  return text;
}
