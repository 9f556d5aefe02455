import { findContactList, forgetSegmentJudgments } from "../../db/queries/contact-lists";
import { deleteAsRead } from "../../db/queries/rows";
import { contactLists } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes a list with its static memberships and its segment judgments; the contacts stay as they are.
 * `contact_list.deleted` carries its last state.
 */
export async function deleteContactList(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findContactList(db, galleryId, id);
  return writeExisting(ctx, current, `No contact list ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [
      guarded(deleteAsRead(contactLists, galleryId, id, found.updatedAt)),
      forgetSegmentJudgments(galleryId, id),
    ],
    events: [changeEvent("contact_list.deleted", "contact_list", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
