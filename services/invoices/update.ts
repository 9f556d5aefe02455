import { type SQL, sql } from "drizzle-orm";
import {
  changedAttributes,
  findInvoice,
  type InvoiceState,
  type InvoiceValues,
  invoiceJson,
  invoiceRulesStatement,
  updateInvoiceStatement,
} from "../../db/queries/invoices";
import type { DomainEventInput } from "../../db/queries/outbox";
import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { contacts, invoiceTemplates } from "../../db/schema";
import { previousAttributes } from "../../lib/json";
import { ApiError } from "../../lib/problem";
import {
  Invoice,
  type InvoiceBody,
  type InvoiceStatus,
  type InvoiceUpdateInput,
  invoiceAmountFields,
} from "../../lib/schemas/invoices";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import {
  changeEvent,
  executeWrite,
  guarded,
  notFoundUnlessReplay,
  refuseUnlessReplay,
  type WritePlan,
} from "../write";

/** Fields that fix what is owed: they no longer change once the invoice is paid. */
const MONEY_FIELDS: readonly string[] = [
  ...invoiceAmountFields,
  "currency",
  "fx_as_of",
  "fx_usd_per_unit",
  "fx_base_usd_per_unit",
  "fx_base_currency",
];

/** What still changes on a void invoice (besides the archive shelf). */
const VOID_EDITABLE: readonly string[] = ["notes", "metadata"];

/** Fields written as given (the amounts go through the money definition; status and payment are decided here). */
const VALUE_FIELDS = [
  "contact_id",
  "issued_date",
  "due_date",
  "accepted_payment_methods",
  "currency",
  "fx_as_of",
  "fx_usd_per_unit",
  "fx_base_usd_per_unit",
  "fx_base_currency",
  "billing_name",
  "billing_address",
  "shipping_name",
  "shipping_address",
  "tax_address_line1",
  "tax_address_city",
  "tax_address_state",
  "tax_address_postal_code",
  "tax_address_country",
  "tax_calculated_at",
  "taxability_override",
  "notes",
  "template_id",
  "metadata",
] as const satisfies readonly (keyof InvoiceValues & keyof InvoiceUpdateInput)[];

/** The status the money gives an issued invoice: nothing paid, part of the total, or all of it. */
export function moneyStatus(paid: number, total: number): InvoiceStatus {
  if (paid === 0) return "unpaid";
  return paid < total ? "partially_paid" : "paid";
}

function conflict(message: string, details: Record<string, unknown>): ApiError {
  return new ApiError("conflict", message, details);
}

/** What a PATCH does to the invoice as read: the refusal, or the new status and amount paid. */
type Decision = { refusal: ApiError } | { status: InvoiceStatus; paid: number };

/**
 * The invoice's state machine. `changed` are the fields whose values the request changes; `nextTotal` the total
 * its amounts lead to (computed by Postgres when the invoice was read).
 */
