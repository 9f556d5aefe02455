import {
  type ArtworkFilters,
  artworkResource,
  listArtworks as listArtworkRows,
} from "../../db/queries/artworks";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One artwork as JSON text; prices gated for read-only callers. */
export async function getArtwork(ctx: ServiceContext, id: string, opts: { draft: boolean }): Promise<string> {
  const view = { draft: opts.draft, gatePrices: ctx.principal.readOnly };
  const text = await artworkResource.textById(ctx.db, ctx.principal.galleryId, id, view);
  if (text === null) throw new ApiError("not_found", `No artwork ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's artworks; prices gated for read-only callers. */
export function listArtworks(
  ctx: ServiceContext,
  opts: { draft: boolean },
  filters: ArtworkFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const view = { draft: opts.draft, gatePrices: ctx.principal.readOnly };
  return listArtworkRows(ctx.db, ctx.principal.galleryId, view, filters, page);
}
