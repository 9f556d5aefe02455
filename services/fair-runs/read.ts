import {
  type FairRunFilters,
  fairRunResource,
  listFairRuns as listFairRunRows,
} from "../../db/queries/fair-runs";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One fair run as JSON text. */
export async function getFairRun(ctx: ServiceContext, id: string): Promise<string> {
  const text = await fairRunResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No fair run ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's fair runs. */
export function listFairRuns(
  ctx: ServiceContext,
  filters: FairRunFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  return listFairRunRows(ctx.db, ctx.principal.galleryId, filters, page);
}
