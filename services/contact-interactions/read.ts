import {
  type InteractionFilters,
  listInteractions as listInteractionRows,
} from "../../db/queries/interactions";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One page (limit + 1 rows) of the contact's interactions; a missing contact is a 404, not an empty page. */
export async function listInteractions(
  ctx: ServiceContext,
  contactId: string,
  filters: InteractionFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const rows = await listInteractionRows(ctx.db, ctx.principal.galleryId, contactId, filters, page);
  if (rows === null) throw new ApiError("not_found", `No contact ${contactId} in this gallery.`);
  return rows;
}
