import {
  listPriorityThreads,
  listThreadMessages as listThreadMessageRows,
  listThreads as listThreadRows,
  type ThreadFilters,
  threadText,
} from "../../db/queries/inbox";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";
import { inboxOwner, inboxView } from "./member";

/** One page (limit + 1 rows) of the signed-in member's threads under the filters. */
export function listThreads(
  ctx: ServiceContext,
  filters: ThreadFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  return listThreadRows(ctx.db, ctx.principal.galleryId, inboxOwner(ctx), filters, page);
}

/**
 * The signed-in member's threads under the filters in triage priority, as the whole list response (JSON text):
 * one page of at most `limit`, and no cursor.
 */
export async function listThreadsByPriority(
  ctx: ServiceContext,
  filters: ThreadFilters,
  limit: number,
): Promise<string> {
  const rows = await listPriorityThreads(ctx.db, ctx.principal.galleryId, inboxOwner(ctx), filters, limit);
  return `{"data":[${rows.join(",")}],"next_cursor":null}`;
}

/** One of the signed-in member's threads as JSON text; another member's is as missing as an unknown one. */
export async function getThread(ctx: ServiceContext, id: string): Promise<string> {
  const text = await threadText(ctx.db, ctx.principal.galleryId, inboxOwner(ctx), id);
  if (text === null) throw new ApiError("not_found", `No inbox thread ${id} of yours.`);
  return text;
}

/** One page (limit + 1 rows) of a thread's messages; 404 unless the thread is the signed-in member's. */
export async function listThreadMessages(
  ctx: ServiceContext,
  id: string,
  page: PageRequest,
): Promise<PageRow[]> {
  const rows = await listThreadMessageRows(
    ctx.db,
    inboxView(ctx.env),
    ctx.principal.galleryId,
    inboxOwner(ctx),
    id,
    page,
  );
  if (rows === null) throw new ApiError("not_found", `No inbox thread ${id} of yours.`);
  return rows;
}
