import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { createViewingRoomStatements, viewingRoomResource } from "../../db/queries/viewing-rooms";
import { publications } from "../../db/schema";
import { newId } from "../../lib/ids";
import { slugFromTitle, ViewingRoom, type ViewingRoomCreateInput } from "../../lib/schemas/viewing-rooms";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Creates a viewing room. A given slug that another room of the gallery holds is a 409 naming that room; without
 * one, the slug comes from the title (its first free variant). The publication and every work must be the
 * gallery's (400 naming `publication_id` / `artworks.<n>.artwork_id`). Records `viewing_room.created`.
 */
export function createViewingRoom(ctx: ServiceContext, input: ViewingRoomCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const id = newId("room");
  const at = nextTimestamp();
  const object = viewingRoomResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: ViewingRoom,
    statements: [
      ...(input.publication_id
        ? [expectReferences(publications, galleryId, [input.publication_id], "publication_id")]
        : []),
      ...createViewingRoomStatements(galleryId, id, input, slugFromTitle(input.title), at),
    ],
    events: [changeEvent("viewing_room.created", "viewing_room", id, object)],
    status: 201,
    body: object,
  });
}