function decide(
  body: InvoiceBody,
  input: InvoiceUpdateInput,
  changed: readonly string[],
  nextTotal: number,
): Decision {
  const was = body.status;
  const name = `Invoice ${body.invoice_number}`;
  if (was === "void") {
    const locked = changed.filter((f) => !VOID_EDITABLE.includes(f));
    if (locked.length > 0) {
      const refusal = conflict(
        `${name} is void: only its notes and metadata change (and it can be archived).`,
        { status: was, fields: locked },
      );
      return { refusal };
    }
    return { status: was, paid: body.amount_paid_cents };
  }
  const moneyChanged = changed.filter((f) => MONEY_FIELDS.includes(f));
  if (was === "paid" && moneyChanged.length > 0) {
    const refusal = conflict(
      `${name} is paid: its amounts, currency and exchange rates no longer change (addresses, dates, notes and metadata still do).`,
      { status: was, fields: moneyChanged },
    );
    return { refusal };
  }
  const asked = changed.includes("status") ? input.status : undefined;
  const paidBefore = body.amount_paid_cents;
  if (asked === "void" && was !== "draft" && was !== "unpaid") {
    const refusal = conflict(
      `${name} is ${was}: a payment was recorded (amount_paid_cents ${paidBefore}), so it cannot be voided; refund the payment first (POST /gallery/invoices/${body.id}/payment-reversals).`,
      { status: was, amount_paid_cents: paidBefore },
    );
    return { refusal };
  }
  if (asked === "void" && changed.includes("amount_paid_cents")) {
    const refusal = conflict(`${name}: a payment cannot be recorded on an invoice being voided.`, {
      status: was,
      amount_paid_cents: paidBefore,
    });
    return { refusal };
  }
  if (asked === "void") return { status: "void", paid: paidBefore };
  if (asked === "unpaid" && was !== "draft") {
    const refusal = conflict(
      `${name} is ${was}: its status follows amount_paid_cents (${paidBefore}), which a PATCH never lowers (reverse a payment with POST /gallery/invoices/${body.id}/payment-reversals).`,
      { status: was, amount_paid_cents: paidBefore },
    );
    return { refusal };
  }
  // Issuing a draft in the same request lets a payment be recorded with it.
  const issued = was === "draft" ? asked === "unpaid" : true;
  const pays = asked === "paid" || changed.includes("amount_paid_cents");
  if (pays && !issued) {
    const refusal = conflict(`${name} is a draft: issue it (status unpaid) before recording a payment.`, {
      status: was,
    });
    return { refusal };
  }
  let paid = paidBefore;
  if (asked === "paid") {
    if (input.amount_paid_cents !== undefined && input.amount_paid_cents !== nextTotal) {
      const refusal = conflict(
        `${name}: status paid pays the balance, so amount_paid_cents must equal total_cents (${nextTotal}).`,
        { status: was, total_cents: nextTotal, amount_paid_cents: paidBefore },
      );
      return { refusal };
    }
    paid = nextTotal;
  } else if (input.amount_paid_cents !== undefined && changed.includes("amount_paid_cents")) {
    if (input.amount_paid_cents < paidBefore) {
      const refusal = conflict(
        `${name}: amount_paid_cents is the cumulative amount paid (${paidBefore}) and may not decrease (reverse a payment with POST /gallery/invoices/${body.id}/payment-reversals).`,
        { status: was, amount_paid_cents: paidBefore },
      );
      return { refusal };
    }
    paid = input.amount_paid_cents;
  }
  // A negative total (a discount above the subtotal) is the rules' 400, unless money was paid against it.
  if (paid > nextTotal && !(nextTotal < 0 && paid === 0)) {
    const balance = Math.max(nextTotal - paidBefore, 0);
    const refusal = changed.includes("amount_paid_cents")
      ? conflict(
          `${name}: amount_paid_cents (${paid}) would exceed total_cents (${nextTotal}); the balance is ${balance}.`,
          { status: was, total_cents: nextTotal, amount_paid_cents: paidBefore, amount_due_cents: balance },
        )
      : conflict(
          `${name}: the amounts would make total_cents (${nextTotal}) less than amount_paid_cents (${paidBefore}).`,
          { status: was, total_cents: nextTotal, amount_paid_cents: paidBefore },
        );
    return { refusal };
  }
  if (asked === "paid") return { status: "paid", paid };
  const status: InvoiceStatus = asked === "unpaid" ? "unpaid" : was;
  if (status === "draft") return { status, paid };
  const moved = paid !== paidBefore || nextTotal !== body.total_cents || was === "draft";
  return { status: moved ? moneyStatus(paid, nextTotal) : status, paid };
}

/**
 * `invoice.updated` of a write to the invoice as read (`before`): `previous_attributes` is every field the write
 * moved, computed in its transaction against `object`, the invoice after it; `unshownChanged` when the write also
 * moved what the Invoice does not show (the billed contact), named by the former `updated_at`.
 */
export function invoiceUpdated(before: InvoiceBody, object: SQL, unshownChanged = false): DomainEventInput {
  return {
    type: "invoice.updated",
    resourceType: "invoice",
    resourceId: before.id,
    data: sql`json_build_object('object', (${object}), 'previous_attributes', ${changedAttributes(before, object, unshownChanged)})`,
  };
}

/**
 * The plan of a change the state machine allows: the values, the guarded UPDATE, the rules on the row as left,
 * `invoice.updated` with every field that moved, and the specific events beside it.
 */
