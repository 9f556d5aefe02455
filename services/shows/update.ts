import { expectReferences } from "../../db/queries/rows";
import { findShow, showResource, updateShowStatements } from "../../db/queries/shows";
import { artworks } from "../../db/schema";
import { previousAttributes } from "../../lib/json";
import { Show, type ShowUpdateInput } from "../../lib/schemas/shows";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes a show: its fields, and `artwork_ids`, which replaces the list (works of the gallery, else 400 naming
 * it). The dates must still run forwards as the show ends up (400 naming `ends_on`), checked in the transaction.
 * Records `show.updated` with `previous_attributes`; a patch that changes nothing writes nothing.
 */
export async function updateShow(ctx: ServiceContext, id: string, input: ShowUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findShow(db, galleryId, id);
  return writeExisting(ctx, current, `No show ${id} in this gallery.`, (found, at) => {
    const previous = previousAttributes(found.body, input);
    const { rule, update, works } = updateShowStatements(galleryId, id, input, found.updatedAt, at);
    const newWorks = input.artwork_ids ?? [];
    return updatePlan({
      schema: Show,
      type: "show.updated",
      resourceType: "show",
      id,
      object: showResource.jsonById(galleryId, id, {}),
      previous,
      statements: [
        ...(newWorks.length ? [expectReferences(artworks, galleryId, newWorks, "artwork_ids")] : []),
        ...(rule ? [rule] : []),
        guarded(update),
        ...works,
      ],
    });
  });
}
