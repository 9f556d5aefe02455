import { deleteAsRead } from "../../db/queries/rows";
import { findViewingRoom } from "../../db/queries/viewing-rooms";
import { viewingRooms } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes a viewing room (its works list goes with it; engagement events that named it keep their other fields).
 * `viewing_room.deleted` carries its last state.
 */
export async function deleteViewingRoom(ctx: ServiceContext, id: string) {
  const galleryId = ctx.principal.galleryId;
  const current = await findViewingRoom(ctx.db, galleryId, id);
  return writeExisting(ctx, current, `No viewing room ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(viewingRooms, galleryId, id, found.updatedAt))],
    events: [changeEvent("viewing_room.deleted", "viewing_room", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
