import {
  listViewingRooms as listViewingRoomRows,
  type ViewingRoomFilters,
  viewingRoomResource,
} from "../../db/queries/viewing-rooms";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One viewing room as JSON text. */
export async function getViewingRoom(ctx: ServiceContext, id: string): Promise<string> {
  const text = await viewingRoomResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No viewing room ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's viewing rooms. */
export function listViewingRooms(
  ctx: ServiceContext,
  filters: ViewingRoomFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  return listViewingRoomRows(ctx.db, ctx.principal.galleryId, filters, page);
}
