import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import {
  contactListMemberships,
  contactLists,
  contacts,
  engagementEvents,
  interactions,
  rubricJudgments,
  sales,
  tags,
} from "../../db/schema";
import type { ContactListQuery } from "../../db/schema/contact-lists";
import { newId } from "../../lib/ids";
import { Contact, ContactSegmentation } from "../../lib/schemas/contacts";
import { call, db, readJson, type TestGallery } from "../helpers/gallery";
import { insertRow } from "../helpers/seed";

/**
 * Helpers for the contacts suites. Contacts are made through the API; the history they summarise (interactions,
 * engagement, sales, judgments) and lists are written by direct SQL, and the migration's triggers keep the
 * contact's aggregates as the owning writes would.
 */

export type ContactBody = z.infer<typeof Contact>;

export const BASE = "/gallery/contacts";
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** POSTs a contact and returns it, failing unless the answer is 201. */
export async function createdContact(g: TestGallery, body: Record<string, unknown>): Promise<ContactBody> {
  const response = await call("POST", BASE, { key: g.key, body });
  const json = await readJson(Contact, response);
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}

/** GETs a contact, failing unless 200. */
export async function fetchedContact(g: TestGallery, id: string): Promise<ContactBody> {
  const response = await call("GET", `${BASE}/${id}`, { key: g.key });
  const json = await readJson(Contact, response);
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

export type SegmentationBody = z.infer<typeof ContactSegmentation>;

/** GETs what the roster's filters match a contact on (tags, consent, spend, last engagement), failing unless 200. */
export async function fetchedSegmentation(g: TestGallery, id: string): Promise<SegmentationBody> {
  const response = await call("GET", `${BASE}/${id}/segmentation`, { key: g.key });
  const json = await readJson(ContactSegmentation, response);
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

/** Every contact a list query returns, following the cursor to the end, in order. */
export async function allListed(g: TestGallery, query: string, key = g.key): Promise<ContactBody[]> {
  const out: ContactBody[] = [];
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams(query);
    if (!qs.has("limit")) qs.set("limit", "100");
    if (cursor) qs.set("cursor", cursor);
    const response = await call("GET", `${BASE}?${qs}`, { key });
    const page = (await response.json()) as { data: ContactBody[]; next_cursor: string | null };
    expect(response.status, `GET ${BASE}?${qs}: ${JSON.stringify(page)}`).toBe(200);
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

/** The ids a list query returns (every page), sorted: for comparing sets. */
export async function listedIdSet(g: TestGallery, query: string): Promise<string[]> {
  return (await allListed(g, query)).map((c) => c.id).sort();
}

/** A gallery's events of one type, oldest first, straight from the outbox. */
export async function eventsOfType(galleryId: string, type: string) {
  const result = await db().execute<{ resource_id: string; data: Record<string, unknown> }>(
    sql`select resource_id, data from domain_events where gallery_id = ${galleryId} and type = ${type}
      order by created_at, id`,
  );
  return result.rows;
}

export async function insertTag(galleryId: string, scope = "contact"): Promise<string> {
  const id = newId("tag");
  await db().execute(insertRow(tags, { id, gallery_id: galleryId, name: `Tag ${id}`, scope }));
  return id;
}

export async function insertInteraction(
  galleryId: string,
  contactId: string,
  occurredAt: string,
  type = "call",
): Promise<void> {
  await db().execute(
    insertRow(interactions, {
      id: newId("int"),
      gallery_id: galleryId,
      contact_id: contactId,
      type,
      summary: "Spoke about the spring show",
      occurred_at: occurredAt,
    }),
  );
}

export async function insertSale(
  galleryId: string,
  contactId: string,
  amountCents: number,
  worksCount = 1,
  status = "completed",
): Promise<string> {
  const id = newId("sale");
  await db().execute(
    insertRow(sales, {
      id,
      gallery_id: galleryId,
      contact_id: contactId,
      amount_cents: amountCents,
      base_amount_cents: amountCents,
      works_count: worksCount,
      status,
      sold_at: "2024-03-01T00:00:00.000Z",
    }),
  );
  return id;
}

export async function insertEngagement(
  galleryId: string,
  contactId: string,
  kind: string,
  occurredAt: string,
): Promise<void> {
  await db().execute(
    insertRow(engagementEvents, {
      id: newId("eng"),
      gallery_id: galleryId,
      contact_id: contactId,
      kind,
      occurred_at: occurredAt,
    }),
  );
}

/** A judgment as the engine stores it. */
export async function insertJudgment(
  galleryId: string,
  rubricKey: string,
  contactId: string,
  verdict: boolean,
  probability: number,
): Promise<void> {
  await db().execute(
    insertRow(rubricJudgments, {
      gallery_id: galleryId,
      rubric_key: rubricKey,
      contact_id: contactId,
      verdict,
      probability,
      model: "test",
      judged_at: "2024-05-01T00:00:00.000Z",
    }),
  );
}

/** A contact list row: static (with these members) or dynamic (with this saved filter). */
export async function insertList(
  galleryId: string,
  opts: { members?: string[]; dynamicQuery?: ContactListQuery },
): Promise<string> {
  const id = newId("list");
  await db().execute(
    insertRow(contactLists, {
      id,
      gallery_id: galleryId,
      title: `List ${id}`,
      is_dynamic: opts.dynamicQuery !== undefined,
      dynamic_query: opts.dynamicQuery ?? null,
    }),
  );
  for (const [position, contactId] of (opts.members ?? []).entries()) {
    await db().execute(
      insertRow(contactListMemberships, {
        gallery_id: galleryId,
        list_id: id,
        contact_id: contactId,
        position,
      }),
    );
  }
  return id;
}

/** Sets columns no API write sets (created_at for ordering tests), by direct SQL. */
export async function setCreatedAt(id: string, createdAt: string): Promise<void> {
  await db().update(contacts).set({ createdAt, updatedAt: createdAt }).where(sql`id = ${id}`);
}

/** Rows of a table that name a contact (by contact_id), for checking what a delete took with it. */
export async function rowsNaming(table: string, contactId: string): Promise<number> {
  const result = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where contact_id = ${contactId}`,
  );
  return Number(result.rows[0]!.n);
}
