import type { ContactListFilters } from "../../db/queries/contact-filters";
import {
  contactResource,
  contactSegmentationResource,
  listContacts as listContactRows,
} from "../../db/queries/contacts";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One contact as JSON text, archived or not. */
export async function getContact(ctx: ServiceContext, id: string): Promise<string> {
  const text = await contactResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No contact ${id} in this gallery.`);
  return text;
}

/** What the roster's filters match the contact on (tags, consent, spend, last engagement), as JSON text. */
export async function getContactSegmentation(ctx: ServiceContext, id: string): Promise<string> {
  const text = await contactSegmentationResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No contact ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's contacts matching every filter given. */
export function listContacts(
  ctx: ServiceContext,
  filters: ContactListFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  return listContactRows(ctx.db, ctx.principal.galleryId, filters, page);
}
