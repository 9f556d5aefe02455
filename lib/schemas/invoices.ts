import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { CalendarDate, TimestampOut, UtcTimestamp } from "../time";
import { currency, metadata } from "./artworks";
import { described } from "./describe";

/**
 * Invoices bill a sale (or stand alone) to a contact. The money is computed by Postgres, never taken from the
 * client: `total_cents`, a discount given in basis points and `base_amount_cents` come from one definition
 * (the invoice_* functions of migration 0008, read by generated columns), so every writer agrees.
 */

/**
 * The complete status set. `draft` (being prepared: no payment yet), `unpaid` (issued, nothing paid),
 * `partially_paid` (issued, part of the total paid), `paid` (the whole total paid), `void` (cancelled before any
 * payment; terminal). Between unpaid, partially_paid and paid the status follows `amount_paid_cents`.
 */
export const invoiceStatuses = ["draft", "unpaid", "partially_paid", "paid", "void"] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/** The statuses an invoice can be created in: prepared (`draft`) or issued at once (`unpaid`). */
export const invoiceCreateStatuses = ["draft", "unpaid"] as const;

/**
 * The statuses a PATCH can ask for: `unpaid` issues a draft, `paid` pays the balance, `void` cancels.
 * `partially_paid` is never asked for (it follows `amount_paid_cents`), and `draft` is only set at creation.
 */
export const invoiceUpdateStatuses = ["unpaid", "paid", "void"] as const;

/**
 * How the gallery accepts payment of this invoice, a complete set: `card` (credit or debit card), `bank_transfer`
 * (a domestic account-to-account transfer: ACH, SEPA, Faster Payments), `wire` (an international SWIFT wire),
 * `check`, `cash`.
 */
export const paymentMethods = ["card", "bank_transfer", "wire", "check", "cash"] as const;

/**
 * How tax applies regardless of the tax address: `none` (no override: tax follows the address), `exempt` (the
 * buyer is exempt, e.g. a museum or a resale certificate), `reverse_charge` (the buyer accounts for the tax, as
 * for business buyers across EU borders).
 */
export const taxabilityOverrides = ["none", "exempt", "reverse_charge"] as const;

/** Each amount a caller gives: 0 to 10^15 cents, so no sum of them passes 2^53 - 1. */
/** The amounts an invoice's total is computed from (by Postgres: db/queries/invoices.ts and migration 0008). */
export const invoiceAmountFields = [
  "subtotal_cents",
  "discount_cents",
  "discount_bps",
  "tax_cents",
  "shipping_cents",
  "shipping_tax_cents",
] as const;

export const MAX_INVOICE_AMOUNT = 1_000_000_000_000_000;
/** Exchange rates: positive, at most 10^9 US dollars per unit. */
const MAX_RATE = 1_000_000_000;

const Amount = z.number().int();

/**
 * What the invoice's address and tax fields mean: one text per field, shared by the Invoice and its create and
 * update bodies, so the three say the same.
 */
const invoiceTexts = {
  billing_name:
    "The name the invoice is addressed to, as printed on it; when not given at creation, the billed contact's name. Null for none.",
  billing_address:
    "The postal address the invoice is addressed to, as printed on it (free text); null for none.",
  shipping_name:
    "The name of the recipient the works are shipped to, as printed on the invoice; null for none.",
  shipping_address: "Where the works are shipped, as printed on the invoice (free text); null for none.",
  tax_address_line1:
    "The street line of the tax address: the place the sale is taxed at, which the tax amounts were calculated for (the API computes no tax). Null for none.",
  tax_address_city: "The city of the tax address; null for none.",
  tax_address_state: "The state, province or region of the tax address; null for none.",
  tax_address_postal_code: "The postal code of the tax address; null for none.",
  tax_address_country:
    "The country of the tax address: ISO 3166-1 alpha-2, upper case (`US`); null for none.",
  taxability_override:
    "How tax applies regardless of the tax address: `none` (tax follows the address; the default), `exempt` (the buyer is exempt, e.g. a museum or a resale certificate) or `reverse_charge` (the buyer accounts for the tax, as for business buyers across EU borders).",
  notes:
    "The gallery's notes on the invoice (free text); null for none. With metadata, the only field that still changes once the invoice is void.",
};
const DateOut = z.string().openapi({ format: "date", example: "2024-02-29" });

