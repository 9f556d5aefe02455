import { listCatalogueRows, tagResource, tagScopeIs } from "../../db/queries/catalogue";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One tag as JSON text. */
export async function getTag(ctx: ServiceContext, id: string): Promise<string> {
  const text = await tagResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No tag ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's tags, of one scope when given. */
export function listTags(
  ctx: ServiceContext,
  filters: { scope?: string },
  page: PageRequest,
): Promise<PageRow[]> {
  const where = filters.scope === undefined ? [] : [tagScopeIs(filters.scope)];
  return listCatalogueRows(ctx.db, tagResource, ctx.principal.galleryId, where, page);
}
