import { z } from "@hono/zod-openapi";
import { viewingRoomList } from "../../db/queries/viewing-rooms";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { boolParam } from "../../lib/params";
import { roomVisibilities, ViewingRoom } from "../../lib/schemas/viewing-rooms";
import { listViewingRooms } from "../../services/viewing-rooms/read";

const ViewingRoomList = listResponse(ViewingRoom, "ViewingRoomList");

const route = operation({
  operationId: "listViewingRooms",
  method: "get",
  path: "/gallery/viewing-rooms",
  tags: ["Viewing rooms"],
  summary: "List viewing rooms",
  description:
    "The gallery's viewing rooms, of every visibility, newest first by default; `sort=updated` orders by the last change. Filters combine: `visibility`, and `is_open` (`true`: now within [opens_at, closes_at); `false`: not yet open or already closed).",
  auth: { scopes: ["viewing_rooms:read"] },
  list: viewingRoomList,
  request: {
    query: z.strictObject({
      ...paginationQuery(viewingRoomList),
      visibility: z.enum(roomVisibilities).optional().openapi({ description: "Rooms of this visibility." }),
      is_open: boolParam("`true`: rooms open now; `false`: rooms not yet open or already closed.").optional(),
    }),
  },
  responses: {
    200: {
      description: "A page of viewing rooms.",
      content: { "application/json": { schema: ViewingRoomList } },
    },
  },
});

export function registerViewingRoomsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof ViewingRoomList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listViewingRooms(ctx, filters, page),
    );
  });
}
