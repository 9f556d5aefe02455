import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { findArtwork } from "../../db/queries/artworks";
import type { Router } from "../../lib/app";
import { operation } from "../../lib/operation";
import { boolParam } from "../../lib/params";
import { ApiError } from "../../lib/problem";
import { Artwork, ArtworkIdParams } from "./schemas";

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
    const principal = c.get("principal");
    const found = await findArtwork(httpDb(c.env), principal.galleryId, id, {
      draft: draft === true,
      gatePrices: principal.readOnly,
    });
    if (!found) throw new ApiError("not_found", `No artwork ${id} in this gallery.`);
    return c.json(found.body as z.infer<typeof Artwork>, 200);
  });
}
