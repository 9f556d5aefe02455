import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { ArtworkImageList } from "../../lib/schemas/artwork-images";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { listArtworkImages } from "../../services/artwork-images/read";

const route = operation({
  operationId: "listArtworkImages",
  method: "get",
  path: "/gallery/artworks/{id}/images",
  tags: ["Artwork images"],
  summary: "List an artwork's images",
  description:
    "Every image of the artwork, by position (the first is the artwork's thumbnail). Not paginated: an artwork holds at most 100 images, so `next_cursor` is always null.",
  auth: { scopes: ["artworks:read"] },
  pathIds: { id: "art" },
  request: { params: ArtworkIdParams },
  responses: {
    200: {
      description: "The artwork's images.",
      content: { "application/json": { schema: ArtworkImageList } },
    },
  },
});

export function registerArtworkImagesList(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await listArtworkImages(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof ArtworkImageList>, 200>(c, text, 200);
  });
}
