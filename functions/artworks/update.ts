import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Artwork, ArtworkIdParams, ArtworkUpdate } from "../../lib/schemas/artworks";
import { updateArtwork } from "../../services/artworks/update";

const route = operation({
  operationId: "updateArtwork",
  method: "patch",
  path: "/gallery/artworks/{id}",
  tags: ["Artworks"],
  summary: "Update an artwork",
  description:
    "Changes only the fields sent; `artists`, `dimensions` and `tag_ids` replace the whole list. Emits `artwork.updated` with `previous_attributes`, and `artwork.price_changed` when price_cents or currency change. A request that changes nothing emits nothing.",
  auth: { scopes: ["artworks:update"] },
  idempotent: true,
  pathIds: { id: "art" },
  exampleBody: { title: "Untitled (Red)" },
  request: {
    params: ArtworkIdParams,
    body: { required: true, content: { "application/json": { schema: ArtworkUpdate } } },
  },
  responses: {
    200: { description: "The updated artwork.", content: { "application/json": { schema: Artwork } } },
  },
});

export function registerArtworksUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateArtwork(serviceContext(c), id, c.req.valid("json")));
  });
}
