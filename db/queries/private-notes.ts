import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { byCreated, type PageRequest, type PageRow } from "../../lib/pagination";
import { PrivateNote } from "../../lib/schemas/private-notes";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { privateNotes } from "../schema";
import { keysetChildPage } from "./keyset";

/** The API representation of a private note (alias `pn`). */
export const privateNoteResource = resource({
  schema: PrivateNote,
  table: privateNotes,
  alias: "pn",
  name: "private_note",
});
const noteJson = privateNoteResource.json({});

/** Newest first. */
export const privateNoteList = byCreated;

/** The contact exists in the gallery (a row), for the notes that hang off it. */
function contactExists(galleryId: string, contactId: string): SQL {
  return sql`select 1 from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}`;
}

/**
 * One page (limit + 1 rows) of a contact's notes, or of none of them when `visible` is false (a viewer reads an
 * empty set); null when the contact is not in the gallery, either way.
 */
export function listPrivateNotes(
  db: Db,
  galleryId: string,
  contactId: string,
  visible: boolean,
  page: PageRequest,
): Promise<PageRow[] | null> {
  return keysetChildPage(
    db,
    contactExists(galleryId, contactId),
    {
      body: noteJson,
      from: sql`private_notes pn`,
      where: [
        sql`pn.gallery_id = ${galleryId}`,
        sql`pn.contact_id = ${contactId}`,
        ...(visible ? [] : [sql`false`]),
      ],
      sortKey: sql`pn.created_at`,
      cast: "timestamptz",
      id: sql`pn.id`,
    },
    page,
  );
}

/** Whether the contact exists in the gallery. */
export async function findContactExists(db: Db, galleryId: string, contactId: string): Promise<boolean> {
  const result = await db.execute(contactExists(galleryId, contactId));
  return result.rows.length > 0;
}

/**
 * The INSERT for `guarded()`: it inserts only while the contact is still in the gallery, so a contact deleted
 * since it was read aborts the write instead of failing on the foreign key.
 */
export function insertPrivateNote(
  galleryId: string,
  contactId: string,
  note: { id: string; body: string; authorId: string | null; at: string },
): SQLWrapper {
  return sql`insert into private_notes (id, gallery_id, contact_id, author_id, body, created_at, updated_at)
    select ${note.id}, c.gallery_id, c.id, ${note.authorId}, ${note.body}, ${note.at}::timestamptz, ${note.at}::timestamptz
    from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}`;
}

/** The note as `private_note.created` carries it: every field but the confidential body. */
export function privateNoteReferenceJson(galleryId: string, id: string): SQL {
  return sql`select json_build_object('id', pn.id, 'contact_id', pn.contact_id, 'author_id', pn.author_id,
      'created_at', ${isoMs(sql`pn.created_at`)}, 'updated_at', ${isoMs(sql`pn.updated_at`)})
    from private_notes pn where pn.gallery_id = ${galleryId} and pn.id = ${id}`;
}
