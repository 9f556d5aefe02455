import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Artwork, ArtworkCreate } from "../../lib/schemas/artworks";
import { createArtwork } from "../../services/artworks/create";

const route = operation({
  operationId: "createArtwork",
  method: "post",
  path: "/gallery/artworks",
  tags: ["Artworks"],
  summary: "Create an artwork",
  description:
    "Emits `artwork.created`. Omitted fields take their defaults (availability `available`, currency `USD`, …). An import sends `source_system` and `source_external_id` (its own id for the work): the pair is unique within the gallery, so creating a work whose pair another work already has is 409 `conflict` whose `details.existing_id` names that work (and `details.constraint` is `artworks_gallery_source_key`) — update it with PATCH /gallery/artworks/{id} instead, as an upsert.",
  auth: { scopes: ["artworks:create"] },
  idempotent: true,
  exampleBody: { title: "Untitled (Blue)" },
  request: {
    body: { required: true, content: { "application/json": { schema: ArtworkCreate } } },
  },
  responses: {
    201: { description: "The created artwork.", content: { "application/json": { schema: Artwork } } },
  },
});

export function registerArtworksCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createArtwork(serviceContext(c), c.req.valid("json"))));
}
