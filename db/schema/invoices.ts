import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { artworks } from "./artworks";
import { cents, createdAt, galleryId, stringMap, ts, updatedAt } from "./columns";
import { sales } from "./contacts";
import { galleries } from "./galleries";

/** Layouts an invoice can be rendered with (`invoices.template_id`). */
export const invoiceTemplates = pgTable(
  "invoice_templates",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    header: text("header"),
    footer: text("footer"),
    terms: text("terms"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("invoice_templates_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    uniqueIndex("invoice_templates_gallery_default_key").on(t.galleryId).where(sql`${t.isDefault}`),
  ],
);

export const invoices = pgTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    saleId: text("sale_id").references(() => sales.id, { onDelete: "set null" }),
    invoiceNumber: text("invoice_number").notNull(),
    status: text("status").notNull().default("unpaid"),
    issuedDate: date("issued_date", { mode: "string" }),
    dueDate: date("due_date", { mode: "string" }),
    subtotalCents: cents("subtotal_cents").notNull().default(0),
    discountCents: cents("discount_cents").notNull().default(0),
    discountBps: integer("discount_bps").notNull().default(0),
    taxCents: cents("tax_cents").notNull().default(0),
    shippingCents: cents("shipping_cents").notNull().default(0),
    shippingTaxCents: cents("shipping_tax_cents").notNull().default(0),
    totalCents: cents("total_cents").notNull().default(0),
    amountPaidCents: cents("amount_paid_cents").notNull().default(0),
    acceptedPaymentMethods: text("accepted_payment_methods").array().notNull().default(sql`'{}'::text[]`),
    currency: text("currency").notNull().default("USD"),
    /** Date of the FX rates below. */
    fxAsOf: date("fx_as_of", { mode: "string" }),
    fxUsdPerUnit: doublePrecision("fx_usd_per_unit"),
    fxBaseUsdPerUnit: doublePrecision("fx_base_usd_per_unit"),
    fxBaseCurrency: text("fx_base_currency"),
    /** total_cents converted into fx_base_currency. */
    baseAmountCents: cents("base_amount_cents"),
    billingName: text("billing_name"),
    billingAddress: text("billing_address"),
    shippingName: text("shipping_name"),
    shippingAddress: text("shipping_address"),
    taxAddressLine1: text("tax_address_line1"),
    taxAddressCity: text("tax_address_city"),
    taxAddressState: text("tax_address_state"),
    taxAddressPostalCode: text("tax_address_postal_code"),
    taxAddressCountry: text("tax_address_country"),
    taxCalculatedAt: ts("tax_calculated_at"),
    taxabilityOverride: text("taxability_override").notNull().default("none"),
    notes: text("notes"),
    archivedAt: ts("archived_at"),
    templateId: text("template_id").references(() => invoiceTemplates.id, { onDelete: "set null" }),
    metadata: stringMap("metadata"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("invoices_gallery_number_key").on(t.galleryId, t.invoiceNumber),
    index("invoices_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("invoices_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    index("invoices_gallery_status_idx").on(t.galleryId, t.status, t.createdAt, t.id),
    index("invoices_gallery_due_idx").on(t.galleryId, t.dueDate, t.id),
    index("invoices_sale_idx").on(t.galleryId, t.saleId),
  ],
);

export const invoiceLineItems = pgTable(
  "invoice_line_items",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    artworkId: text("artwork_id").references(() => artworks.id, { onDelete: "set null" }),
    description: text("description").notNull(),
    amountCents: cents("amount_cents").notNull(),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("invoice_line_items_invoice_idx").on(t.invoiceId, t.position, t.id),
    index("invoice_line_items_artwork_idx").on(t.galleryId, t.artworkId),
  ],
);
