import { deleteAsRead } from "../../db/queries/rows";
import { findSale } from "../../db/queries/sales";
import { sales } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes a sale (its works list goes with it); a completed sale's amount and works leave the buyer's spend in
 * the same transaction. `sale.deleted` carries its last state.
 */
export async function deleteSale(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findSale(db, galleryId, id);
  return writeExisting(ctx, current, `No sale ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(sales, galleryId, id, found.updatedAt))],
    events: [changeEvent("sale.deleted", "sale", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
