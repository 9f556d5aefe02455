import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkIdParams, DeleteResult } from "../../lib/schemas/artworks";
import { deleteArtwork } from "../../services/artworks/delete";

const route = operation({
  operationId: "deleteArtwork",
  method: "delete",
  path: "/gallery/artworks/{id}",
  tags: ["Artworks"],
  summary: "Delete an artwork",
  description:
    "Deletes the artwork with its formats, images, dimensions, auction records and timeline. Emits `artwork.deleted` whose `data.object` is the artwork's last state.",
  auth: { scopes: ["artworks:delete"] },
  idempotent: true,
  pathIds: { id: "art" },
  request: { params: ArtworkIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerArtworksDelete(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await deleteArtwork(serviceContext(c), c.req.valid("param").id)),
  );
}
