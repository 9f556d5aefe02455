import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Invoice, InvoiceIdParams, InvoiceUpdate } from "../../lib/schemas/invoices";
import { updateInvoice } from "../../services/invoices/update";

const route = operation({
  operationId: "updateInvoice",
  method: "patch",
  path: "/gallery/invoices/{id}",
  tags: ["Invoices"],
  summary: "Update an invoice",
  description: [
    "Changes status, dates, amounts, payment, addresses or the other writable fields; fields left out keep their values. Answers the invoice.",
    'Payments: `amount_paid_cents` is the new cumulative amount paid, not the payment (so a retry cannot pay twice). It may not decrease (409: a payment is taken back with POST …/payment-reversals), may not pass `total_cents` (409 whose `details` give the balance, `amount_due_cents`), and is refused on a draft or void invoice (409 naming the status). The status follows the money: nothing paid is `unpaid`, part of the total `partially_paid`, all of it `paid`. `status: "paid"` pays the balance (amount_paid_cents becomes total_cents).',
    "Status: `unpaid` issues a draft (`issued_date` defaults to today, UTC; a payment may come in the same request); `void` cancels a draft or unpaid invoice (a payment in the same request is 409), while a partially paid or paid one is 409 (reverse its payments first: POST …/payment-reversals). `partially_paid` and `draft` cannot be asked for (400): the one follows the money, the other is set only at creation. An issued invoice never returns to `draft` or `unpaid` (409).",
    "Void is final: any change but `notes` and `metadata` is 409 naming the status (archiving still works). A paid invoice keeps its amounts, currency and exchange rates (409 naming the status); its addresses, dates, notes and metadata still change. Changing amounts so the total falls below the amount paid is 409; to exactly the amount paid, the invoice becomes paid.",
    "Money is computed as on create: `discount_cents` alone is a discount in cents (discount_bps becomes 0), `discount_bps` alone a discount in basis points (0 ends it), both non-zero is 400; `total_cents` and `base_amount_cents` follow, and cannot be sent. 400 also for a discount above the subtotal, a `due_date` before `issued_date` (naming the field sent), a missing exchange rate when `currency` differs from `fx_base_currency`, and a contact or template not of this gallery. `sale_id` is set at creation only.",
    "Concurrent changes are guarded: a request that read the invoice before another change committed is 409 `concurrent_modification` (retry it). Emits `invoice.updated` with `previous_attributes` (every field that moved, computed ones included) and, beside it, `invoice.issued`, `invoice.payment_recorded`, `invoice.paid` or `invoice.voided`. A request that changes nothing emits nothing.",
  ].join("\n\n"),
  auth: { scopes: ["sales:update"] },
  idempotent: true,
  pathIds: { id: "inv" },
  exampleBody: { notes: "Paid by wire on receipt." },
  request: {
    params: InvoiceIdParams,
    body: { required: true, content: { "application/json": { schema: InvoiceUpdate } } },
  },
  responses: {
    200: { description: "The updated invoice.", content: { "application/json": { schema: Invoice } } },
  },
});

export function registerInvoicesUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateInvoice(serviceContext(c), id, c.req.valid("json")));
  });
}
