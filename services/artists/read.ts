import { artistNameContains, artistResource, listCatalogueRows } from "../../db/queries/catalogue";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One artist as JSON text. */
export async function getArtist(ctx: ServiceContext, id: string): Promise<string> {
  const text = await artistResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No artist ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's artists, those whose name contains `q` when given. */
export function listArtists(
  ctx: ServiceContext,
  filters: { q?: string },
  page: PageRequest,
): Promise<PageRow[]> {
  const where = filters.q === undefined ? [] : [artistNameContains(filters.q)];
  return listCatalogueRows(ctx.db, artistResource, ctx.principal.galleryId, where, page);
}
