import { activityInsert, createArtworkStatements } from "../../db/queries/artwork-writes";
import { artworkResource } from "../../db/queries/artworks";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { Artwork, type ArtworkCreateInput } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/** Creates an artwork with its credits, dimensions and tags; records `artwork.created` and a timeline entry. */
export function createArtwork(ctx: ServiceContext, input: ArtworkCreateInput) {
  const { db, principal } = ctx;
  const id = newId("art");
  const at = nextTimestamp();
  const object = artworkResource.jsonById(principal.galleryId, id, {
    draft: false,
    gatePrices: principal.readOnly,
  });
  return executeWrite(ctx, {
    schema: Artwork,
    statements: [
      ...createArtworkStatements(db, principal.galleryId, id, input, at),
      activityInsert(db, principal.galleryId, id, principal.credentialId, at, {
        eventType: "created",
        summary: `Added “${input.title}”`,
        metadata: {},
      }),
    ],
    events: [changeEvent("artwork.created", "artwork", id, object)],
    status: 201,
    body: object,
  });
}
