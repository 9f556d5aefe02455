import { listAuctionRecords as listAuctionRecordRows } from "../../db/queries/auction-records";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One page (limit + 1 rows) of the artwork's auction records; a missing artwork is a 404, not an empty page. */
export async function listAuctionRecords(
  ctx: ServiceContext,
  artworkId: string,
  page: PageRequest,
): Promise<PageRow[]> {
  const rows = await listAuctionRecordRows(ctx.db, ctx.principal.galleryId, artworkId, page);
  if (rows === null) throw new ApiError("not_found", `No artwork ${artworkId} in this gallery.`);
  return rows;
}
