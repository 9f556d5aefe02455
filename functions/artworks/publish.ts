import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Artwork, ArtworkIdParams } from "../../lib/schemas/artworks";
import { publishArtwork } from "../../services/artworks/publish";

const route = operation({
  operationId: "publishArtwork",
  method: "post",
  path: "/gallery/artworks/{id}/publish",
  tags: ["Artworks"],
  summary: "Publish the working copy",
  description:
    "Makes the working copy live: the draft's fields, credited artists, dimensions and formats become the artwork; `published_at` is now, `published_version` goes up by one, `save_state` is `published`, and the version's snapshot is kept. Emits `artwork.updated` (and `artwork.price_changed`) for what changed, then `artwork.published`; the timeline records the publish and what it changed. A work that is already published and has no pending draft has nothing to publish: the call changes nothing, emits nothing, and answers the work.",
  auth: { scopes: ["artworks:update"] },
  idempotent: true,
  pathIds: { id: "art" },
  request: { params: ArtworkIdParams },
  responses: {
    200: { description: "The live artwork.", content: { "application/json": { schema: Artwork } } },
  },
});

export function registerArtworksPublish(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await publishArtwork(serviceContext(c), id));
  });
}
