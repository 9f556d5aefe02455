import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkImageParams } from "../../lib/schemas/artwork-images";
import { DeleteResult } from "../../lib/schemas/artworks";
import { deleteArtworkImage } from "../../services/artwork-images/delete";

const route = operation({
  operationId: "deleteArtworkImage",
  method: "delete",
  path: "/gallery/artworks/{id}/images/{imageId}",
  tags: ["Artwork images"],
  summary: "Remove an artwork image",
  description:
    "Removes the image from the live work; the images after it move up one place, and the artwork's `image_count` and `thumbnail_url` follow in the same transaction. The stored file is deleted right after, so its `url` stops working. Emits `artwork_image.deleted` whose `data.object` is the image's last state.",
  auth: { scopes: ["artworks:delete"] },
  idempotent: true,
  pathIds: { id: "art", imageId: "img" },
  request: { params: ArtworkImageParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerArtworkImagesDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, imageId } = c.req.valid("param");
    return respond(c, await deleteArtworkImage(serviceContext(c), id, imageId));
  });
}
