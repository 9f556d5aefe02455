import { findInvoice, invoiceJson } from "../../db/queries/invoices";
import { invoices } from "../../db/schema";
import { Invoice } from "../../lib/schemas/invoices";
import type { ServiceContext } from "../context";
import { type Shelf, shelve } from "../shelve";

const invoiceShelf: Shelf<typeof Invoice> = {
  schema: Invoice,
  table: invoices,
  resourceType: "invoice",
  archived: "invoice.archived",
  restored: "invoice.restored",
  find: (ctx, id) => findInvoice(ctx.db, ctx.principal.galleryId, id),
  json: invoiceJson,
  notFound: (id) => `No invoice ${id} in this gallery.`,
};

/**
 * Puts the invoice on the archive shelf: left out of the default list, still read by id (and listed with
 * `archived=include` or `only`). Any status may be archived; nothing else changes. Records `invoice.archived`.
 * An archived invoice stays as it is: no change, no event, the invoice as the answer.
 */
export function archiveInvoice(ctx: ServiceContext, id: string) {
  return shelve(ctx, invoiceShelf, id, true);
}

/** Takes the invoice off the shelf. Records `invoice.restored`; an invoice that is not archived stays as it is. */
export function restoreInvoice(ctx: ServiceContext, id: string) {
  return shelve(ctx, invoiceShelf, id, false);
}
