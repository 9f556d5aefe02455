/**
 * The invoice template and the invoices: over completed sales of the last months (a line per work sold) in every
 * status, a voided invoice (archived) and its reissue, and a standalone invoice with no sale. The money is
 * what the API writes: a discount in basis points stored as the cents it comes to (rounded half up), the amount
 * paid following the status; Postgres generates total_cents and base_amount_cents from them (migration 0008).
 * Numbers run INV-000001… in the order the invoices were created, and the gallery's invoice sequence stands at
 * the last of them.
 */
import * as schema from "../../db/schema";
import type { invoiceStatuses, paymentMethods } from "../../lib/schemas/invoices";
import { BASE, DAY, DEFAULT_CURRENCY, FX_TO_DEFAULT, HOUR, iso, isoDate } from "./common";
import type { Insert, Person, Sale, SeedContext } from "./context";

type Status = (typeof invoiceStatuses)[number];
type PaymentMethod = (typeof paymentMethods)[number];

/** round_half_up(a / b) for a ≥ 0, b > 0, in integers. */
const divHalfUp = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

/** The discount a basis-point rate gives: subtotal × bps / 10,000, rounded half up. */
export const discountFromBps = (subtotal: number, bps: number) =>
  Number(divHalfUp(BigInt(subtotal) * BigInt(bps), 10_000n));

interface Spec {
  status: Status;
  sale: Sale | null;
  contact: Person | null;
  /** Lines: description, amount, artwork. */
  lines: { description: string; amount: number; artworkId: string | null }[];
  currency: string;
  createdMs: number;
  issuedMs: number | null;
  dueMs: number | null;
  /** When the last change (payment, void) happened. */
  changedMs: number;
  paidShare: number;
  discount: { bps: number } | { cents: number } | null;
  shipping: number;
  archivedMs: number | null;
  notes: string | null;
  /** Set afterwards: the voided invoice names its reissue. */
  voidOf?: Spec;
}

/** The invoice statuses of the twelve sales invoiced, oldest sale first (the old unpaid one is past due). */
const SALE_STATUSES: Status[] = [
  "paid",
  "unpaid",
  "void",
  "paid",
  "paid",
  "paid",
  "partially_paid",
  "paid",
  "partially_paid",
  "unpaid",
  "unpaid",
  "draft",
];
/** The instalment plan: a major purchase paid in thirds, the last due at the end of 2028. */
const INSTALMENT_DUE = Date.UTC(2028, 11, 31);

