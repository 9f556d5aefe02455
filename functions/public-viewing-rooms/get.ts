import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { ownWindow } from "../../http/edge-cache";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { PublicRoomSlugParams, PublicViewingRoom } from "../../lib/schemas/viewing-rooms";
import { publicRoom } from "../../services/public-viewing-rooms/read";

const route = operation({
  operationId: "getPublicViewingRoom",
  method: "get",
  path: "/public/viewing-rooms/{slug}",
  tags: ["Public viewing rooms"],
  summary: "Read a public viewing room",
  description:
    "A viewing room of the token's gallery that is `public` or `unlisted` and open now, with its works in the room's order and visitor-safe fields only: title, artists' names, year, medium, dimensions, images, availability (`available`, `reserved`, `sold` or `not_for_sale`) and a price only where the room shows it and the work is public-priced (else `price` null and `price_on_request` true). Never inventory numbers, locations, costs, contacts or notes. A private, unknown, not yet open or closed room is the same 404, so a visitor cannot tell them apart. Authenticated by a publishable token (`gpub_`) alone: a secret key or a member session is 403. CORS-open: `Access-Control-Allow-Origin: *` on every answer, never with credentials; a preflight is answered 204.",
  auth: { scopes: ["viewing_rooms:read"], credentials: ["publishable"] },
  edgeCache: { validity: ownWindow },
  request: { params: PublicRoomSlugParams },
  responses: {
    200: {
      description: "The viewing room as a visitor sees it.",
      content: { "application/json": { schema: PublicViewingRoom } },
    },
  },
});

export function registerPublicViewingRoomsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await publicRoom(serviceContext(c), c.req.valid("param").slug);
    return sendJson<z.infer<typeof PublicViewingRoom>, 200>(c, text, 200);
  });
}
