import {
  listPublications as listPublicationRows,
  type PublicationFilters,
  publicationText,
} from "../../db/queries/publications";
import { priceAccess } from "../../db/resource";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One publication as JSON text; its price amount shown only to callers its price_visibility admits. */
export async function getPublication(ctx: ServiceContext, id: string): Promise<string> {
  const view = { prices: priceAccess(ctx.principal) };
  const text = await publicationText(ctx.db, ctx.principal.galleryId, id, view);
  if (text === null) throw new ApiError("not_found", `No publication ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's publications, prices gated as on a single read. */
export function listPublications(
  ctx: ServiceContext,
  filters: PublicationFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const view = { prices: priceAccess(ctx.principal) };
  return listPublicationRows(ctx.db, ctx.principal.galleryId, view, filters, page);
}
