import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { createShowStatements, showResource } from "../../db/queries/shows";
import { artworks } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Show, type ShowCreateInput } from "../../lib/schemas/shows";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Creates a show. Its works must be the gallery's (400 naming `artwork_ids`) and its dates run forwards (400
 * naming `ends_on`), both checked in the transaction. Records `show.created`.
 */
export function createShow(ctx: ServiceContext, input: ShowCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const id = newId("show");
  const at = nextTimestamp();
  const object = showResource.jsonById(galleryId, id, {});
  const works = input.artwork_ids ?? [];
  return executeWrite(ctx, {
    schema: Show,
    statements: [
      ...(works.length ? [expectReferences(artworks, galleryId, works, "artwork_ids")] : []),
      ...createShowStatements(galleryId, id, input, at),
    ],
    events: [changeEvent("show.created", "show", id, object)],
    status: 201,
    body: object,
  });
}
