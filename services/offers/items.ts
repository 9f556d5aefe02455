import type { z } from "zod";
import {
  findOfferForItems,
  itemsChangeJson,
  offerItemsListJson,
  replaceItemsStatements,
  updateOffer,
} from "../../db/queries/offers";
import { nextTimestamp } from "../../db/queries/rows";
import { OfferItemList, type OfferItemsReplaceInput } from "../../lib/schemas/offers";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay, refuseUnlessReplay } from "../write";
import { fieldProblem, finalOfferConflict } from "./rules";

type Items = z.output<typeof OfferItemList>;

/**
 * Replaces an offer's whole item set while it is draft or scheduled (409 naming the status otherwise): each work
 * must be one of the gallery's (400 naming `items.<n>.artwork_id`), its position is its index, its currency the
 * offer's unless given. The offer's updated_at moves (guarded, so two saves of one offer serialise). Records
 * `offer.items_replaced` with the offer and its works in order. Answers the items in position order.
 */
export async function replaceOfferItems(ctx: ServiceContext, id: string, input: OfferItemsReplaceInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const artworkIds = input.items.map((item) => item.artwork_id);
  const found = await findOfferForItems(db, galleryId, id, artworkIds);
  if (!found) return notFoundUnlessReplay<Items, 200>(ctx, `No offer ${id} in this gallery.`);
  const final = finalOfferConflict(found.body, "its items can be replaced");
  if (final) return refuseUnlessReplay<Items, 200>(ctx, final);
  if (found.unknownAt !== null) {
    return refuseUnlessReplay<Items, 200>(
      ctx,
      fieldProblem(
        `items.${found.unknownAt}.artwork_id`,
        "names an artwork that does not exist in this gallery",
      ),
    );
  }
  const at = nextTimestamp(found.updatedAt);
  return executeWrite(ctx, {
    schema: OfferItemList,
    statements: [
      guarded(updateOffer(db, galleryId, id, { updated_at: at }, found.updatedAt)),
      ...replaceItemsStatements(galleryId, id, input, found.body.currency, at),
    ],
    events: [changeEvent("offer.items_replaced", "offer", id, itemsChangeJson(galleryId, id))],
    status: 200,
    body: offerItemsListJson(id),
  });
}
