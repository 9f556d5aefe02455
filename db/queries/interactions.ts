import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { Interaction } from "../../lib/schemas/interactions";
import type { Db } from "../client";
import { resource } from "../resource";
import { interactions } from "../schema";
import { keysetChildPage } from "./keyset";

/** The API representation of an interaction (alias `i`). */
export const interactionResource = resource({
  schema: Interaction,
  table: interactions,
  alias: "i",
  name: "interaction",
});

/** Newest first, by when each interaction happened. */
export const interactionList = listSpec({ sorts: ["occurred"], defaultSort: "occurred" });

/** The contact exists in the gallery (a row), for the lists and writes that hang off it. */
export function contactExists(galleryId: string, contactId: string): SQL {
  return sql`select 1 from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}`;
}

/** The contact's name, or null when it is not in the gallery. One round trip. */
export async function findContactName(db: Db, galleryId: string, contactId: string): Promise<string | null> {
  const result = await db.execute<{ name: string }>(
    sql`select c.name from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}`,
  );
  return result.rows[0]?.name ?? null;
}

/** Whether the contact is in the gallery. One round trip. */
export async function findContactExists(db: Db, galleryId: string, contactId: string): Promise<boolean> {
  return (await db.execute(contactExists(galleryId, contactId))).rows.length > 0;
}

export interface InteractionFilters {
  type?: string;
}

/**
 * One page (limit + 1 rows) of a contact's interactions, newest first on the (gallery, contact, occurred_at, id)
 * index; null when the contact is not in the gallery (told apart from an empty list in the same round trip).
 */
export function listInteractions(
  db: Db,
  galleryId: string,
  contactId: string,
  filters: InteractionFilters,
  page: PageRequest,
): Promise<PageRow[] | null> {
  const where = [sql`i.gallery_id = ${galleryId}`, sql`i.contact_id = ${contactId}`];
  if (filters.type !== undefined) where.push(sql`i.type = ${filters.type}`);
  return keysetChildPage(
    db,
    contactExists(galleryId, contactId),
    {
      body: interactionResource.json({}),
      from: sql`interactions i`,
      where,
      sortKey: sql`i.occurred_at`,
      cast: "timestamptz",
      id: sql`i.id`,
    },
    page,
  );
}

export interface InteractionValues {
  type: string;
  direction: string | null;
  summary: string;
  occurredAt: string;
  artworkId: string | null;
  memberId: string | null;
  metadata: Record<string, unknown>;
}

/**
 * The INSERT for `guarded()`: it inserts only while the contact is still in the gallery, so a contact deleted
 * since it was read aborts the write instead of failing on the foreign key. The trigger on `interactions` moves
 * the contact's last_interaction_at/_type in the same transaction.
 */
export function insertInteraction(
  galleryId: string,
  contactId: string,
  id: string,
  v: InteractionValues,
  at: string,
): SQLWrapper {
  return sql`insert into interactions (id, gallery_id, contact_id, type, direction, summary, occurred_at, artwork_id,
      member_id, metadata, created_at, updated_at)
    select ${id}, c.gallery_id, c.id, ${v.type}, ${v.direction}, ${v.summary}, ${v.occurredAt}::timestamptz,
      ${v.artworkId}, ${v.memberId}, ${JSON.stringify(v.metadata)}::jsonb, ${at}::timestamptz, ${at}::timestamptz
    from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}`;
}