function changePlan(
  ctx: ServiceContext,
  id: string,
  found: InvoiceState,
  input: InvoiceUpdateInput,
  next: { status: InvoiceStatus; paid: number },
  at: string,
): WritePlan<typeof Invoice, 200> {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const body = found.body;
  const values: InvoiceValues = {};
  for (const field of VALUE_FIELDS) {
    if (input[field] !== undefined) Object.assign(values, { [field]: input[field] });
  }
  if (next.status !== body.status) values.status = next.status;
  if (next.paid !== body.amount_paid_cents) values.amount_paid_cents = next.paid;
  const issuing = body.status === "draft" && next.status !== "draft" && next.status !== "void";
  if (issuing && input.issued_date === undefined && body.issued_date === null) {
    values.issued_date = at.slice(0, 10);
  }
  const object = invoiceJson(galleryId, id);
  const events: DomainEventInput[] = [
    invoiceUpdated(
      body,
      object,
      values.contact_id !== undefined && values.contact_id !== found.unshown.contact_id,
    ),
  ];
  if (issuing) events.push(changeEvent("invoice.issued", "invoice", id, object));
  if (next.paid > body.amount_paid_cents) {
    events.push(
      changeEvent("invoice.payment_recorded", "invoice", id, object, {
        amount_paid_cents: body.amount_paid_cents,
      }),
    );
  }
  if (next.status === "paid" && body.status !== "paid")
    events.push(changeEvent("invoice.paid", "invoice", id, object));
  if (next.status === "void" && body.status !== "void") {
    events.push(changeEvent("invoice.voided", "invoice", id, object));
  }
  return {
    schema: Invoice,
    statements: [
      ...(input.contact_id ? [expectReferences(contacts, galleryId, [input.contact_id], "contact_id")] : []),
      ...(input.template_id
        ? [expectReferences(invoiceTemplates, galleryId, [input.template_id], "template_id")]
        : []),
      guarded(updateInvoiceStatement(db, galleryId, id, values, input, found.updatedAt, at)),
      invoiceRulesStatement(galleryId, id, {
        discount:
          input.discount_cents === undefined && input.subtotal_cents !== undefined
            ? "subtotal_cents"
            : "discount_cents",
        dates: input.due_date === undefined && input.issued_date !== undefined ? "issued_date" : "due_date",
      }),
    ],
    events,
    status: 200,
    body: object,
  };
}

/**
 * Changes an invoice: status, dates, amounts, payment, addresses and the rest (see the PATCH operation for the
 * rules). The invoice is read with the total the request's amounts lead to, the state machine decides, and the
 * change runs guarded by the read's updated_at, so two concurrent payments never both land on a stale amount
 * (the later one is 409 concurrent_modification). A refusal of a retried request that already succeeded replays
 * its response. A request that changes nothing records nothing.
 */
export async function updateInvoice(ctx: ServiceContext, id: string, patch: InvoiceUpdateInput) {
  const { db, principal } = ctx;
  // Compared with the stored value as the API prints it, so another spelling of the same instant is no change.
  const input = patch.tax_calculated_at
    ? { ...patch, tax_calculated_at: toStoredMs(patch.tax_calculated_at) }
    : patch;
  const found = await findInvoice(db, principal.galleryId, id, input);
  if (!found) return notFoundUnlessReplay<unknown, 200>(ctx, `No invoice ${id} in this gallery.`);
  // A discount in cents alone turns a discount in basis points off: that is a change too.
  const effective =
    input.discount_cents !== undefined && input.discount_bps === undefined
      ? { ...input, discount_bps: 0 }
      : input;
  const changed = Object.keys(previousAttributes({ ...found.body, ...found.unshown }, effective));
  const object = invoiceJson(principal.galleryId, id);
  if (changed.length === 0) {
    return executeWrite(ctx, { schema: Invoice, statements: [], events: [], status: 200, body: object });
  }
  const decision = decide(found.body, input, changed, found.nextTotal);
  if ("refusal" in decision) return refuseUnlessReplay<unknown, 200>(ctx, decision.refusal);
  return executeWrite(ctx, changePlan(ctx, id, found, input, decision, nextTimestamp(found.updatedAt)));
}
