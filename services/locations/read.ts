import { listCatalogueRows, locationResource } from "../../db/queries/catalogue";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One location as JSON text. */
export async function getLocation(ctx: ServiceContext, id: string): Promise<string> {
  const text = await locationResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No location ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's locations. */
export function listLocations(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listCatalogueRows(ctx.db, locationResource, ctx.principal.galleryId, [], page);
}
