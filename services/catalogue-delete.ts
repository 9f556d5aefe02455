import type { SQL } from "drizzle-orm";
import { type CatalogueResource, type CatalogueTable, findCatalogueRow } from "../db/queries/catalogue";
import { deleteAsRead } from "../db/queries/rows";
import type { EventType } from "../lib/event-types";
import { DeleteResult } from "../lib/schemas/artworks";
import type { ServiceContext } from "./context";
import { changeEvent, deletedBody, guarded, writeExisting } from "./write";

/**
 * The delete of a catalogue row (artist, tag, custom status, location): the refusals the kind needs (a row
 * still referenced is 409 with the count), then the guarded delete, in one batch; `<kind>.deleted` carries the
 * row's last state and the answer is the Delete result.
 */
export async function deleteCatalogueEntry<T extends CatalogueTable>(
  ctx: ServiceContext,
  r: CatalogueResource<T>,
  entry: {
    id: string;
    /** How a 404 names the kind: "No <noun> <id> in this gallery." */
    noun: string;
    resourceType: string;
    eventType: EventType;
    /** Statements that abort the delete while something still refers to the row. */
    refusals: SQL[];
  },
) {
  const { db, principal } = ctx;
  const { id } = entry;
  const current = await findCatalogueRow(db, r, principal.galleryId, id);
  return writeExisting(ctx, current, `No ${entry.noun} ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [
      ...entry.refusals,
      guarded(deleteAsRead(r.spec.table, principal.galleryId, id, found.updatedAt)),
    ],
    events: [changeEvent(entry.eventType, entry.resourceType, id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
