import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { ArtistIdParams } from "../../lib/schemas/catalogue";
import { deleteArtist } from "../../services/artists/delete";

const route = operation({
  operationId: "deleteArtist",
  method: "delete",
  path: "/gallery/artists/{id}",
  tags: ["Artists"],
  summary: "Delete an artist",
  description:
    "Deletes an artist that no work credits. While any work credits them, as published or in a pending draft, the answer is 409 `conflict` with `details.artwork_count`: remove the credits first (PATCH the works' `artists`). Emits `artist.deleted` whose `data.object` is the artist's last state.",
  auth: { scopes: ["artists:delete"] },
  idempotent: true,
  pathIds: { id: "artist" },
  request: { params: ArtistIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerArtistsDelete(app: Router): void {
  app.openapi(route, async (c) => respond(c, await deleteArtist(serviceContext(c), c.req.valid("param").id)));
}
