import { recordRemovedSuggestion } from "../../db/queries/engine-corrections";
import { deleteShowTagStatement, findShowTag } from "../../db/queries/show-tags";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Removes a tag from the show. `show_tag.deleted` carries its last state. Removing a tag the engine suggested
 * (origin ai_suggested) is a correction, kept in judgment_corrections: the engine never suggests that name for
 * the show again.
 */
export async function deleteShowTag(ctx: ServiceContext, showId: string, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findShowTag(db, galleryId, showId, id);
  return writeExisting(ctx, current, `No tag ${id} on show ${showId} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [
      guarded(deleteShowTagStatement(galleryId, showId, id, found.updatedAt)),
      ...(found.body.origin === "ai_suggested"
        ? [recordRemovedSuggestion(galleryId, showId, found.body, principal.memberId)]
        : []),
    ],
    events: [changeEvent("show_tag.deleted", "show_tag", id, found.body, undefined, { show_id: showId })],
    status: 200,
    body: deletedBody(id),
  }));
}
