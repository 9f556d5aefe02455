import { artistResource, insertArtist } from "../../db/queries/catalogue";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { Artist, type ArtistCreateInput } from "../../lib/schemas/catalogue";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/** Adds an artist to the catalogue; records `artist.created`. */
export function createArtist(ctx: ServiceContext, input: ArtistCreateInput) {
  const { db, principal } = ctx;
  const id = newId("artist");
  const at = nextTimestamp();
  const object = artistResource.jsonById(principal.galleryId, id, {});
  return executeWrite(ctx, {
    schema: Artist,
    statements: [
      insertArtist(db, { ...input, id, gallery_id: principal.galleryId, created_at: at, updated_at: at }),
    ],
    events: [changeEvent("artist.created", "artist", id, object)],
    status: 201,
    body: object,
  });
}
