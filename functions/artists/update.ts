import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Artist, ArtistIdParams, ArtistUpdate } from "../../lib/schemas/catalogue";
import { updateArtist } from "../../services/artists/update";

const route = operation({
  operationId: "updateArtist",
  method: "patch",
  path: "/gallery/artists/{id}",
  tags: ["Artists"],
  summary: "Update an artist",
  description:
    "Changes only the fields sent; `null` clears an optional field. A new name is also shown on every work crediting the artist. Emits `artist.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["artists:update"] },
  idempotent: true,
  pathIds: { id: "artist" },
  exampleBody: { bio: "Swedish painter and mystic." },
  request: {
    params: ArtistIdParams,
    body: { required: true, content: { "application/json": { schema: ArtistUpdate } } },
  },
  responses: {
    200: { description: "The updated artist.", content: { "application/json": { schema: Artist } } },
  },
});

export function registerArtistsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateArtist(serviceContext(c), id, c.req.valid("json")));
  });
}
