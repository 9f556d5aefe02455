import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Artist, ArtistCreate } from "../../lib/schemas/catalogue";
import { createArtist } from "../../services/artists/create";

const route = operation({
  operationId: "createArtist",
  method: "post",
  path: "/gallery/artists",
  tags: ["Artists"],
  summary: "Create an artist",
  description:
    "Adds an artist to the catalogue; works credit them through `artists[].artist_id`. `death_year` must not be before `birth_year` (years may be negative, BCE). Emits `artist.created`.",
  auth: { scopes: ["artists:create"] },
  idempotent: true,
  exampleBody: { name: "Hilma af Klint", birth_year: 1862, death_year: 1944 },
  request: {
    body: { required: true, content: { "application/json": { schema: ArtistCreate } } },
  },
  responses: {
    201: { description: "The created artist.", content: { "application/json": { schema: Artist } } },
  },
});

export function registerArtistsCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createArtist(serviceContext(c), c.req.valid("json"))));
}
