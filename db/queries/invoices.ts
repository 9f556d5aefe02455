import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import {
  Invoice,
  InvoiceBilling,
  type InvoiceBody,
  type InvoiceCreateInput,
  type InvoiceStatus,
  invoiceAmountFields,
  PaymentReversal,
  type PaymentReversalCreateInput,
} from "../../lib/schemas/invoices";
import type { Db } from "../client";
import { isoMs, type RowValues, resource } from "../resource";
import { invoicePaymentReversals, invoices } from "../schema";
import type { ArchivedFilter } from "./contact-filters";
import { type KeysetQuery, keysetChildPage, keysetPage } from "./keyset";
import { asRead, textArray } from "./rows";

/**
 * Invoice reads and the statements that write invoices. The money is Postgres's: total_cents and
 * base_amount_cents are generated columns, and every write states the discount through invoice_discount_cents
 * (migration 0008), so nothing here computes an amount.
 */

/** The API representation of an invoice (alias `i`). */
export const invoiceResource = resource({
  schema: Invoice,
  table: invoices,
  alias: "i",
  name: "invoice",
});

/** Who the invoice bills and its balance: GET /gallery/invoices/{id}/billing (alias `i`). */
export const invoiceBillingResource = resource({
  schema: InvoiceBilling,
  table: invoices,
  alias: "i",
  computed: {
    invoice_id: () => sql`i.id`,
    amount_due_cents: () =>
      sql`(case when i.status = 'void' then 0 else i.total_cents - i.amount_paid_cents end)`,
  },
});

/** The invoice's JSON as the write's transaction sees it, for responses and event objects. */
export function invoiceJson(galleryId: string, id: string): SQL {
  return invoiceResource.jsonById(galleryId, id, {});
}

/** Newest first by default; `issued` and `due` order by those dates, invoices without one last either way. */
export const invoiceList = listSpec({
  sorts: ["created", "updated", "issued", "due"],
  defaultSort: "created",
});
type InvoiceSort = (typeof invoiceList.sorts)[number];

/**
 * The keyset expression of a sort. A date compares as its YYYY-MM-DD text (which orders like the date for the
 * years 0001 to 9999 a date can have) under the C collation; a missing date takes a sentinel that sorts after
 * every date in the page's direction (`~` ascending, `!` descending). A cursor is bound to its direction, so the
 * sentinel a page was cut with is the one its continuation compares against.
 */
function invoiceSortKey(sort: InvoiceSort, dir: PageRequest["dir"]): Pick<KeysetQuery, "sortKey" | "cast"> {
  if (sort === "created") return { sortKey: sql`i.created_at`, cast: "timestamptz" };
  if (sort === "updated") return { sortKey: sql`i.updated_at`, cast: "timestamptz" };
  const column = sql.raw(sort === "issued" ? "i.issued_date" : "i.due_date");
  const missing = sql.raw(dir === "asc" ? "'~'" : "'!'");
  return {
    sortKey: sql`((case when ${column} is null then ${missing} else to_char(${column}, 'YYYY-MM-DD') end) collate "C")`,
    cast: "text",
  };
}

export interface InvoiceFilters {
  status?: InvoiceStatus;
  contact_id?: string;
  sale_id?: string;
  issued_from?: string;
  issued_to?: string;
  due_from?: string;
  due_to?: string;
  overdue?: boolean;
  archived?: ArchivedFilter;
}

/** Unpaid or partially paid, and due before today (UTC). */
const OVERDUE = sql`(i.status in ('unpaid', 'partially_paid') and i.due_date < (now() at time zone 'UTC')::date)`;

