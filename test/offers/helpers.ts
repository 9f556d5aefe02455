import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { Offer, OfferItemList } from "../../lib/schemas/offers";
import { call, db, readJson, type TestGallery } from "../helpers/gallery";
import { outboxEvents } from "../helpers/seed";
import { storedMatch } from "../matches/helpers";

/** Helpers of the offer suites: offers made and changed through the API, matches written as the engine would. */

export const BASE = "/gallery/offers";

export type OfferBody = z.infer<typeof Offer>;
export type OfferItemBody = z.infer<typeof OfferItemList>["data"][number];

/** POST /gallery/offers, expecting 201. */
export async function createOffer(
  g: TestGallery,
  body: Record<string, unknown> = { title: "Spring selection" },
  key: string = g.key,
): Promise<OfferBody> {
  const res = await call("POST", BASE, { key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(Offer, res);
}

/** PATCH /gallery/offers/{id}, expecting 200. */
export async function patchOffer(
  g: TestGallery,
  id: string,
  body: Record<string, unknown>,
): Promise<OfferBody> {
  const res = await call("PATCH", `${BASE}/${id}`, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Offer, res);
}

/** GET /gallery/offers/{id}, expecting 200. */
export async function getOffer(g: TestGallery, id: string): Promise<OfferBody> {
  const res = await call("GET", `${BASE}/${id}`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Offer, res);
}

/** PATCH /gallery/offers/{id}/items with these items, expecting 200; returns the items answered. */
export async function setItems(
  g: TestGallery,
  id: string,
  items: Record<string, unknown>[],
  headers: Record<string, string> = {},
): Promise<OfferItemBody[]> {
  const res = await call("PATCH", `${BASE}/${id}/items`, { key: g.key, body: { items }, headers });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await readJson(OfferItemList, res)).data;
}

/** POST /gallery/offers/{id}/recipients, expecting 200; returns the offer. */
export async function addRecipients(g: TestGallery, id: string, contactIds: string[]): Promise<OfferBody> {
  const res = await call("POST", `${BASE}/${id}/recipients`, {
    key: g.key,
    body: { contact_ids: contactIds },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Offer, res);
}

/** A contact of `g`, made through the API with these fields; returns its id. */
export async function contact(g: TestGallery, body: Record<string, unknown>): Promise<string> {
  const res = await call("POST", "/gallery/contacts", { key: g.key, body });
  const created = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(created)).toBe(201);
  return created.id;
}

/** An artwork of `g`, made through the API; returns its id. */
export async function artwork(g: TestGallery, title: string): Promise<string> {
  const res = await call("POST", "/gallery/artworks", { key: g.key, body: { title } });
  const created = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(created)).toBe(201);
  return created.id;
}

/** A published work (only a published, available work can be matched), through the API. */
export async function publishedArtwork(g: TestGallery, title: string): Promise<string> {
  const id = await artwork(g, title);
  const res = await call("POST", `/gallery/artworks/${id}/publish`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return id;
}

/**
 * A stored match of a work for a contact, as the judging engine writes it (test/matches/helpers.ts storedMatch),
 * with one memory fact as its reason when `reason` is given.
 */
export function match(
  g: TestGallery,
  artworkId: string,
  contactId: string,
  probability: number,
  opts: { reason?: string; model?: string; status?: string; hiddenUntil?: string } = {},
): Promise<string> {
  return storedMatch(g, artworkId, contactId, {
    probability,
    model: opts.model ?? "judge-1",
    status: opts.status,
    hiddenUntil: opts.hiddenUntil,
    evidence: opts.reason ? [{ question: "medium", kind: "memory_fact", ref: null, label: opts.reason }] : [],
  });
}

/** The gallery's offer events, oldest first, optionally of one offer. */
export async function offerEvents(galleryId: string, offerId?: string) {
  return (await outboxEvents(galleryId)).filter(
    (e) => e.type.startsWith("offer.") && (offerId === undefined || e.resource_id === offerId),
  );
}

/** The types of the gallery's offer events, oldest first. */
export async function offerEventTypes(galleryId: string, offerId?: string): Promise<string[]> {
  return (await offerEvents(galleryId, offerId)).map((e) => e.type);
}

/** Rows of the offer's items and recipients, straight from the tables. */
export async function storedParts(
  offerId: string,
): Promise<{ items: number; recipients: number; offers: number }> {
  const result = await db().execute<{ items: number; recipients: number; offers: number }>(
    sql`select (select count(*)::int from offer_items where offer_id = ${offerId}) as items,
      (select count(*)::int from offer_recipients where offer_id = ${offerId}) as recipients,
      (select count(*)::int from offers where id = ${offerId}) as offers`,
  );
  return result.rows[0]!;
}

/** An instant `minutes` from now, as the API prints timestamps. */
export function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}
