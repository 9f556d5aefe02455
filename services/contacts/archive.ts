import { refuseDuplicateEmail } from "../../db/queries/contact-writes";
import { contactJson, findContact } from "../../db/queries/contacts";
import { contacts } from "../../db/schema";
import { Contact } from "../../lib/schemas/contacts";
import type { ServiceContext } from "../context";
import { type Shelf, shelve } from "../shelve";
import { withExistingEmail } from "./create";

const contactShelf: Shelf<typeof Contact> = {
  schema: Contact,
  table: contacts,
  resourceType: "contact",
  archived: "contact.archived",
  restored: "contact.restored",
  find: (ctx, id) => findContact(ctx.db, ctx.principal.galleryId, id),
  json: contactJson,
  notFound: (id) => `No contact ${id} in this gallery.`,
  rules: (galleryId, id, body, archive) => {
    const email = archive ? null : (body.email as string | null);
    return email ? [refuseDuplicateEmail(galleryId, email, id)] : [];
  },
};

/**
 * Puts the contact on the archive shelf: hidden from the default roster and from dynamic lists, still read by
 * id (and listed with `archived=include` or `only`). Records `contact.archived`. An archived contact stays as
 * it is: no change, no event, the contact as the answer.
 */
export function archiveContact(ctx: ServiceContext, id: string) {
  return shelve(ctx, contactShelf, id, true);
}

/**
 * Takes the contact off the shelf, back onto the roster. Its email must still be free: when an unarchived
 * contact took it meanwhile, 409 naming that contact. Records `contact.restored`. A contact that is not
 * archived stays as it is.
 */
export async function restoreContact(ctx: ServiceContext, id: string) {
  try {
    return await shelve(ctx, contactShelf, id, false);
  } catch (error) {
    // Only when a concurrent write took the email after the in-batch check: name who has it now.
    const found = await findContact(ctx.db, ctx.principal.galleryId, id);
    throw await withExistingEmail(ctx, (found?.body.email as string | null) ?? null, error);
  }
}
