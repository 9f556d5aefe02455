import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Artwork, ArtworkIdParams } from "../../lib/schemas/artworks";
import { discardArtworkDraft } from "../../services/artworks/publish";

const route = operation({
  operationId: "discardArtworkDraft",
  method: "post",
  path: "/gallery/artworks/{id}/draft/discard",
  tags: ["Artworks"],
  summary: "Discard an artwork's draft",
  description:
    "Drops the pending draft: the working copy equals the last published state again (fields, credited artists, dimensions and formats), and the live work is unchanged. Emits `artwork.draft_discarded` and records it on the timeline. A work without a draft is already in that state: the call changes nothing, emits nothing, and answers the work.",
  auth: { scopes: ["artworks:update"] },
  idempotent: true,
  pathIds: { id: "art" },
  request: { params: ArtworkIdParams },
  responses: {
    200: {
      description: "The live artwork, which is now also the working copy.",
      content: { "application/json": { schema: Artwork } },
    },
  },
});

export function registerArtworksDiscardDraft(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await discardArtworkDraft(serviceContext(c), id));
  });
}
