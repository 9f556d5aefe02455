import { findOffer } from "../../db/queries/offers";
import { deleteAsRead } from "../../db/queries/rows";
import { offers } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, dryRunAnswer, guarded, writeExisting } from "../write";

/**
 * Deletes an offer in any status; its items and recipients go with it (cascade). `offer.deleted` carries its last
 * state. A dry run reads the offer once (404 when missing) and answers what would go, writing nothing.
 */
export async function deleteOffer(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findOffer(db, galleryId, id);
  const notFound = `No offer ${id} in this gallery.`;
  if (ctx.dryRun) {
    return dryRunAnswer(current, notFound, ({ body }) => ({
      offer: { id: body.id, title: body.title, status: body.status },
      items: body.item_count,
      recipients: body.recipient_count,
    }));
  }
  return writeExisting(ctx, current, notFound, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(offers, galleryId, id, found.updatedAt))],
    events: [changeEvent("offer.deleted", "offer", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
