import { findPublicRoomText, listPublicRooms, publicRoomList } from "../../db/queries/viewing-rooms";
import { type ListQuery, pageBody } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** The operationId of the public room list: its cursors are valid for it alone. */
export const PUBLIC_ROOM_LIST_ROUTE = "listPublicViewingRooms";

/**
 * The 404 of the public surface: the same for a private, closed, not yet open or unknown room, so a visitor
 * cannot tell them apart.
 */
export function noPublicRoom(slug: string): ApiError {
  return new ApiError("not_found", `No open viewing room ${slug}.`);
}

/**
 * A room as a visitor sees it (JSON text): public or unlisted and open now, with visitor-safe fields only. The
 * body depends only on the gallery and the slug (and the stored state), never on who asks.
 */
export async function publicRoom(ctx: ServiceContext, slug: string): Promise<string> {
  const text = await findPublicRoomText(ctx.db, ctx.principal.galleryId, slug);
  if (text === null) throw noPublicRoom(slug);
  return text;
}

/**
 * One page of the gallery's public rooms that are open now, newest first: the whole body (`{data,
 * next_cursor}`) as JSON text. It depends only on the gallery and the query (and the stored state).
 */
export function publicRooms(ctx: ServiceContext, query: ListQuery): Promise<string> {
  const galleryId = ctx.principal.galleryId;
  return pageBody(
    ctx.env.SIGNING_SECRET,
    galleryId,
    { ...publicRoomList, route: PUBLIC_ROOM_LIST_ROUTE },
    query,
    (page) => listPublicRooms(ctx.db, galleryId, page),
  );
}
