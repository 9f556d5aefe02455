import { insertInvoiceStatement, invoiceJson, invoiceRulesStatement } from "../../db/queries/invoices";
import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { contacts, invoiceTemplates, sales } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Invoice, type InvoiceCreateInput } from "../../lib/schemas/invoices";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Creates an invoice, from a sale of the gallery or standalone, as a draft or issued (`unpaid`, the default; its
 * issued_date defaults to today, UTC). The sale, contact and template must be the gallery's (400 naming the
 * field); the number is the gallery's next, taken in this transaction; the invoice's rules are checked on the
 * row as stored (400 naming the field), so a refused create takes no number. Records `invoice.created`, and
 * `invoice.issued` for an invoice created unpaid.
 */
export function createInvoice(ctx: ServiceContext, input: InvoiceCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const id = newId("inv");
  const at = nextTimestamp();
  const status = input.status ?? "unpaid";
  const issuedDate = input.issued_date ?? (status === "unpaid" ? at.slice(0, 10) : null);
  const taxCalculatedAt = input.tax_calculated_at ? toStoredMs(input.tax_calculated_at) : null;
  const object = invoiceJson(galleryId, id);
  return executeWrite(ctx, {
    schema: Invoice,
    statements: [
      ...(input.sale_id ? [expectReferences(sales, galleryId, [input.sale_id], "sale_id")] : []),
      ...(input.contact_id ? [expectReferences(contacts, galleryId, [input.contact_id], "contact_id")] : []),
      ...(input.template_id
        ? [expectReferences(invoiceTemplates, galleryId, [input.template_id], "template_id")]
        : []),
      insertInvoiceStatement(galleryId, id, input, { status, issuedDate, taxCalculatedAt }, at),
      invoiceRulesStatement(galleryId, id, { discount: "discount_cents", dates: "due_date" }),
    ],
    events: [
      changeEvent("invoice.created", "invoice", id, object),
      ...(status === "unpaid" ? [changeEvent("invoice.issued", "invoice", id, object)] : []),
    ],
    status: 201,
    body: object,
  });
}