/** The template and the invoices; returns nothing (invoices are leaves of the seed). */
export function seedInvoices(ctx: SeedContext, allSales: Sale[], people: Person[]): void {
  const { rng, newId, G, rows } = ctx;
  const templateMs = Date.UTC(2024, 0, 5);
  const templateId = newId("tmpl", templateMs);
  rows(schema.invoiceTemplates).push({
    id: templateId,
    ...G,
    name: "Standard",
    header: "Northlight Gallery · 14 Wharf Street · New York, NY 10013",
    footer: "Thank you for supporting our artists.",
    terms: "Payment due within 30 days. Title passes on receipt of payment in full.",
    isDefault: true,
    createdAt: iso(templateMs),
    updatedAt: iso(templateMs),
  });

  // Every third completed sale, newest first, twelve of them: a few months of invoicing.
  const completed = allSales.filter((s) => s.status === "completed").sort((a, b) => b.soldMs - a.soldMs);
  const invoiced = completed
    .filter((_, i) => i % 3 === 0)
    .slice(0, SALE_STATUSES.length)
    .reverse();
  // Each foreign currency the gallery sells in is invoiced too: its newest sale takes a paid invoice's place.
  for (const currency of Object.keys(FX_TO_DEFAULT).filter((c) => c !== DEFAULT_CURRENCY)) {
    if (invoiced.some((s) => s.currency === currency)) continue;
    const sale = completed.find((s) => s.currency === currency);
    const slot = SALE_STATUSES.lastIndexOf("paid");
    if (!sale || invoiced[slot]?.currency !== DEFAULT_CURRENCY) continue;
    invoiced[slot] = sale;
    invoiced.sort((a, b) => a.soldMs - b.soldMs);
  }
  const specs: Spec[] = [];
  invoiced.forEach((sale, i) => {
    const status = SALE_STATUSES[i]!;
    const createdMs = sale.soldMs + rng.int(2, 20) * HOUR;
    const issuedMs = status === "draft" ? null : createdMs;
    const instalments = status === "partially_paid" && i === SALE_STATUSES.indexOf("partially_paid");
    const spec: Spec = {
      status,
      sale,
      contact: sale.buyer,
      lines: sale.arts.map((art, k) => ({
        description: `${art.artist.name}, "${art.title}"`,
        amount: sale.prices[k]!,
        artworkId: art.id,
      })),
      currency: sale.currency,
      createdMs,
      issuedMs,
      dueMs: issuedMs === null ? null : instalments ? INSTALMENT_DUE : issuedMs + 30 * DAY,
      changedMs: createdMs,
      paidShare: status === "paid" ? 1 : status === "partially_paid" ? (instalments ? 1 / 3 : 0.5) : 0,
      discount: rng.pick([null, null, { bps: 500 }, { bps: 1000 }, { cents: 50_000 }]),
      shipping: rng.pick([0, 45_000, 120_000, 250_000]),
      archivedMs: null,
      notes: instalments ? "Paid in three instalments; the last is due by the end of 2028." : null,
    };
    if (status === "paid" || status === "partially_paid") {
      spec.changedMs = Math.min(BASE - HOUR, createdMs + rng.int(3, 20) * DAY);
    }
    specs.push(spec);
    if (status === "void") {
      // Voided three days later for a wrong shipping address, archived, and reissued (then paid).
      spec.changedMs = createdMs + 3 * DAY;
      spec.archivedMs = createdMs + 4 * DAY;
      const reissue: Spec = {
        ...spec,
        status: "paid",
        createdMs: spec.changedMs + HOUR,
        issuedMs: spec.changedMs + HOUR,
        dueMs: spec.changedMs + HOUR + 30 * DAY,
        changedMs: Math.min(BASE - HOUR, spec.changedMs + 10 * DAY),
        paidShare: 1,
        archivedMs: null,
      };
      spec.voidOf = reissue;
      specs.push(reissue);
    }
  });

  // Standalone: framing and delivery billed to a collector, no sale behind it.
  const collector = rng.pick(people.filter((p) => p.type === "collector" && !p.archived));
  const standaloneMs = BASE - 20 * DAY + 3 * HOUR;
  specs.push({
    status: "unpaid",
    sale: null,
    contact: collector,
    lines: [
      { description: "Custom frame, walnut with museum glass", amount: 180_000, artworkId: null },
      { description: "Crating and delivery within Manhattan", amount: 65_000, artworkId: null },
    ],
    currency: DEFAULT_CURRENCY,
    createdMs: standaloneMs,
    issuedMs: standaloneMs,
    dueMs: standaloneMs + 30 * DAY,
    changedMs: standaloneMs,
    paidShare: 0,
    discount: null,
    shipping: 0,
    archivedMs: null,
    notes: null,
  });

  // Numbers in creation order, drafts included, as the API assigns them.
  specs.sort((a, b) => a.createdMs - b.createdMs);
  const numberOf = new Map(specs.map((s, i) => [s, `INV-${String(i + 1).padStart(6, "0")}`]));
  rows(schema.invoiceSequences).push({ galleryId: ctx.galleryId, lastNumber: specs.length });

  for (const spec of specs) {
    const id = newId("inv", spec.createdMs);
    const subtotal = spec.lines.reduce((sum, l) => sum + l.amount, 0);
    const bps = spec.discount && "bps" in spec.discount ? spec.discount.bps : 0;
    const discount =
      spec.discount === null
        ? 0
        : "bps" in spec.discount
          ? discountFromBps(subtotal, bps)
          : spec.discount.cents;
    const domestic = spec.currency === DEFAULT_CURRENCY;
    const taxExempt = spec.contact?.type === "institution";
    const tax = domestic && !taxExempt ? Math.round((subtotal - discount) * 0.08875) : 0;
    const shippingTax = domestic && !taxExempt ? Math.round(spec.shipping * 0.08875) : 0;
    const total = subtotal - discount + tax + spec.shipping + shippingTax;
    // Partial payments are round sums: a deposit to the hundred dollars.
    const paid =
      spec.paidShare === 1
        ? total
        : spec.paidShare === 0
          ? 0
          : Math.min(total - 100, Math.max(100, Math.round((total * spec.paidShare) / 10_000) * 10_000));
    const rate = FX_TO_DEFAULT[spec.currency]!;
    const city = domestic ? "New York" : spec.currency === "GBP" ? "London" : "Paris";
    const street = () =>
      `${rng.int(2, 980)} ${rng.pick(domestic ? ["Park Avenue", "Hudson Street", "West 22nd Street"] : spec.currency === "GBP" ? ["King's Road", "Cheyne Walk"] : ["Rue de Rivoli", "Rue du Bac"])}, ${city}`;
    const billingAddress = street();
    const name = spec.contact?.name ?? null;
    const row: Insert<typeof schema.invoices> = {
      id,
      ...G,
      saleId: spec.sale?.id ?? null,
      contactId: spec.contact?.id ?? null,
      invoiceNumber: numberOf.get(spec)!,
      status: spec.status,
      issuedDate: spec.issuedMs === null ? null : isoDate(spec.issuedMs),
      dueDate: spec.dueMs === null ? null : isoDate(spec.dueMs),
      subtotalCents: subtotal,
      discountCents: discount,
      discountBps: bps,
      taxCents: tax,
      shippingCents: spec.shipping,
      shippingTaxCents: shippingTax,
      amountPaidCents: paid,
      acceptedPaymentMethods: domestic
        ? rng.pick<PaymentMethod[]>([
            ["bank_transfer"],
            ["card", "bank_transfer"],
            ["bank_transfer", "check"],
          ])
        : ["wire"],
      currency: spec.currency,
      // A foreign-currency invoice carries the day's rates; one in the gallery's currency needs none.
      fxAsOf: domestic ? null : isoDate(spec.issuedMs ?? spec.createdMs),
      fxUsdPerUnit: domestic ? null : rate,
      fxBaseUsdPerUnit: domestic ? null : FX_TO_DEFAULT[DEFAULT_CURRENCY]!,
      fxBaseCurrency: DEFAULT_CURRENCY,
      billingName: name,
      billingAddress,
      shippingName: name,
      shippingAddress: spec.voidOf ? street() : billingAddress,
      taxAddressLine1: billingAddress.split(",")[0]!,
      taxAddressCity: city,
      taxAddressState: domestic ? "NY" : null,
      taxAddressPostalCode: domestic ? "10013" : spec.currency === "GBP" ? "SW3 4LY" : "75001",
      taxAddressCountry: domestic ? "US" : spec.currency === "GBP" ? "GB" : "FR",
      taxCalculatedAt: spec.status === "draft" ? null : iso(spec.createdMs),
      taxabilityOverride: taxExempt ? "exempt" : "none",
      notes: spec.voidOf
        ? `Voided: the shipping address was wrong. Reissued as ${numberOf.get(spec.voidOf)}.`
        : spec.notes,
      archivedAt: spec.archivedMs === null ? null : iso(spec.archivedMs),
      templateId,
      metadata: spec.sale ? { sale_channel: "gallery" } : { job: "framing" },
      createdAt: iso(spec.createdMs),
      updatedAt: iso(Math.max(spec.changedMs, spec.archivedMs ?? 0)),
    };
    rows(schema.invoices).push(row);
    spec.lines.forEach((line, position) => {
      rows(schema.invoiceLineItems).push({
        id: newId("line", spec.createdMs),
        ...G,
        invoiceId: id,
        artworkId: line.artworkId,
        description: line.description,
        amountCents: line.amount,
        position,
        createdAt: iso(spec.createdMs),
        updatedAt: iso(spec.createdMs),
      });
    });
  }
}
