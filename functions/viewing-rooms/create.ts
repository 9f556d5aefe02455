import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ViewingRoom, ViewingRoomCreate } from "../../lib/schemas/viewing-rooms";
import { createViewingRoom } from "../../services/viewing-rooms/create";

const route = operation({
  operationId: "createViewingRoom",
  method: "post",
  path: "/gallery/viewing-rooms",
  tags: ["Viewing rooms"],
  summary: "Create a viewing room",
  description:
    "Creates an online viewing room: `title`, and optionally `slug`, `description`, `visibility` (`private` by default; `public` rooms are listed on the public surface, `unlisted` ones are readable there by their slug only), `opens_at`/`closes_at` (UTC; null bounds are open-ended; `closes_at` must be after `opens_at`, else 400 naming `closes_at`), `publication_id` (a publication of this gallery) and `artworks` (0 to 200 distinct works of this gallery in the room's order, each with `show_price`; 400 naming `artworks.<n>.artwork_id` for a work that is not the gallery's or is listed twice). A `slug` another room of the gallery holds is 409 `conflict` whose details name that room (`viewing_room_id`); without a slug, one is derived from the title (its first free variant: `-2`, `-3`, …). A room created visible (public or unlisted) gets `published_at`. Emits `viewing_room.created`.",
  auth: { scopes: ["viewing_rooms:create"] },
  idempotent: true,
  exampleBody: { title: "Spring paintings", visibility: "public" },
  request: {
    body: { required: true, content: { "application/json": { schema: ViewingRoomCreate } } },
  },
  responses: {
    201: { description: "The new viewing room.", content: { "application/json": { schema: ViewingRoom } } },
  },
});

export function registerViewingRoomsCreate(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await createViewingRoom(serviceContext(c), c.req.valid("json"))),
  );
}