export const Invoice = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "inv_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        sale_id: z.string().nullable().openapi({
          description:
            "The sale this invoice bills; null for a standalone invoice (or once the sale was deleted).",
        }),
        invoice_number: z.string().openapi({
          example: "INV-000042",
          description:
            "`INV-` and the gallery's invoice sequence, zero-padded to 6 digits: assigned at creation (drafts included), sequential with no gaps, never reused.",
        }),
        status: z.enum(invoiceStatuses).openapi({
          description:
            "`draft` (being prepared: no payment yet), `unpaid` (issued, nothing paid), `partially_paid` (issued, part of the total paid), `paid` (the whole total paid) or `void` (cancelled before any payment; terminal). Between unpaid, partially_paid and paid it follows amount_paid_cents.",
        }),
        issued_date: DateOut.nullable().openapi({
          description: "The date of issue (YYYY-MM-DD); set, at the latest, when the invoice is issued.",
        }),
        due_date: DateOut.nullable().openapi({ description: "On or after issued_date; null for none." }),
        subtotal_cents: Amount.openapi({
          description:
            "The amount before discount, tax and shipping, in minor units (cents) of `currency`; for an invoice of a sale, the sale's amount unless given.",
        }),
        discount_cents: Amount.openapi({
          description:
            "The discount: as given, or, with discount_bps, round half up of subtotal_cents × discount_bps / 10000.",
        }),
        discount_bps: z.number().int().openapi({
          description:
            "A discount in basis points of the subtotal (1000 = 10%); 0 when the discount is in cents.",
        }),
        tax_cents: Amount.openapi({
          description:
            "Tax on the goods, in minor units (cents) of `currency`, as given (the API computes no tax).",
        }),
        shipping_cents: Amount.openapi({ description: "Shipping, in minor units (cents) of `currency`." }),
        shipping_tax_cents: Amount.openapi({
          description: "Tax on shipping, in minor units (cents) of `currency`, as given.",
        }),
        total_cents: Amount.openapi({
          description:
            "subtotal_cents − discount_cents + tax_cents + shipping_cents + shipping_tax_cents, computed by the API.",
        }),
        amount_paid_cents: Amount.openapi({ description: "The cumulative amount paid so far." }),
        accepted_payment_methods: z.array(z.enum(paymentMethods)).openapi({
          description:
            "How the gallery accepts payment of this invoice, in the order given: `card`, `bank_transfer` (a domestic account-to-account transfer: ACH, SEPA, Faster Payments), `wire` (an international SWIFT wire), `check`, `cash`. Empty when none was named.",
        }),
        currency: z.string().openapi({
          description:
            "The ISO 4217 code every amount of the invoice is in: as given, else the sale's currency, else the gallery's default currency.",
        }),
        fx_as_of: DateOut.nullable().openapi({ description: "The date of the exchange rates." }),
        fx_usd_per_unit: z.number().nullable().openapi({ description: "US dollars per unit of `currency`." }),
        fx_base_usd_per_unit: z
          .number()
          .nullable()
          .openapi({ description: "US dollars per unit of `fx_base_currency`." }),
        fx_base_currency: z.string().nullable().openapi({
          description: "The currency of base_amount_cents: the gallery's default currency unless given.",
        }),
        base_amount_cents: Amount.nullable().openapi({
          description:
            "total_cents in fx_base_currency: equal to total_cents when currency is fx_base_currency, else round half away from zero of total_cents × fx_usd_per_unit / fx_base_usd_per_unit, computed in decimal (numeric), not floating point. Null only for an invoice stored without the rates it needs (never one written through the API).",
        }),
        billing_name: z.string().nullable(),
        billing_address: z.string().nullable(),
        shipping_name: z.string().nullable(),
        shipping_address: z.string().nullable(),
        tax_address_line1: z.string().nullable(),
        tax_address_city: z.string().nullable(),
        tax_address_state: z.string().nullable(),
        tax_address_postal_code: z.string().nullable(),
        tax_address_country: z.string().nullable(),
        tax_calculated_at: TimestampOut.nullable().openapi({
          description:
            "When the tax amounts were calculated (UTC), as the gallery gave it; null when not given.",
        }),
        taxability_override: z.enum(taxabilityOverrides),
        notes: z.string().nullable(),
        archived_at: TimestampOut.nullable(),
        template_id: z.string().nullable().openapi({
          description:
            "The invoice template (a layout with its header, footer and terms) it is rendered with; null for none.",
        }),
        metadata: z.record(z.string(), z.string()).openapi({
          description:
            "The gallery's own key-value strings, stored and returned as given; the API never reads them.",
        }),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      invoiceTexts,
    ),
  )
  .openapi("Invoice", {
    description:
      "Exactly the specification's fields. The billed contact and the balance are read at GET /gallery/invoices/{id}/billing.",
  });
