import { sql } from "drizzle-orm";
import {
  findInvoice,
  insertPaymentReversal,
  invoiceJson,
  listPaymentReversals as listPaymentReversalRows,
  paymentReversalJson,
  updateInvoiceStatement,
} from "../../db/queries/invoices";
import type { DomainEventInput } from "../../db/queries/outbox";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import {
  type InvoiceBody,
  PaymentReversal,
  type PaymentReversalBody,
  type PaymentReversalCreateInput,
} from "../../lib/schemas/invoices";
import type { ServiceContext } from "../context";
import { executeWrite, guarded, notFoundUnlessReplay, refuseUnlessReplay } from "../write";
import { invoiceUpdated, moneyStatus } from "./update";

function notFound(id: string): string {
  return `No invoice ${id} in this gallery.`;
}

/**
 * Why the invoice as read cannot give back `amount` (a 409 naming its status and amount paid), or null: a void
 * invoice is final, and no more can be taken back than was paid.
 */
function reversalRefusal(invoice: InvoiceBody, amount: number): ApiError | null {
  const name = `Invoice ${invoice.invoice_number}`;
  const paid = invoice.amount_paid_cents;
  const details = { status: invoice.status, amount_paid_cents: paid };
  if (invoice.status === "void") {
    return new ApiError(
      "conflict",
      `${name} is void: it has no payments to reverse, and void is final.`,
      details,
    );
  }
  if (paid === 0) {
    return new ApiError(
      "conflict",
      `${name} is ${invoice.status}: nothing has been paid, so nothing can be reversed.`,
      details,
    );
  }
  if (amount > paid) {
    return new ApiError(
      "conflict",
      `${name}: amount_cents (${amount}) is more than the amount paid (${paid}); at most ${paid} can be reversed.`,
      details,
    );
  }
  return null;
}

/**
 * Takes `amount_cents` of the invoice's recorded payments back (a refund, a payment recorded in error, a payment
 * returned): amount_paid_cents goes down by as much and the status follows the money (nothing left → unpaid, part
 * of the total → partially_paid), the reversal is stored in the invoice's ledger, and `invoice.updated` and
 * `invoice.payment_reversed` are recorded. One read, then one batch guarded by the read's updated_at: two
 * concurrent reversals (or a reversal beside a payment) never both land on a stale amount, so no more is ever
 * taken back than was paid; the later one is 409 concurrent_modification. A retry of a reversal that succeeded
 * replays it, even once its refusal would now apply.
 */
export async function createPaymentReversal(
  ctx: ServiceContext,
  invoiceId: string,
  input: PaymentReversalCreateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const found = await findInvoice(db, galleryId, invoiceId);
  if (!found) return notFoundUnlessReplay<PaymentReversalBody, 201>(ctx, notFound(invoiceId));
  const invoice = found.body;
  const refusal = reversalRefusal(invoice, input.amount_cents);
  if (refusal) return refuseUnlessReplay<PaymentReversalBody, 201>(ctx, refusal);
  const paid = invoice.amount_paid_cents - input.amount_cents;
  const status = moneyStatus(paid, invoice.total_cents);
  const at = nextTimestamp(found.updatedAt);
  const id = newId("pyrev");
  const object = invoiceJson(galleryId, invoiceId);
  const reversal = paymentReversalJson(galleryId, id);
  const reversed: DomainEventInput = {
    type: "invoice.payment_reversed",
    resourceType: "invoice",
    resourceId: invoiceId,
    data: sql`json_build_object('object', (${object}),
      'previous_attributes', json_build_object('amount_paid_cents', ${invoice.amount_paid_cents}::bigint),
      'reversal', (${reversal}))`,
  };
  return executeWrite(ctx, {
    schema: PaymentReversal,
    statements: [
      guarded(
        updateInvoiceStatement(
          db,
          galleryId,
          invoiceId,
          { status, amount_paid_cents: paid },
          {},
          found.updatedAt,
          at,
        ),
      ),
      insertPaymentReversal(db, galleryId, id, invoice, input, {
        amountPaidAfter: paid,
        createdBy: principal.memberId,
        at,
      }),
    ],
    events: [invoiceUpdated(invoice, object), reversed],
    status: 201,
    body: reversal,
  });
}

/** One page (limit + 1 rows) of the invoice's payment reversals; 404 when the invoice is not the gallery's. */
export async function listPaymentReversals(
  ctx: ServiceContext,
  invoiceId: string,
  page: PageRequest,
): Promise<PageRow[]> {
  const rows = await listPaymentReversalRows(ctx.db, ctx.principal.galleryId, invoiceId, page);
  if (rows === null) throw new ApiError("not_found", notFound(invoiceId));
  return rows;
}
