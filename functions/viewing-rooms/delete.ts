import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { ViewingRoomIdParams } from "../../lib/schemas/viewing-rooms";
import { deleteViewingRoom } from "../../services/viewing-rooms/delete";

const route = operation({
  operationId: "deleteViewingRoom",
  method: "delete",
  path: "/gallery/viewing-rooms/{id}",
  tags: ["Viewing rooms"],
  summary: "Delete a viewing room",
  description:
    "Deletes the room and its works list (the works themselves stay); its slug is free again, and engagement events recorded in it keep everything but the room. Emits `viewing_room.deleted` whose `data.object` is the room's last state.",
  auth: { scopes: ["viewing_rooms:delete"] },
  idempotent: true,
  pathIds: { id: "room" },
  request: { params: ViewingRoomIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerViewingRoomsDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await deleteViewingRoom(serviceContext(c), id));
  });
}
