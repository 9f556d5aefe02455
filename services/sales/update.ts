import { expectReferences } from "../../db/queries/rows";
import { findSale, saleResource, updateSaleStatements } from "../../db/queries/sales";
import { artworks, contacts } from "../../db/schema";
import { previousAttributes } from "../../lib/json";
import { Sale, type SaleUpdateInput } from "../../lib/schemas/sales";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes a sale: status, amounts, date, buyer, works or metadata. The buyers' spend follows in the same
 * transaction (a completed sale refunded leaves its buyer's spend; one moved to another buyer moves with it).
 * When the amount or currency changes without `base_amount_cents`, the base amount follows the amount, which
 * needs the sale to be in the gallery's default currency (else 400 naming `base_amount_cents`). Records
 * `sale.updated` with `previous_attributes` (including a base amount or works count that changed with them).
 */
export async function updateSale(ctx: ServiceContext, id: string, patch: SaleUpdateInput) {
  const { db, principal } = ctx;
  // Compared with the stored sold_at as the API prints it, so another spelling of the same instant is no change.
  const input = patch.sold_at ? { ...patch, sold_at: toStoredMs(patch.sold_at) } : patch;
  const galleryId = principal.galleryId;
  const current = await findSale(db, galleryId, id);
  return writeExisting(ctx, current, `No sale ${id} in this gallery.`, (found, at) => {
    const previous = previousAttributes(found.body, input);
    const derive =
      input.base_amount_cents === undefined && ("amount_cents" in previous || "currency" in previous);
    const amount = input.amount_cents ?? found.body.amount_cents;
    if (derive && amount !== found.body.base_amount_cents) {
      previous.base_amount_cents = found.body.base_amount_cents;
    }
    if (input.artwork_ids && input.artwork_ids.length !== found.body.works_count) {
      previous.works_count = found.body.works_count;
    }
    const { rule, locks, update, works } = updateSaleStatements(
      galleryId,
      id,
      input,
      derive,
      found.updatedAt,
      at,
    );
    return updatePlan({
      schema: Sale,
      type: "sale.updated",
      resourceType: "sale",
      id,
      object: saleResource.jsonById(galleryId, id, {}),
      previous,
      statements: [
        ...(input.contact_id
          ? [expectReferences(contacts, galleryId, [input.contact_id], "contact_id")]
          : []),
        ...(input.artwork_ids
          ? [expectReferences(artworks, galleryId, input.artwork_ids, "artwork_ids")]
          : []),
        ...(rule ? [rule] : []),
        ...locks,
        guarded(update),
        ...works,
      ],
    });
  });
}