/** One page (limit + 1 rows) of the gallery's invoices matching the filters. One round trip. */
export function listInvoices(
  db: Db,
  galleryId: string,
  f: InvoiceFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const where = [sql`i.gallery_id = ${galleryId}`];
  const archived = f.archived ?? "exclude";
  if (archived === "exclude" || archived === "false") where.push(sql`i.archived_at is null`);
  else if (archived === "only" || archived === "true") where.push(sql`i.archived_at is not null`);
  if (f.status !== undefined) where.push(sql`i.status = ${f.status}`);
  if (f.contact_id !== undefined) where.push(sql`i.contact_id = ${f.contact_id}`);
  if (f.sale_id !== undefined) where.push(sql`i.sale_id = ${f.sale_id}`);
  if (f.issued_from !== undefined) where.push(sql`i.issued_date >= ${f.issued_from}::date`);
  if (f.issued_to !== undefined) where.push(sql`i.issued_date <= ${f.issued_to}::date`);
  if (f.due_from !== undefined) where.push(sql`i.due_date >= ${f.due_from}::date`);
  if (f.due_to !== undefined) where.push(sql`i.due_date <= ${f.due_to}::date`);
  if (f.overdue !== undefined) where.push(f.overdue ? OVERDUE : sql`not coalesce(${OVERDUE}, false)`);
  return keysetPage(
    db,
    {
      body: invoiceResource.json({}),
      from: sql`invoices i`,
      where,
      ...invoiceSortKey(page.sort as InvoiceSort, page.dir),
      id: sql`i.id`,
    },
    page,
  );
}

/** The amounts a write gives (each optional): what the discount and total are computed from. */
export interface MoneyInput {
  subtotal_cents?: number;
  discount_cents?: number;
  discount_bps?: number;
  tax_cents?: number;
  shipping_cents?: number;
  shipping_tax_cents?: number;
}

type MoneyColumn = (typeof invoiceAmountFields)[number];

/** The amount columns an invoice ends with after a write, as SQL; `total` is what the generated column becomes. */
export interface Money {
  values: Record<MoneyColumn, SQL>;
  total: SQL;
}

/**
 * The amounts after a write that gives `input` over `current` (the stored columns, or a new invoice's defaults).
 * The discount is in cents or in basis points: giving discount_cents alone sets discount_bps to 0; giving
 * discount_bps alone sets a discount in cents aside, or, set to 0, ends a discount in basis points (no
 * discount). Either way discount_cents is what invoice_discount_cents makes of them, against the subtotal the
 * invoice ends with.
 */
export function nextMoney(input: MoneyInput, current: (column: MoneyColumn) => SQL): Money {
  const given = (column: MoneyColumn, type: string, otherwise: SQL): SQL => {
    const value = input[column];
    return value === undefined ? otherwise : sql`${value}::${sql.raw(type)}`;
  };
  const subtotal = given("subtotal_cents", "bigint", current("subtotal_cents"));
  const bps = given(
    "discount_bps",
    "integer",
    input.discount_cents === undefined ? current("discount_bps") : sql`0`,
  );
  // discount_bps alone: leaving a discount in basis points clears it; a discount in cents stays as it is.
  const cents = given(
    "discount_cents",
    "bigint",
    input.discount_bps === undefined
      ? current("discount_cents")
      : sql`(case when ${current("discount_bps")} > 0 then 0 else ${current("discount_cents")} end)::bigint`,
  );
  const discount = sql`invoice_discount_cents(${subtotal}, ${cents}, ${bps})`;
  const tax = given("tax_cents", "bigint", current("tax_cents"));
  const shipping = given("shipping_cents", "bigint", current("shipping_cents"));
  const shippingTax = given("shipping_tax_cents", "bigint", current("shipping_tax_cents"));
  return {
    values: {
      subtotal_cents: subtotal,
      discount_cents: discount,
      discount_bps: bps,
      tax_cents: tax,
      shipping_cents: shipping,
      shipping_tax_cents: shippingTax,
    },
    total: sql`invoice_total_cents(${subtotal}, ${discount}, ${tax}, ${shipping}, ${shippingTax})`,
  };
}

/** Whether a write gives any amount (and so moves the discount and total). */
export function givesMoney(input: MoneyInput): boolean {
  return invoiceAmountFields.some((column) => input[column] !== undefined);
}