export type InvoiceBody = z.infer<typeof Invoice>;

/**
 * Who an invoice bills and what is still owed: a read of its own, since the specification's Invoice lists
 * exactly what it exposes. The contact is written through the invoice's create and update (`contact_id`).
 */
export const InvoiceBilling = z
  .object({
    invoice_id: z.string(),
    contact_id: z.string().nullable().openapi({
      description:
        "The billed contact: the sale's buyer unless given; optional on a standalone invoice; null once that contact was deleted.",
    }),
    amount_due_cents: Amount.openapi({
      description: "total_cents − amount_paid_cents; 0 for a void invoice, which nobody owes.",
    }),
    currency: z.string().openapi({ description: "The invoice's currency, which amount_due_cents is in." }),
  })
  .openapi("InvoiceBilling");

const amount = (what: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(MAX_INVOICE_AMOUNT)
    .openapi({ description: `${what}: 0 to 10^15 cents, in \`currency\`.` });
const rate = (what: string) =>
  z
    .number()
    .positive()
    .max(MAX_RATE)
    .nullable()
    .openapi({ description: `${what}: positive, at most 10^9; kept to 15 significant digits.` });
const text = (max: number) => z.string().max(max).nullable();

/** Fields a caller may write, shared by create and update. */
const writableFields = described(
  {
    contact_id: idString("con").nullable().openapi({ description: "A contact of this gallery, or null." }),
    issued_date: CalendarDate.nullable().openapi({
      description:
        "The date of issue (YYYY-MM-DD); when the invoice is issued without one (created `unpaid`, or a draft set to `unpaid`), today's date, UTC.",
    }),
    due_date: CalendarDate.nullable().openapi({
      description: "On or after issued_date (else 400 naming it).",
    }),
    subtotal_cents: amount("The amount before discount, tax and shipping"),
    discount_cents: amount("A discount in cents (no more than the subtotal)"),
    discount_bps: z.number().int().min(0).max(10_000).openapi({
      description:
        "A discount in basis points of the subtotal, 0 to 10000; discount_cents then shows the cents it comes to.",
    }),
    tax_cents: amount("Tax on the goods"),
    shipping_cents: amount("Shipping"),
    shipping_tax_cents: amount("Tax on shipping"),
    accepted_payment_methods: z
      .array(z.enum(paymentMethods))
      .max(paymentMethods.length)
      .refine((methods) => new Set(methods).size === methods.length, { message: "lists a method twice" })
      .openapi({ description: "Distinct payment methods, in order; replaces the list." }),
    currency: currency.openapi({ description: "ISO 4217, upper case." }),
    fx_as_of: CalendarDate.nullable().openapi({
      description:
        "The date (YYYY-MM-DD) the exchange rates fx_usd_per_unit and fx_base_usd_per_unit are from; null for none.",
    }),
    fx_usd_per_unit: rate("US dollars per unit of `currency`"),
    fx_base_usd_per_unit: rate("US dollars per unit of `fx_base_currency`"),
    fx_base_currency: currency.openapi({
      description: "ISO 4217, upper case: the currency of base_amount_cents.",
    }),
    billing_name: text(200),
    billing_address: text(2000),
    shipping_name: text(200),
    shipping_address: text(2000),
    tax_address_line1: text(200),
    tax_address_city: text(100),
    tax_address_state: text(100),
    tax_address_postal_code: text(20),
    tax_address_country: z
      .string()
      .regex(/^[A-Z]{2}$/, { message: "must be an ISO 3166-1 alpha-2 code in upper case, e.g. US" })
      .nullable()
      .openapi({ example: "US" }),
    tax_calculated_at: UtcTimestamp.nullable().openapi({ description: "UTC, ends in Z." }),
    taxability_override: z.enum(taxabilityOverrides),
    notes: text(20_000),
    template_id: idString("tmpl")
      .nullable()
      .openapi({ description: "An invoice template of this gallery, or null." }),
    metadata,
  },
  invoiceTexts,
);

/** Both discounts at once are ambiguous: the discount is in cents or in basis points. */
function oneDiscount(v: { discount_cents?: number; discount_bps?: number }, ctx: z.RefinementCtx): void {
  if ((v.discount_cents ?? 0) > 0 && (v.discount_bps ?? 0) > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["discount_bps"],
      message:
        "cannot be given with a non-zero discount_cents: give the discount in cents or in basis points",
    });
  }
}

