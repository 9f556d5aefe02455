import { listPrivateNotes as listPrivateNoteRows } from "../../db/queries/private-notes";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";
import { readsPrivateNotes } from "./access";

/**
 * One page (limit + 1 rows) of the contact's private notes, newest first; a viewer gets an empty page (not an
 * error). A contact that is not the gallery's is 404 for everyone.
 */
export async function listPrivateNotes(
  ctx: ServiceContext,
  contactId: string,
  page: PageRequest,
): Promise<PageRow[]> {
  const { db, principal } = ctx;
  const rows = await listPrivateNoteRows(
    db,
    principal.galleryId,
    contactId,
    readsPrivateNotes(principal),
    page,
  );
  if (rows === null) throw new ApiError("not_found", `No contact ${contactId} in this gallery.`);
  return rows;
}