export interface InvoiceState {
  body: InvoiceBody;
  /** The written values the Invoice does not show, so an update can tell whether it changes them. */
  unshown: { contact_id: string | null };
  updatedAt: string;
  /** total_cents as it will be after the amounts of the write, computed by Postgres's own definition. */
  nextTotal: number;
}

/**
 * One invoice of the gallery, with what a guarded write needs and the total the write's amounts (`money`) lead
 * to, or null. One round trip.
 */
export async function findInvoice(
  db: Db,
  galleryId: string,
  id: string,
  money: MoneyInput = {},
): Promise<InvoiceState | null> {
  const next = nextMoney(money, (column) => sql`i.${sql.identifier(column)}`);
  const result = await db.execute<{
    body: InvoiceBody;
    contact_id: string | null;
    updated_at: string;
    next_total: string;
  }>(
    sql`select ${invoiceResource.json({})} as body, i.contact_id, ${isoMs(sql`i.updated_at`)} as updated_at,
        (${next.total})::text as next_total
      from invoices i where i.gallery_id = ${galleryId} and i.id = ${id}`,
  );
  const row = result.rows[0];
  return row
    ? {
        body: row.body,
        unshown: { contact_id: row.contact_id },
        updatedAt: row.updated_at,
        nextTotal: Number(row.next_total),
      }
    : null;
}

/**
 * Statements that write invoices. They are composed into one transaction by services/write.ts; none of them
 * runs on its own.
 */

/** Columns of a write that take the value given as it is. */
export type InvoiceValues = Omit<
  RowValues<typeof invoices>,
  MoneyColumn | "id" | "gallery_id" | "invoice_number" | "created_at" | "updated_at"
>;

/**
 * A new invoice. Its number comes from the gallery's invoice sequence, incremented in this transaction: the row
 * lock orders concurrent creates, and a create that aborts gives its number back, so numbers have no gaps. A
 * sale (`sale_id`) fills the billed contact (its buyer), currency and subtotal (its amount) where not given;
 * billing_name defaults to the billed contact's name, currency and fx_base_currency to the gallery's default.
 */
export function insertInvoiceStatement(
  galleryId: string,
  id: string,
  input: InvoiceCreateInput,
  values: { status: InvoiceStatus; issuedDate: string | null; taxCalculatedAt: string | null },
  at: string,
): SQL {
  const money = nextMoney(input, (column) =>
    column === "subtotal_cents" ? sql`coalesce(s.amount_cents, 0)` : sql`0`,
  );
  const contact = input.contact_id === undefined ? sql`s.contact_id` : sql`${input.contact_id}::text`;
  const billingName = input.billing_name === undefined ? sql`c.name` : sql`${input.billing_name}::text`;
  const text = (value: string | null | undefined) => sql`${value ?? null}::text`;
  const date = (value: string | null | undefined) => sql`${value ?? null}::date`;
  const rate = (value: number | null | undefined) => sql`${value ?? null}::double precision`;
  return sql`with seq as (
      insert into invoice_sequences (gallery_id, last_number) values (${galleryId}, 1)
      on conflict (gallery_id) do update set last_number = invoice_sequences.last_number + 1
      returning last_number
    )
    insert into invoices (id, gallery_id, sale_id, contact_id, invoice_number, status, issued_date, due_date,
      subtotal_cents, discount_cents, discount_bps, tax_cents, shipping_cents, shipping_tax_cents,
      accepted_payment_methods, currency, fx_as_of, fx_usd_per_unit, fx_base_usd_per_unit, fx_base_currency,
      billing_name, billing_address, shipping_name, shipping_address, tax_address_line1, tax_address_city,
      tax_address_state, tax_address_postal_code, tax_address_country, tax_calculated_at, taxability_override,
      notes, template_id, metadata, created_at, updated_at)
    select ${id}, g.id, s.id, ${contact},
      'INV-' || lpad(seq.last_number::text, greatest(6, length(seq.last_number::text)), '0'),
      ${values.status}, ${date(values.issuedDate)}, ${date(input.due_date)},
      ${money.values.subtotal_cents}, ${money.values.discount_cents}, ${money.values.discount_bps},
      ${money.values.tax_cents}, ${money.values.shipping_cents}, ${money.values.shipping_tax_cents},
      ${textArray(input.accepted_payment_methods ?? [])},
      coalesce(${text(input.currency)}, s.currency, g.default_currency), ${date(input.fx_as_of)},
      ${rate(input.fx_usd_per_unit)}, ${rate(input.fx_base_usd_per_unit)},
      coalesce(${text(input.fx_base_currency)}, g.default_currency),
      ${billingName}, ${text(input.billing_address)}, ${text(input.shipping_name)},
      ${text(input.shipping_address)}, ${text(input.tax_address_line1)}, ${text(input.tax_address_city)},
      ${text(input.tax_address_state)}, ${text(input.tax_address_postal_code)},
      ${text(input.tax_address_country)}, ${values.taxCalculatedAt}::timestamptz,
      ${input.taxability_override ?? "none"}, ${text(input.notes)}, ${text(input.template_id)},
      ${JSON.stringify(input.metadata ?? {})}::jsonb, ${at}::timestamptz, ${at}::timestamptz
    from seq cross join galleries g
      left join sales s on s.gallery_id = g.id and s.id = ${input.sale_id ?? null}::text
      left join contacts c on c.gallery_id = g.id and c.id = ${contact}
    where g.id = ${galleryId}`;
}

