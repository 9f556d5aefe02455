import { formatsListText } from "../../db/queries/artwork-formats";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** The work's formats as `{data, next_cursor}` JSON text; prices gated for read-only callers. */
export async function listArtworkFormats(
  ctx: ServiceContext,
  artworkId: string,
  opts: { draft: boolean },
): Promise<string> {
  const { db, principal } = ctx;
  const text = await formatsListText(db, principal.galleryId, artworkId, {
    draft: opts.draft,
    gatePrices: principal.readOnly,
  });
  if (text === null) throw new ApiError("not_found", `No artwork ${artworkId} in this gallery.`);
  return text;
}
