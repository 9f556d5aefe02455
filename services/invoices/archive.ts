import { findInvoice, invoiceJson, shelveInvoiceStatement } from "../../db/queries/invoices";
import { nextTimestamp } from "../../db/queries/rows";
import { Invoice } from "../../lib/schemas/invoices";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";

/**
 * Puts the invoice on the archive shelf: left out of the default list, still read by id (and listed with
 * `archived=include` or `only`). Any status may be archived; nothing else changes. Records `invoice.archived`.
 * An archived invoice stays as it is: no change, no event, the invoice as the answer.
 */
export function archiveInvoice(ctx: ServiceContext, id: string) {
  return shelve(ctx, id, true);
}

/** Takes the invoice off the shelf. Records `invoice.restored`; an invoice that is not archived stays as it is. */
export function restoreInvoice(ctx: ServiceContext, id: string) {
  return shelve(ctx, id, false);
}

async function shelve(ctx: ServiceContext, id: string, archive: boolean) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const found = await findInvoice(db, galleryId, id);
  if (!found) return notFoundUnlessReplay<unknown, 200>(ctx, `No invoice ${id} in this gallery.`);
  const object = invoiceJson(galleryId, id);
  if ((found.body.archived_at !== null) === archive) {
    return executeWrite(ctx, { schema: Invoice, statements: [], events: [], status: 200, body: object });
  }
  const at = nextTimestamp(found.updatedAt);
  return executeWrite(ctx, {
    schema: Invoice,
    statements: [
      guarded(shelveInvoiceStatement(db, galleryId, id, archive ? at : null, found.updatedAt, at)),
    ],
    events: [changeEvent(archive ? "invoice.archived" : "invoice.restored", "invoice", id, object)],
    status: 200,
    body: object,
  });
}
