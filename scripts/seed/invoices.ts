/** The invoice template and ten invoices over recent completed sales. */
import * as schema from "../../db/schema";
import { BASE, DAY, FX_TO_DEFAULT, HOUR, iso, isoDate } from "./common";
import type { Sale, SeedContext } from "./context";

/** Ten invoices over recent completed sales, a line per work sold. */
export function seedInvoices(ctx: SeedContext, allSales: Sale[]): void {
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
  const invoiceStatuses = [
    "paid",
    "paid",
    "paid",
    "paid",
    "unpaid",
    "unpaid",
    "partially_paid",
    "overdue",
    "draft",
    "void",
  ];
  const completed = allSales.filter((s) => s.status === "completed").sort((a, b) => b.soldMs - a.soldMs);
  // The newest eight sales plus the newest in each foreign currency, so the FX fields vary.
  const invoiced = completed.slice(0, 8);
  for (const currency of ["EUR", "GBP"]) {
    const sale = completed.find((s) => s.currency === currency && !invoiced.includes(s));
    if (sale) invoiced.push(sale);
  }
  invoiced.sort((a, b) => a.soldMs - b.soldMs);
  invoiced.forEach((sale, i) => {
    const status = invoiceStatuses[i]!;
    const issuedMs = sale.soldMs + DAY;
    const subtotal = sale.amount;
    const discountBps = rng.pick([0, 0, 500, 1000]);
    const discount = Math.round((subtotal * discountBps) / 10_000);
    const domestic = sale.currency === "USD";
    const taxExempt = sale.buyer.type === "institution";
    const tax = domestic && !taxExempt ? Math.round((subtotal - discount) * 0.08875) : 0;
    const shipping = rng.pick([0, 45_000, 120_000, 250_000]);
    const shippingTax = domestic && !taxExempt ? Math.round(shipping * 0.08875) : 0;
    const total = subtotal - discount + tax + shipping + shippingTax;
    const paid = status === "paid" ? total : status === "partially_paid" ? Math.round(total / 2) : 0;
    const rate = FX_TO_DEFAULT[sale.currency]!;
    const city = domestic ? "New York" : sale.currency === "GBP" ? "London" : "Paris";
    const id = newId("inv", issuedMs);
    rows(schema.invoices).push({
      id,
      ...G,
      saleId: sale.id,
      invoiceNumber: `NL-INV-${new Date(issuedMs).getUTCFullYear()}-${String(i + 1).padStart(4, "0")}`,
      status,
      issuedDate: isoDate(issuedMs),
      dueDate: isoDate(issuedMs + 30 * DAY),
      subtotalCents: subtotal,
      discountCents: discount,
      discountBps: discountBps,
      taxCents: tax,
      shippingCents: shipping,
      shippingTaxCents: shippingTax,
      totalCents: total,
      amountPaidCents: paid,
      acceptedPaymentMethods: rng.pick([
        ["bank_transfer"],
        ["card", "bank_transfer"],
        ["bank_transfer", "check"],
      ]),
      currency: sale.currency,
      fxAsOf: isoDate(issuedMs),
      fxUsdPerUnit: rate,
      fxBaseUsdPerUnit: 1,
      fxBaseCurrency: "USD",
      baseAmountCents: Math.round(total * rate),
      billingName: sale.buyer.name,
      billingAddress: `${rng.int(2, 980)} ${rng.pick(["Park Avenue", "King's Road", "Rue de Rivoli", "Hudson Street"])}, ${city}`,
      shippingName: sale.buyer.name,
      shippingAddress: `${rng.int(2, 980)} ${rng.pick(["Park Avenue", "King's Road", "Rue de Rivoli", "Hudson Street"])}, ${city}`,
      taxAddressLine1: `${rng.int(2, 980)} Hudson Street`,
      taxAddressCity: city,
      taxAddressState: domestic ? "NY" : null,
      taxAddressPostalCode: domestic ? "10013" : sale.currency === "GBP" ? "SW3 4LY" : "75001",
      taxAddressCountry: domestic ? "US" : sale.currency === "GBP" ? "GB" : "FR",
      taxCalculatedAt: status === "draft" ? null : iso(issuedMs),
      taxabilityOverride: taxExempt ? "exempt" : "none",
      notes: status === "void" ? "Voided: reissued with corrected shipping address." : null,
      archivedAt: status === "void" ? iso(issuedMs + 2 * DAY) : null,
      templateId: templateId,
      metadata: { sale_channel: "gallery" },
      createdAt: iso(issuedMs),
      updatedAt: iso(Math.min(BASE - HOUR, issuedMs + (status === "paid" ? 12 : 1) * DAY)),
    });
    sale.arts.forEach((art, position) => {
      rows(schema.invoiceLineItems).push({
        id: newId("line", issuedMs),
        ...G,
        invoiceId: id,
        artworkId: art.id,
        description: `${art.artist.name}, "${art.title}"`,
        amountCents: sale.prices[position]!,
        position,
        createdAt: iso(issuedMs),
        updatedAt: iso(issuedMs),
      });
    });
  });
}