/**
 * The UPDATE for `guarded()`: the values given as they are, the amounts (when the write gives any) through
 * nextMoney over the stored columns, and updated_at. Matches only the row as it was read.
 */
export function updateInvoiceStatement(
  db: Db,
  galleryId: string,
  id: string,
  values: InvoiceValues,
  money: MoneyInput,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const m = givesMoney(money) ? nextMoney(money, (column) => sql`${sql.identifier(column)}`).values : null;
  const amounts = m
    ? {
        subtotalCents: m.subtotal_cents,
        discountCents: m.discount_cents,
        discountBps: m.discount_bps,
        taxCents: m.tax_cents,
        shippingCents: m.shipping_cents,
        shippingTaxCents: m.shipping_tax_cents,
      }
    : {};
  return db
    .update(invoices)
    .set({ ...invoiceResource.row({ ...values, updated_at: at }), ...amounts })
    .where(asRead(invoices, galleryId, id, readUpdatedAt));
}

/** Which request field a rule about two fields names: the one the request gave. */
export interface RuleFields {
  /** discount_cents, or subtotal_cents when only the subtotal moved. */
  discount: "discount_cents" | "subtotal_cents";
  /** due_date, or issued_date when only the date of issue moved. */
  dates: "due_date" | "issued_date";
}

/**
 * The rules of an invoice as a write leaves it, checked on the row inside the write's transaction (after the
 * INSERT or UPDATE, so they read exactly what is stored: a sale's amount, the gallery's default currency, the
 * generated base amount). Each aborts with a 400 naming the field.
 */
