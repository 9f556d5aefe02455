import { customStatusResource, listCatalogueRows } from "../../db/queries/catalogue";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One custom status as JSON text. */
export async function getCustomStatus(ctx: ServiceContext, id: string): Promise<string> {
  const text = await customStatusResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No custom status ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's custom statuses. */
export function listCustomStatuses(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listCatalogueRows(ctx.db, customStatusResource, ctx.principal.galleryId, [], page);
}
