import {
  type InvoiceFilters,
  invoiceBillingResource,
  invoiceResource,
  listInvoices as listInvoiceRows,
} from "../../db/queries/invoices";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One invoice as JSON text. */
export async function getInvoice(ctx: ServiceContext, id: string): Promise<string> {
  const text = await invoiceResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No invoice ${id} in this gallery.`);
  return text;
}

/** Who the invoice bills and what is still owed, as JSON text. */
export async function getInvoiceBilling(ctx: ServiceContext, id: string): Promise<string> {
  const text = await invoiceBillingResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No invoice ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's invoices. */
export function listInvoices(
  ctx: ServiceContext,
  filters: InvoiceFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  return listInvoiceRows(ctx.db, ctx.principal.galleryId, filters, page);
}
