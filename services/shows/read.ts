import { listShows as listShowRows, type ShowFilters, showResource } from "../../db/queries/shows";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One show as JSON text. */
export async function getShow(ctx: ServiceContext, id: string): Promise<string> {
  const text = await showResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No show ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's shows. */
export function listShows(ctx: ServiceContext, filters: ShowFilters, page: PageRequest): Promise<PageRow[]> {
  return listShowRows(ctx.db, ctx.principal.galleryId, filters, page);
}
