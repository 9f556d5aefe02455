import type { z } from "@hono/zod-openapi";
import { expect } from "vitest";
import { invoiceTemplates } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Invoice, InvoiceBilling, type InvoiceBody } from "../../lib/schemas/invoices";
import { newArtwork, newContact } from "../contact-interactions/helpers";
import { call, readJson, type TestGallery } from "../helpers/gallery";
import { insertRow, outboxEvents } from "../helpers/seed";

/** Helpers of the invoice suites: invoices, sales and templates made for a gallery, and the events they record. */

export const BASE = "/gallery/invoices";

export type { InvoiceBody };

/** POST /gallery/invoices, expecting 201. */
export async function createInvoice(
  g: TestGallery,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<InvoiceBody> {
  const res = await call("POST", BASE, { key: g.key, body, headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(Invoice, res);
}

/** PATCH /gallery/invoices/{id}, expecting 200. */
export async function patchInvoice(
  g: TestGallery,
  id: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<InvoiceBody> {
  const res = await call("PATCH", `${BASE}/${id}`, { key: g.key, body, headers });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Invoice, res);
}

/** GET /gallery/invoices/{id}, expecting 200. */
export async function getInvoice(g: TestGallery, id: string): Promise<InvoiceBody> {
  const res = await call("GET", `${BASE}/${id}`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Invoice, res);
}

/** GET /gallery/invoices/{id}/billing (the billed contact and the balance), expecting 200. */
export async function getBilling(g: TestGallery, id: string): Promise<z.infer<typeof InvoiceBilling>> {
  const res = await call("GET", `${BASE}/${id}/billing`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(InvoiceBilling, res);
}

/** A sale of `g` to a new contact named `buyer`, for `amount_cents` in `currency`. */
export async function newSale(
  g: TestGallery,
  opts: { buyer?: string; amount_cents?: number; currency?: string; base_amount_cents?: number } = {},
): Promise<{ id: string; contactId: string }> {
  const contactId = await newContact(g, opts.buyer ?? "Hilma af Klint");
  const body = {
    contact_id: contactId,
    artwork_ids: [await newArtwork(g)],
    amount_cents: opts.amount_cents ?? 500_000,
    ...(opts.currency ? { currency: opts.currency } : {}),
    ...(opts.base_amount_cents !== undefined ? { base_amount_cents: opts.base_amount_cents } : {}),
  };
  const res = await call("POST", "/gallery/sales", { key: g.key, body });
  const sale = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(sale)).toBe(201);
  return { id: sale.id, contactId };
}

/** An invoice template of the gallery (templates have no API: they are written directly). */
export async function newTemplate(galleryId: string): Promise<string> {
  const id = newId("tmpl");
  await insertRow(invoiceTemplates, { id, gallery_id: galleryId, name: "Standard" });
  return id;
}

/** The gallery's invoice events, oldest first, optionally of one invoice. */
export async function invoiceEvents(galleryId: string, invoiceId?: string) {
  return (await outboxEvents(galleryId)).filter(
    (e) => e.type.startsWith("invoice.") && (invoiceId === undefined || e.resource_id === invoiceId),
  );
}

/** The types of the gallery's invoice events, oldest first. */
export async function invoiceEventTypes(galleryId: string, invoiceId?: string): Promise<string[]> {
  return (await invoiceEvents(galleryId, invoiceId)).map((e) => e.type);
}

/** Today's date in UTC, read before and after `run`: the value a server-side "today" took is one of them. */
export async function todayAround<T>(run: () => Promise<T>): Promise<{ result: T; days: string[] }> {
  const before = new Date().toISOString().slice(0, 10);
  const result = await run();
  const after = new Date().toISOString().slice(0, 10);
  return { result, days: [before, after] };
}
