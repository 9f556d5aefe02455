import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { ViewingRoom, ViewingRoomIdParams } from "../../lib/schemas/viewing-rooms";
import { getViewingRoom } from "../../services/viewing-rooms/read";

const route = operation({
  operationId: "getViewingRoom",
  method: "get",
  path: "/gallery/viewing-rooms/{id}",
  tags: ["Viewing rooms"],
  summary: "Retrieve a viewing room",
  description:
    "The room with its works (artwork, position, show_price) in order, its visibility, open and close times and `is_open` (now within [opens_at, closes_at)). 404 for a room that is not this gallery's.",
  auth: { scopes: ["viewing_rooms:read"] },
  pathIds: { id: "room" },
  request: { params: ViewingRoomIdParams },
  responses: {
    200: { description: "The viewing room.", content: { "application/json": { schema: ViewingRoom } } },
  },
});

export function registerViewingRoomsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getViewingRoom(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof ViewingRoom>, 200>(c, text, 200);
  });
}
