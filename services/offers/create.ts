import { insertOffer, offerJsonById } from "../../db/queries/offers";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { Offer, type OfferCreateInput } from "../../lib/schemas/offers";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/**
 * Creates a draft offer, in the gallery's default currency unless one is given, recording the member who made it
 * (null for a secret key). Records `offer.created`.
 */
export function createOffer(ctx: ServiceContext, input: OfferCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const id = newId("offer");
  const at = nextTimestamp();
  const object = offerJsonById(galleryId, id);
  return executeWrite(ctx, {
    schema: Offer,
    statements: [insertOffer(galleryId, id, input, ctx.principal.memberId, at)],
    events: [changeEvent("offer.created", "offer", id, object)],
    status: 201,
    body: object,
  });
}
