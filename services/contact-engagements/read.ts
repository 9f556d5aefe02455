import { type EngagementFilters, listEngagements as listEngagementRows } from "../../db/queries/engagements";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One page (limit + 1 rows) of the contact's engagement events; a missing contact is a 404. */
export async function listEngagements(
  ctx: ServiceContext,
  contactId: string,
  filters: EngagementFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const rows = await listEngagementRows(ctx.db, ctx.principal.galleryId, contactId, filters, page);
  if (rows === null) throw new ApiError("not_found", `No contact ${contactId} in this gallery.`);
  return rows;
}
