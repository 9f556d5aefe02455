import { refuseDuplicateEmail, shelveContactStatement } from "../../db/queries/contact-writes";
import { contactJson, findContact } from "../../db/queries/contacts";
import { nextTimestamp } from "../../db/queries/rows";
import { Contact } from "../../lib/schemas/contacts";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";
import { withExistingEmail } from "./create";

/**
 * Puts the contact on the archive shelf: hidden from the default roster and from dynamic lists, still read by
 * id (and listed with `archived=include` or `only`). Records `contact.archived`. An archived contact stays as
 * it is: no change, no event, the contact as the answer.
 */
export function archiveContact(ctx: ServiceContext, id: string) {
  return shelve(ctx, id, true);
}

/**
 * Takes the contact off the shelf, back onto the roster. Its email must still be free: when an unarchived
 * contact took it meanwhile, 409 naming that contact. Records `contact.restored`. A contact that is not
 * archived stays as it is.
 */
export function restoreContact(ctx: ServiceContext, id: string) {
  return shelve(ctx, id, false);
}

async function shelve(ctx: ServiceContext, id: string, archive: boolean) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const found = await findContact(db, galleryId, id);
  if (!found) return notFoundUnlessReplay<unknown, 200>(ctx, `No contact ${id} in this gallery.`);
  const object = contactJson(galleryId, id);
  if ((found.body.archived_at !== null) === archive) {
    return executeWrite(ctx, { schema: Contact, statements: [], events: [], status: 200, body: object });
  }
  const at = nextTimestamp(found.updatedAt);
  const email = archive ? null : (found.body.email as string | null);
  try {
    return await executeWrite(ctx, {
      schema: Contact,
      statements: [
        ...(email ? [refuseDuplicateEmail(galleryId, email, id)] : []),
        guarded(shelveContactStatement(db, galleryId, id, archive ? at : null, found.updatedAt, at)),
      ],
      events: [changeEvent(archive ? "contact.archived" : "contact.restored", "contact", id, object)],
      status: 200,
      body: object,
    });
  } catch (error) {
    throw await withExistingEmail(ctx, email, error);
  }
}
