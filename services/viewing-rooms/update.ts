import { expectReferences } from "../../db/queries/rows";
import {
  findViewingRoom,
  updateViewingRoomStatements,
  viewingRoomResource,
} from "../../db/queries/viewing-rooms";
import { publications } from "../../db/schema";
import { previousAttributes } from "../../lib/json";
import { ViewingRoom, type ViewingRoomUpdateInput } from "../../lib/schemas/viewing-rooms";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes a viewing room: title, slug (409 naming the room that holds it), description, visibility, open and
 * close times (checked against the stored ones: closes_at after opens_at), publication, or its works (`artworks`
 * replaces the set). Leaving `private` sets `published_at`; returning to it clears it. Records
 * `viewing_room.updated` with `previous_attributes` (the works as they were, when they changed); a request that
 * changes nothing records nothing.
 */
export async function updateViewingRoom(ctx: ServiceContext, id: string, patch: ViewingRoomUpdateInput) {
  const galleryId = ctx.principal.galleryId;
  // Compared with the stored values as the API prints them, so another spelling of the same value is no change.
  const input: ViewingRoomUpdateInput = {
    ...patch,
    ...(patch.opens_at ? { opens_at: toStoredMs(patch.opens_at) } : {}),
    ...(patch.closes_at ? { closes_at: toStoredMs(patch.closes_at) } : {}),
  };
  const current = await findViewingRoom(ctx.db, galleryId, id);
  return writeExisting(ctx, current, `No viewing room ${id} in this gallery.`, (found, at) => {
    const { artworks, ...fields } = input;
    const previous = previousAttributes(found.body, fields);
    if (artworks !== undefined) {
      const given = artworks.map((item, position) => ({
        artwork_id: item.artwork_id,
        position,
        show_price: item.show_price ?? false,
      }));
      Object.assign(previous, previousAttributes(found.body, { artworks: given }));
    }
    if ("visibility" in previous) {
      const published =
        input.visibility === "private"
          ? null
          : found.body.visibility === "private"
            ? at
            : found.body.published_at;
      if (published !== found.body.published_at) previous.published_at = found.body.published_at;
    }
    const { checks, update, works } = updateViewingRoomStatements(galleryId, id, input, found.updatedAt, at);
    return updatePlan({
      schema: ViewingRoom,
      type: "viewing_room.updated",
      resourceType: "viewing_room",
      id,
      object: viewingRoomResource.jsonById(galleryId, id, {}),
      previous,
      statements: [
        ...(input.publication_id
          ? [expectReferences(publications, galleryId, [input.publication_id], "publication_id")]
          : []),
        ...checks,
        guarded(update),
        ...works,
      ],
    });
  });
}
