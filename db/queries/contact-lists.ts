import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { byCreated, type PageRequest, type PageRow } from "../../lib/pagination";
import { ContactList } from "../../lib/schemas/contact-lists";
import type { Db } from "../client";
import { isoMs, type RowValues, resource } from "../resource";
import { contactLists } from "../schema";
import { keysetPage } from "./keyset";
import { asRead, textArray } from "./rows";

/**
 * Contact lists and their static memberships. A dynamic list has no stored members: `GET /gallery/contacts`
 * with `list_id` and the recap evaluate its `dynamic_query` (db/queries/contact-filters.ts). Statements here are
 * composed into one transaction by services/write.ts; none runs on its own.
 */

/** The API representation of a contact list (alias `cl`). */
export const contactListResource = resource({
  schema: ContactList,
  table: contactLists,
  alias: "cl",
  name: "contact_list",
});
const listJson = contactListResource.json({});

/** Newest first. */
export const contactListList = byCreated;

export interface ContactListFilters {
  kind?: string;
  is_dynamic?: boolean;
}

/** One page (limit + 1 rows) of the gallery's lists. One round trip. */
export function listContactLists(
  db: Db,
  galleryId: string,
  filters: ContactListFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const where: SQL[] = [sql`cl.gallery_id = ${galleryId}`];
  if (filters.kind !== undefined) where.push(sql`cl.kind = ${filters.kind}`);
  if (filters.is_dynamic !== undefined) where.push(sql`cl.is_dynamic = ${filters.is_dynamic}`);
  return keysetPage(
    db,
    {
      body: listJson,
      from: sql`contact_lists cl`,
      where,
      sortKey: sql`cl.created_at`,
      cast: "timestamptz",
      id: sql`cl.id`,
    },
    page,
  );
}

/** One list as JSON text, or null. One round trip. */
export function contactListText(db: Db, galleryId: string, id: string): Promise<string | null> {
  return contactListResource.textById(db, galleryId, id, {});
}

/** The list's JSON after a write (evaluated inside the transaction). */
export function contactListJson(galleryId: string, id: string): SQL {
  return contactListResource.jsonById(galleryId, id, {});
}

export interface ContactListState {
  body: z.infer<typeof ContactList>;
  updatedAt: string;
}

/** What the selects below read of the list itself. */
const listColumns = sql`${listJson} as body, ${isoMs(sql`cl.updated_at`)} as updated_at`;
const ofList = (galleryId: string, id: string) =>
  sql`from contact_lists cl where cl.gallery_id = ${galleryId} and cl.id = ${id}`;

/** One list with the updated_at that guards a write to it, or null. One round trip. */
export async function findContactList(
  db: Db,
  galleryId: string,
  id: string,
): Promise<ContactListState | null> {
  const result = await db.execute<{ body: z.infer<typeof ContactList>; updated_at: string }>(
    sql`select ${listColumns} ${ofList(galleryId, id)}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

export interface MembersToAdd extends ContactListState {
  /** 0-based index in `contact_ids` of the first id that is not one of the gallery's contacts, or null. */
  unknownAt: number | null;
  /** The requested contacts not yet members, in request order. */
  newMembers: string[];
}

/** The list, and what adding `contactIds` to it would change. One round trip. */
export async function findMembersToAdd(
  db: Db,
  galleryId: string,
  listId: string,
  contactIds: readonly string[],
): Promise<MembersToAdd | null> {
  const ids = sql`unnest(${textArray(contactIds)}) with ordinality x(id, n)`;
  const isContact = sql`exists (select 1 from contacts c where c.gallery_id = ${galleryId} and c.id = x.id)`;
  const result = await db.execute<{
    body: z.infer<typeof ContactList>;
    updated_at: string;
    unknown_at: number | null;
    new_members: string[];
  }>(
    sql`select ${listColumns},
        (select (min(x.n) - 1)::int from ${ids} where not ${isContact}) as unknown_at,
        array(select x.id from ${ids} where ${isContact} and not exists (select 1 from contact_list_memberships m
          where m.list_id = cl.id and m.contact_id = x.id) order by x.n) as new_members
      ${ofList(galleryId, listId)}`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    body: row.body,
    updatedAt: row.updated_at,
    unknownAt: row.unknown_at,
    newMembers: row.new_members,
  };
}

export interface MemberToRemove extends ContactListState {
  contactExists: boolean;
  isMember: boolean;
}

/** The list, whether the contact is the gallery's and whether it is a member. One round trip. */
export async function findMemberToRemove(
  db: Db,
  galleryId: string,
  listId: string,
  contactId: string,
): Promise<MemberToRemove | null> {
  const result = await db.execute<{
    body: z.infer<typeof ContactList>;
    updated_at: string;
    contact_exists: boolean;
    is_member: boolean;
  }>(
    sql`select ${listColumns},
        exists (select 1 from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}) as contact_exists,
        exists (select 1 from contact_list_memberships m where m.list_id = cl.id and m.contact_id = ${contactId}) as is_member
      ${ofList(galleryId, listId)}`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    body: row.body,
    updatedAt: row.updated_at,
    contactExists: row.contact_exists,
    isMember: row.is_member,
  };
}

export function insertContactList(db: Db, values: RowValues<typeof contactLists>): SQLWrapper {
  return db.insert(contactLists).values(contactListResource.row(values));
}

/** The UPDATE for `guarded()`: matches only the row as it was read. */
export function updateContactList(
  db: Db,
  galleryId: string,
  id: string,
  values: RowValues<typeof contactLists>,
  readUpdatedAt: string,
): SQLWrapper {
  return db
    .update(contactLists)
    .set(contactListResource.row(values))
    .where(asRead(contactLists, galleryId, id, readUpdatedAt));
}

/**
 * Drops the engine's judgments for the list's `described_as` (rubric `segment:<list id>`): they judged a
 * description the list no longer has, or a list that is gone.
 */
export function forgetSegmentJudgments(galleryId: string, listId: string): SQL {
  return sql`delete from rubric_judgments where gallery_id = ${galleryId} and rubric_key = ${`segment:${listId}`}`;
}

/** New static memberships, after the list's current last position; members already there stay as they are. */
export function insertMemberships(galleryId: string, listId: string, contactIds: readonly string[]): SQL {
  return sql`insert into contact_list_memberships (gallery_id, list_id, contact_id, position)
    select ${galleryId}, ${listId}, x.id, coalesce((select max(m.position) from contact_list_memberships m
      where m.list_id = ${listId}), -1) + x.n::int
    from unnest(${textArray(contactIds)}) with ordinality x(id, n)
    on conflict (list_id, contact_id) do nothing`;
}

export function deleteMembership(galleryId: string, listId: string, contactId: string): SQL {
  return sql`delete from contact_list_memberships
    where gallery_id = ${galleryId} and list_id = ${listId} and contact_id = ${contactId}`;
}

/** `data.object` of a membership event: the list after the change and the contacts the change concerned. */
export function membershipChangeJson(galleryId: string, listId: string, contactIds: readonly string[]): SQL {
  return sql`select json_build_object('list', (${contactListJson(galleryId, listId)}),
    'contact_ids', to_json(${textArray(contactIds)}))`;
}
