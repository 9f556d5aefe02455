import { listArtworkTimeline } from "../../db/queries/artwork-timeline";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One page (limit + 1 rows) of the artwork's timeline; a missing artwork is a 404, not an empty page. */
export async function listTimeline(
  ctx: ServiceContext,
  artworkId: string,
  page: PageRequest,
): Promise<PageRow[]> {
  const rows = await listArtworkTimeline(ctx.db, ctx.principal.galleryId, artworkId, page);
  if (rows === null) throw new ApiError("not_found", `No artwork ${artworkId} in this gallery.`);
  return rows;
}
