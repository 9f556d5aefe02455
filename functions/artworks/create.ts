import { sql } from "drizzle-orm";
import { activityInsert, createArtworkStatements } from "../../db/queries/artwork-writes";
import { artworkJsonById } from "../../db/queries/artworks";
import { nextTimestamp } from "../../db/queries/rows";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { executeWrite } from "../../lib/http/write";
import { newId } from "../../lib/ids";
import { Artwork, ArtworkCreate } from "../../lib/schemas/artworks";

const route = operation({
  operationId: "createArtwork",
  method: "post",
  path: "/gallery/artworks",
  tags: ["Artworks"],
  summary: "Create an artwork",
  description:
    "Emits `artwork.created`. Omitted fields take their defaults (availability `available`, currency `USD`, …).",
  auth: { scopes: ["artworks:create"] },
  idempotent: true,
  exampleBody: { title: "Untitled (Blue)" },
  request: {
    body: { required: true, content: { "application/json": { schema: ArtworkCreate } } },
  },
  responses: {
    201: { description: "The created artwork.", content: { "application/json": { schema: Artwork } } },
  },
});

export function registerArtworksCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const principal = c.get("principal");
    const id = newId("art");
    const at = nextTimestamp();
    const view = { draft: false, gatePrices: principal.readOnly };
    const object = artworkJsonById(principal.galleryId, id, view);
    return executeWrite(c, {
      statements: [
        ...createArtworkStatements(principal.galleryId, id, input, at),
        activityInsert(principal.galleryId, id, principal.credentialId, at, {
          eventType: "created",
          summary: `Added “${input.title}”`,
          metadata: {},
        }),
      ],
      events: [
        {
          type: "artwork.created",
          resourceType: "artwork",
          resourceId: id,
          data: sql`jsonb_build_object('object', (${object}))`,
        },
      ],
      status: 201,
      body: object,
    }) as never;
  });
}
