import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ViewingRoom, ViewingRoomIdParams, ViewingRoomUpdate } from "../../lib/schemas/viewing-rooms";
import { updateViewingRoom } from "../../services/viewing-rooms/update";

const route = operation({
  operationId: "updateViewingRoom",
  method: "patch",
  path: "/gallery/viewing-rooms/{id}",
  tags: ["Viewing rooms"],
  summary: "Update a viewing room",
  description:
    "Changes the title, `slug` (409 `conflict` naming the room that holds it; the title never changes the slug), description, visibility, open and close times, publication or works (`artworks` replaces the set and its order; 400 naming `artworks.<n>.artwork_id` for a work that is not the gallery's or is listed twice). The times are checked against the stored ones: the room must close after it opens (400 naming the bound the request gave). Leaving `private` sets `published_at`; returning to it clears it. Emits `viewing_room.updated` with `previous_attributes` (`artworks`: the works as they were); a request that changes nothing emits nothing.",
  auth: { scopes: ["viewing_rooms:update"] },
  idempotent: true,
  pathIds: { id: "room" },
  exampleBody: { title: "Spring paintings, second hang" },
  request: {
    params: ViewingRoomIdParams,
    body: { required: true, content: { "application/json": { schema: ViewingRoomUpdate } } },
  },
  responses: {
    200: {
      description: "The updated viewing room.",
      content: { "application/json": { schema: ViewingRoom } },
    },
  },
});

export function registerViewingRoomsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateViewingRoom(serviceContext(c), id, c.req.valid("json")));
  });
}
