import { deleteAsRead } from "../../db/queries/rows";
import { findShow } from "../../db/queries/shows";
import { shows } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/** Deletes a show with its tags and its list of works (the works stay). `show.deleted` carries its last state. */
export async function deleteShow(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findShow(db, galleryId, id);
  return writeExisting(ctx, current, `No show ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(shows, galleryId, id, found.updatedAt))],
    events: [changeEvent("show.deleted", "show", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
