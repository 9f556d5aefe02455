import {
  type ContactListFilters,
  contactListText,
  listContactLists as listRows,
} from "../../db/queries/contact-lists";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One list as JSON text. */
export async function getContactList(ctx: ServiceContext, id: string): Promise<string> {
  const text = await contactListText(ctx.db, ctx.principal.galleryId, id);
  if (text === null) throw new ApiError("not_found", `No contact list ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's lists, newest first. */
export function listContactLists(
  ctx: ServiceContext,
  filters: ContactListFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  return listRows(ctx.db, ctx.principal.galleryId, filters, page);
}
