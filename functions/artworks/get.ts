import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { boolParam } from "../../lib/params";
import { Artwork, ArtworkIdParams } from "../../lib/schemas/artworks";
import { getArtwork } from "../../services/artworks/read";

const route = operation({
  operationId: "getArtwork",
  method: "get",
  path: "/gallery/artworks/{id}",
  tags: ["Artworks"],
  summary: "Retrieve an artwork",
  auth: { scopes: ["artworks:read"] },
  pathIds: { id: "art" },
  gatedPrices: ["formats[].price_cents"],
  request: {
    params: ArtworkIdParams,
    query: z.strictObject({
      draft: boolParam("true: the editor's working copy (pending draft edits overlaid).").optional(),
    }),
  },
  responses: {
    200: { description: "The artwork.", content: { "application/json": { schema: Artwork } } },
  },
});

export function registerArtworksGet(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { draft } = c.req.valid("query");
    const text = await getArtwork(serviceContext(c), id, { draft: draft === true });
    return sendJson<z.infer<typeof Artwork>, 200>(c, text, 200);
  });
}
