import { sql } from "drizzle-orm";
import { httpDb } from "../../db/client";
import { deleteArtworkStatement } from "../../db/queries/artwork-writes";
import { findArtwork } from "../../db/queries/artworks";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { executeWrite, guarded, notFoundUnlessReplay } from "../../lib/http/write";
import { ArtworkIdParams, DeleteResult } from "../../lib/schemas/artworks";

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
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const principal = c.get("principal");
    const current = await findArtwork(httpDb(c.env), principal.galleryId, id, {
      draft: false,
      gatePrices: false,
    });
    if (!current) return notFoundUnlessReplay(c, `No artwork ${id} in this gallery.`) as never;
    return executeWrite(c, {
      statements: [guarded(deleteArtworkStatement(principal.galleryId, id, current.updatedAt))],
      events: [
        { type: "artwork.deleted", resourceType: "artwork", resourceId: id, data: { object: current.body } },
      ],
      status: 200,
      body: sql`jsonb_build_object('id', ${id}::text, 'deleted', true)`,
    }) as never;
  });
}
