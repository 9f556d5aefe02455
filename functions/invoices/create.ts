import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Invoice, InvoiceCreate } from "../../lib/schemas/invoices";
import { createInvoice } from "../../services/invoices/create";

const route = operation({
  operationId: "createInvoice",
  method: "post",
  path: "/gallery/invoices",
  tags: ["Invoices"],
  summary: "Create an invoice",
  description: [
    "Creates an invoice from a sale (`sale_id`, a sale of this gallery, else 400 naming it) or standalone (then `subtotal_cents` is required and `contact_id` optional). A sale fills what is not given: `contact_id` (its buyer), `currency`, `subtotal_cents` (its amount) and `billing_name` (the billed contact's name, which a standalone invoice with a contact also defaults to).",
    "`status` is `unpaid` (issued at once; `issued_date` defaults to today, UTC) or `draft`. Payments are recorded afterwards with PATCH. `invoice_number` is `INV-` and the gallery's next number, zero-padded to 6 digits: taken in the creating transaction, so numbers are sequential with no gaps under concurrent creates, and a refused create takes none. There is no DELETE: an issued number never disappears (void the invoice instead).",
    "The money is computed, never accepted: `total_cents` = subtotal − discount + tax + shipping + shipping tax. The discount is `discount_cents`, or `discount_bps` basis points of the subtotal (round half up; discount_cents then shows it); both non-zero is 400; a discount above the subtotal is 400 naming `discount_cents`. `base_amount_cents` is the total in `fx_base_currency` (the gallery's default currency unless given): the total itself in the same currency, else round half away from zero of total × `fx_usd_per_unit` / `fx_base_usd_per_unit` in decimal arithmetic; both rates are then required (400 naming the missing one). `total_cents`, `base_amount_cents`, `amount_paid_cents` and `invoice_number` are not accepted (400 as unknown fields).",
    "Other 400s: dates are real calendar dates written YYYY-MM-DD; `due_date` on or after `issued_date`; `contact_id` and `template_id` must be the gallery's. Emits `invoice.created`, and `invoice.issued` for an invoice created unpaid.",
  ].join("\n\n"),
  auth: { scopes: ["sales:create"] },
  idempotent: true,
  exampleBody: {
    subtotal_cents: 1250000,
    currency: "USD",
    due_date: "2030-01-31",
    accepted_payment_methods: ["bank_transfer", "card"],
  },
  request: {
    body: { required: true, content: { "application/json": { schema: InvoiceCreate } } },
  },
  responses: {
    201: { description: "The new invoice.", content: { "application/json": { schema: Invoice } } },
  },
});

export function registerInvoicesCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createInvoice(serviceContext(c), c.req.valid("json"))));
}
