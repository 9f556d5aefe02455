import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Artist, ArtistIdParams } from "../../lib/schemas/catalogue";
import { getArtist } from "../../services/artists/read";

const route = operation({
  operationId: "getArtist",
  method: "get",
  path: "/gallery/artists/{id}",
  tags: ["Artists"],
  summary: "Retrieve an artist",
  description: "The artist's name, life dates, nationality and bio.",
  auth: { scopes: ["artists:read"] },
  pathIds: { id: "artist" },
  request: { params: ArtistIdParams },
  responses: {
    200: { description: "The artist.", content: { "application/json": { schema: Artist } } },
  },
});

export function registerArtistsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getArtist(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Artist>, 200>(c, text, 200);
  });
}
