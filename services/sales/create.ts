import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { createSaleStatements, saleResource } from "../../db/queries/sales";
import { artworks, contacts } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Sale, type SaleCreateInput } from "../../lib/schemas/sales";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Records a sale of the gallery's works to one of its contacts. The buyer and the works must be the gallery's
 * (400 naming `contact_id` / `artwork_ids`), and `base_amount_cents` follows its rule against the gallery's
 * default currency inside the transaction. A completed sale adds to the buyer's spend in the same transaction
 * (under the contact's row lock, so concurrent sales all count). Records `sale.created`.
 */
export function createSale(ctx: ServiceContext, input: SaleCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const id = newId("sale");
  const at = nextTimestamp();
  const object = saleResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: Sale,
    statements: [
      expectReferences(contacts, galleryId, [input.contact_id], "contact_id"),
      expectReferences(artworks, galleryId, input.artwork_ids, "artwork_ids"),
      ...createSaleStatements(galleryId, id, input, at),
    ],
    events: [changeEvent("sale.created", "sale", id, object)],
    status: 201,
    body: object,
  });
}
