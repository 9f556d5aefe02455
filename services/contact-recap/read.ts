import { contactRecapText } from "../../db/queries/contact-recap";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** The contact's recap as JSON text; a contact that is not the gallery's is 404 (from the same query). */
export async function getContactRecap(ctx: ServiceContext, contactId: string): Promise<string> {
  const text = await contactRecapText(ctx.db, ctx.principal.galleryId, contactId);
  if (text === null) throw new ApiError("not_found", `No contact ${contactId} in this gallery.`);
  return text;
}
