import { z } from "@hono/zod-openapi";
import { publicRoomList } from "../../db/queries/viewing-rooms";
import type { Router } from "../../http/app";
import { pageWindow } from "../../http/edge-cache";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { PublicViewingRoomSummary } from "../../lib/schemas/viewing-rooms";
import { PUBLIC_ROOM_LIST_ROUTE, publicRooms } from "../../services/public-viewing-rooms/read";

const PublicViewingRoomList = listResponse(PublicViewingRoomSummary, "PublicViewingRoomList");

const route = operation({
  operationId: PUBLIC_ROOM_LIST_ROUTE,
  method: "get",
  path: "/public/viewing-rooms",
  tags: ["Public viewing rooms"],
  summary: "List the gallery's public viewing rooms",
  description:
    "The browser-safe list of the token's gallery's viewing rooms that are `public` and open now (opens_at at or before now, closes_at after it), newest first; unlisted and private rooms are never listed, nor rooms not yet open or already closed. Each is a visitor-safe summary: slug, title, description, open and close times, how many works it shows and a cover image. Authenticated by a publishable token (`gpub_`) alone: a secret key or a member session is 403. CORS-open: `Access-Control-Allow-Origin: *` on every answer, never with credentials; a preflight is answered 204.",
  auth: { scopes: ["viewing_rooms:read"], credentials: ["publishable"] },
  edgeCache: { validity: pageWindow },
  list: publicRoomList,
  request: { query: z.strictObject(paginationQuery(publicRoomList)) },
  responses: {
    200: {
      description: "A page of public viewing rooms.",
      content: { "application/json": { schema: PublicViewingRoomList } },
    },
  },
});

export function registerPublicViewingRoomsList(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await publicRooms(serviceContext(c), c.req.valid("query"));
    return sendJson<z.infer<typeof PublicViewingRoomList>, 200>(c, text, 200);
  });
}
