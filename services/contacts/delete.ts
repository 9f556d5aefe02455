import { findContact } from "../../db/queries/contacts";
import { deleteAsRead } from "../../db/queries/rows";
import { contacts } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Erases the contact: the row and everything recorded about the person with it (interactions, engagement,
 * tasks, private notes, profiles, assignees, tags, list memberships, judgments). Sales stay, as the gallery's
 * financial record, with no contact. Archive is the reversible alternative. `contact.deleted` carries its last
 * state.
 */
export async function deleteContact(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findContact(db, galleryId, id);
  return writeExisting(ctx, current, `No contact ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(contacts, galleryId, id, found.updatedAt))],
    events: [changeEvent("contact.deleted", "contact", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
