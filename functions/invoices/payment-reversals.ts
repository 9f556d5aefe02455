import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { byCreated, listResponse, paginationQuery } from "../../lib/pagination";
import { InvoiceIdParams, PaymentReversal, PaymentReversalCreate } from "../../lib/schemas/invoices";
import { createPaymentReversal, listPaymentReversals } from "../../services/invoices/payment-reversals";

const PaymentReversalPage = listResponse(PaymentReversal, "PaymentReversalList");

const list = operation({
  operationId: "listInvoicePaymentReversals",
  method: "get",
  path: "/gallery/invoices/{id}/payment-reversals",
  tags: ["Invoices"],
  summary: "List an invoice's payment reversals",
  description:
    "The payments taken back from the invoice, newest first by default: each with its amount, reason, note, who recorded it and the amount paid it left the invoice with, so the list reads as the invoice's ledger of money that went out again. Reversals are never changed or deleted.",
  auth: { scopes: ["sales:read"] },
  list: byCreated,
  pathIds: { id: "inv" },
  request: { params: InvoiceIdParams, query: z.strictObject(paginationQuery(byCreated)) },
  responses: {
    200: {
      description: "A page of payment reversals.",
      content: { "application/json": { schema: PaymentReversalPage } },
    },
  },
});

const create = operation({
  operationId: "createInvoicePaymentReversal",
  method: "post",
  path: "/gallery/invoices/{id}/payment-reversals",
  tags: ["Invoices"],
  summary: "Reverse a payment",
  description: [
    'Takes `amount_cents` of the invoice\'s recorded payments back: a refund paid to the buyer (`reason: "refund"`), a payment recorded in error (`error`), or one that came back (`returned`: a bounced check, a returned transfer, a chargeback). `amount_paid_cents` goes down by the amount and the status follows the money: nothing left paid is `unpaid` (which can then be voided), part of the total `partially_paid`. This is the only way `amount_paid_cents` goes down: a PATCH never lowers it.',
    "`amount_cents` is 1 to the invoice's `amount_paid_cents`: 0, a negative or a fractional amount is 400; more than was paid is 409 `conflict` whose `details` give `status` and `amount_paid_cents`, as is a reversal on an invoice with nothing paid (draft, unpaid) or a void one. Two concurrent reversals never take back more than was paid: the later one is 409 `concurrent_modification` (retry it).",
    "Answers the reversal (201); the invoice's reversals are listed at GET …/payment-reversals. Emits `invoice.updated` (`previous_attributes` with every field that moved) and `invoice.payment_reversed` (`data.reversal`: the amount, reason and note).",
  ].join("\n\n"),
  auth: { scopes: ["sales:update"] },
  idempotent: true,
  pathIds: { id: "inv" },
  exampleBody: { amount_cents: 2500, reason: "refund", note: "Frame damaged in transit." },
  request: {
    params: InvoiceIdParams,
    body: { required: true, content: { "application/json": { schema: PaymentReversalCreate } } },
  },
  responses: {
    201: {
      description: "The reversal recorded.",
      content: { "application/json": { schema: PaymentReversal } },
    },
  },
});

export function registerInvoicePaymentReversals(app: Router): void {
  app.openapi(list, async (c) => {
    const { id } = c.req.valid("param");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof PaymentReversalPage>>(c, list, c.req.valid("query"), (page) =>
      listPaymentReversals(ctx, id, page),
    );
  });
  app.openapi(create, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await createPaymentReversal(serviceContext(c), id, c.req.valid("json")));
  });
}