export function invoiceRulesStatement(galleryId: string, id: string, fields: RuleFields): SQL {
  const discount =
    fields.discount === "discount_cents"
      ? sql`format('may not exceed subtotal_cents (%s)', i.subtotal_cents)`
      : sql`format('may not be less than discount_cents (%s)', i.discount_cents)`;
  const dates =
    fields.dates === "due_date"
      ? sql`format('must be on or after issued_date (%s)', i.issued_date)`
      : sql`format('must be on or before due_date (%s)', i.due_date)`;
  return sql`select
      expect_valid(i.discount_cents <= i.subtotal_cents, ${fields.discount}, ${discount}),
      expect_valid(i.status in ('draft', 'void') or i.issued_date is not null, 'issued_date',
        'is required once the invoice is issued'),
      expect_valid(i.due_date is null or i.issued_date is null or i.due_date >= i.issued_date, ${fields.dates},
        ${dates}),
      expect_valid(i.currency = i.fx_base_currency or i.fx_usd_per_unit is not null, 'fx_usd_per_unit',
        format('is required when currency (%s) is not fx_base_currency (%s)', i.currency, i.fx_base_currency)),
      expect_valid(i.currency = i.fx_base_currency or i.fx_base_usd_per_unit is not null, 'fx_base_usd_per_unit',
        format('is required when currency (%s) is not fx_base_currency (%s)', i.currency, i.fx_base_currency)),
      expect_valid(i.base_amount_cents is not null or i.fx_usd_per_unit is null or i.fx_base_usd_per_unit is null,
        'fx_usd_per_unit', 'with fx_base_usd_per_unit converts the total to more than 9007199254740991 cents')
    from invoices i where i.gallery_id = ${galleryId} and i.id = ${id}`;
}

/**
 * `previous_attributes` of an update, computed in the transaction: every field of the invoice as read (`before`)
 * whose value the write changed, derived ones included (total_cents, base_amount_cents, a recomputed discount),
 * so the event says exactly what moved. A change the Invoice does not show (the billed contact) is named by the
 * former `updated_at` (`unshownChanged`), which it moved.
 */
export function changedAttributes(before: InvoiceBody, after: SQL, unshownChanged: boolean): SQL {
  return sql`(select coalesce(jsonb_object_agg(b.key, b.value), '{}'::jsonb)
    from jsonb_each(${JSON.stringify(before)}::jsonb) b
    where (b.key <> 'updated_at' or ${unshownChanged}::boolean)
      and b.value is distinct from ((${after})::jsonb -> b.key))`;
}

/** The API representation of a payment reversal (alias `r`). */
export const paymentReversalResource = resource({
  schema: PaymentReversal,
  table: invoicePaymentReversals,
  alias: "r",
});

/** SQL yielding the reversal's JSON, as the write's transaction sees it. */
export function paymentReversalJson(galleryId: string, id: string): SQL {
  return paymentReversalResource.jsonById(galleryId, id, {});
}

/**
 * A reversal of the invoice's payments, in its currency, with the amount paid the invoice is left with. Written in
 * the transaction that lowers the invoice's amount_paid_cents by as much.
 */
export function insertPaymentReversal(
  db: Db,
  galleryId: string,
  id: string,
  invoice: InvoiceBody,
  input: PaymentReversalCreateInput,
  values: { amountPaidAfter: number; createdBy: string | null; at: string },
): SQLWrapper {
  return db.insert(invoicePaymentReversals).values(
    paymentReversalResource.row({
      id,
      gallery_id: galleryId,
      invoice_id: invoice.id,
      amount_cents: input.amount_cents,
      currency: invoice.currency,
      reason: input.reason,
      note: input.note ?? null,
      amount_paid_cents: values.amountPaidAfter,
      created_by: values.createdBy,
      created_at: values.at,
    }),
  );
}

/**
 * One page (limit + 1 rows) of the invoice's payment reversals, or null when the invoice is not the gallery's.
 * One round trip, by invoice_payment_reversals_invoice_idx.
 */
export function listPaymentReversals(
  db: Db,
  galleryId: string,
  invoiceId: string,
  page: PageRequest,
): Promise<PageRow[] | null> {
  return keysetChildPage(
    db,
    sql`select 1 from invoices i where i.gallery_id = ${galleryId} and i.id = ${invoiceId}`,
    {
      body: paymentReversalResource.json({}),
      from: paymentReversalResource.from({}),
      where: [sql`r.invoice_id = ${invoiceId}`],
      sortKey: sql`r.created_at`,
      cast: "timestamptz",
      id: sql`r.id`,
    },
    page,
  );
}
