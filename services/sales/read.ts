import { listSales as listSaleRows, type SaleFilters, saleResource } from "../../db/queries/sales";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One sale as JSON text. */
export async function getSale(ctx: ServiceContext, id: string): Promise<string> {
  const text = await saleResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No sale ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's sales. */
export function listSales(ctx: ServiceContext, filters: SaleFilters, page: PageRequest): Promise<PageRow[]> {
  return listSaleRows(ctx.db, ctx.principal.galleryId, filters, page);
}
