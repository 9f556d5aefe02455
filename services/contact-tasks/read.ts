import { listTasks as listTaskRows, type TaskFilters } from "../../db/queries/tasks";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One page (limit + 1 rows) of the contact's tasks; a missing contact is a 404, not an empty page. */
export async function listTasks(
  ctx: ServiceContext,
  contactId: string,
  filters: TaskFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const rows = await listTaskRows(ctx.db, ctx.principal.galleryId, contactId, filters, page);
  if (rows === null) throw new ApiError("not_found", `No contact ${contactId} in this gallery.`);
  return rows;
}