export const InvoiceCreate = z
  .strictObject({
    sale_id: idString("sale").openapi({
      description:
        "A sale of this gallery to bill. Fills contact_id (the buyer), currency, subtotal_cents (the sale's amount) and billing_name (the billed contact's name) where not given.",
    }),
    status: z.enum(invoiceCreateStatuses).openapi({
      description: "`unpaid` (issued at once; the default) or `draft`.",
    }),
    ...writableFields,
  })
  .partial()
  .superRefine((v, ctx) => {
    oneDiscount(v, ctx);
    if (v.sale_id === undefined && v.subtotal_cents === undefined) {
      ctx.addIssue({ code: "custom", path: ["subtotal_cents"], message: "is required without sale_id" });
    }
  })
  .openapi("InvoiceCreate");

export const InvoiceUpdate = z
  .strictObject({
    status: z
      .enum(invoiceUpdateStatuses, {
        message:
          "must be unpaid (issue a draft), paid (pay the balance) or void; partially_paid follows amount_paid_cents and draft is set only at creation",
      })
      .openapi({
        description:
          "`unpaid` issues a draft; `paid` pays the balance (amount_paid_cents becomes total_cents); `void` cancels a draft or unpaid invoice.",
      }),
    amount_paid_cents: z
      .number()
      .int()
      .min(0)
      .max(MAX_INVOICE_AMOUNT * 4)
      .openapi({
        description:
          "The new cumulative amount paid (not the payment itself, so a retried request cannot pay twice): it may not decrease (POST …/payment-reversals takes a payment back) nor pass total_cents.",
      }),
    ...writableFields,
  })
  .partial()
  .superRefine(oneDiscount)
  .openapi("InvoiceUpdate");

export type InvoiceCreateInput = z.infer<typeof InvoiceCreate>;
export type InvoiceUpdateInput = z.infer<typeof InvoiceUpdate>;

export const InvoiceIdParams = z.strictObject({
  id: idString("inv").openapi({ param: { name: "id", in: "path" } }),
});

/**
 * Why a payment is taken back, a complete set: `refund` (the gallery paid the money back to the buyer), `error`
 * (the payment was recorded in error: it never came in, or came in for another invoice), `returned` (the payment
 * came back: a bounced check, a returned transfer, a card chargeback).
 */
export const paymentReversalReasons = ["refund", "error", "returned"] as const;

/**
 * A payment reversal: part or all of an invoice's recorded payments taken back. Reversals are the invoice's
 * ledger of money that went out again; they are never changed or deleted.
 */
export const PaymentReversal = z
  .object({
    id: z.string().openapi({
      example: "pyrev_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The reversal's id (`pyrev_…`): prefixed and time-ordered; unique, never reused.",
    }),
    invoice_id: z.string(),
    amount_cents: Amount.openapi({
      description: "The amount taken back, in `currency`: amount_paid_cents went down by this much.",
    }),
    currency: z.string().openapi({ description: "The invoice's currency when the reversal was recorded." }),
    reason: z.enum(paymentReversalReasons).openapi({
      description:
        "Why the payment was taken back: `refund` (the gallery paid the money back to the buyer), `error` (the payment was recorded in error) or `returned` (the payment came back: a bounced check, a returned transfer, a card chargeback).",
    }),
    note: z.string().nullable().openapi({ description: "What the gallery noted about it." }),
    amount_paid_cents: Amount.openapi({
      description: "The invoice's amount paid right after this reversal (so a list reads as a ledger).",
    }),
    created_by: z.string().nullable().openapi({
      description: "The member who recorded it (a session); null when recorded with a secret key.",
    }),
    created_at: TimestampOut,
  })
  .openapi("PaymentReversal", {
    description:
      "A payment reversal: part or all of an invoice's recorded payments taken back (a refund, a payment recorded in error, a returned payment). Reversals are the invoice's ledger of money that went out again; they are never changed or deleted.",
  });
export type PaymentReversalBody = z.infer<typeof PaymentReversal>;

export const PaymentReversalCreate = z
  .strictObject({
    amount_cents: z
      .number()
      .int()
      .min(1)
      .max(MAX_INVOICE_AMOUNT * 4)
      .openapi({
        description:
          "The amount to take back, in the invoice's currency: at least 1 and at most the invoice's amount_paid_cents (more is 409).",
      }),
    reason: z.enum(paymentReversalReasons).openapi({
      description:
        "`refund` (paid back to the buyer), `error` (recorded in error), `returned` (bounced check, returned transfer, chargeback).",
    }),
    note: z.string().trim().min(1).max(2000).optional().openapi({ description: "A note for the books." }),
  })
  .openapi("PaymentReversalCreate");
export type PaymentReversalCreateInput = z.infer<typeof PaymentReversalCreate>;
