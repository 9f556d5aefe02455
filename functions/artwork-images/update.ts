import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkImage, ArtworkImageParams, ArtworkImageUpdate } from "../../lib/schemas/artwork-images";
import { updateArtworkImage } from "../../services/artwork-images/update";

const route = operation({
  operationId: "updateArtworkImage",
  method: "patch",
  path: "/gallery/artworks/{id}/images/{imageId}",
  tags: ["Artwork images"],
  summary: "Update or move an artwork image",
  description:
    "Changes the caption and/or the position. A new position reorders: the images between the old and the new place move by one (a position beyond the end means last); moving an image to or from position 0 changes the artwork's `thumbnail_url` in the same transaction. Applies to the live work at once. Emits `artwork_image.updated` with `previous_attributes` (the moved image's own former position; the images it displaced emit nothing); a patch that changes nothing emits nothing.",
  auth: { scopes: ["artworks:update"] },
  idempotent: true,
  pathIds: { id: "art", imageId: "img" },
  exampleBody: { caption: "Detail" },
  request: {
    params: ArtworkImageParams,
    body: { required: true, content: { "application/json": { schema: ArtworkImageUpdate } } },
  },
  responses: {
    200: { description: "The updated image.", content: { "application/json": { schema: ArtworkImage } } },
  },
});

export function registerArtworkImagesUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, imageId } = c.req.valid("param");
    return respond(c, await updateArtworkImage(serviceContext(c), id, imageId, c.req.valid("json")));
  });
}
