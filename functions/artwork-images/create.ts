import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkImage, ArtworkImageCreate } from "../../lib/schemas/artwork-images";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { createArtworkImage } from "../../services/artwork-images/create";

const route = operation({
  operationId: "createArtworkImage",
  method: "post",
  path: "/gallery/artworks/{id}/images",
  tags: ["Artwork images"],
  summary: "Attach an uploaded image to an artwork",
  description:
    "Step 3 of adding an image: `storage_path` must come from an upload target minted for this artwork whose PUT has completed (400 when it was minted for something else, 409 when its bytes are not uploaded yet or it is already attached). The image goes to `position` (the images from there on move down one place) or last. Images belong to the live work, not to its draft: the change is visible at once, and the artwork's `thumbnail_url` (the image at position 0) and its `has_image` filter follow in the same transaction. Emits `artwork_image.created`.",
  auth: { scopes: ["artworks:create"] },
  idempotent: true,
  pathIds: { id: "art" },
  exampleBody: {
    caption: "Front",
    storage_path:
      "galleries/gal_01jd4xk9v2c7h8m3n5p6q7r8s9/artworks/art_01jd4xk9v2c7h8m3n5p6q7r8s9/img_01jd4xk9v2c7h8m3n5p6q7r8s9.png",
  },
  request: {
    params: ArtworkIdParams,
    body: { required: true, content: { "application/json": { schema: ArtworkImageCreate } } },
  },
  responses: {
    201: { description: "The new image.", content: { "application/json": { schema: ArtworkImage } } },
  },
});

export function registerArtworkImagesCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await createArtworkImage(serviceContext(c), id, c.req.valid("json")));
  });
}
