import type { SQLWrapper } from "drizzle-orm";
import {
  deleteRecipient,
  findRecipientsToAdd,
  findRecipientToRemove,
  insertRecipients,
  type OfferState,
  offerJsonById,
  recipientsChangeJson,
  updateOffer,
} from "../../db/queries/offers";
import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { contacts } from "../../db/schema";
import { Offer, type OfferBody, type OfferRecipientsAddInput } from "../../lib/schemas/offers";
import type { ServiceContext } from "../context";
import {
  changeEvent,
  executeWrite,
  guarded,
  notFoundUnlessReplay,
  refuseUnlessReplay,
  type WritePlan,
} from "../write";
import { fieldProblem, finalOfferConflict } from "./rules";

/**
 * A change of recipients: the offer's updated_at moves (guarded by the value read, so concurrent changes of one
 * offer serialise), then `change` runs, and the event carries the offer after it with the contacts concerned.
 */
function recipientsPlan(
  ctx: ServiceContext,
  offer: OfferState,
  change: {
    statements: SQLWrapper[];
    type: "offer.recipients_added" | "offer.recipient_removed";
    contactIds: string[];
    at: string;
  },
): WritePlan<typeof Offer, 200> {
  const galleryId = ctx.principal.galleryId;
  const id = offer.body.id;
  return {
    schema: Offer,
    statements: [
      guarded(updateOffer(ctx.db, galleryId, id, { updated_at: change.at }, offer.updatedAt)),
      ...change.statements,
    ],
    events: [changeEvent(change.type, "offer", id, recipientsChangeJson(galleryId, id, change.contactIds))],
    status: 200,
    body: offerJsonById(galleryId, id),
  };
}

/** Nothing to change: the offer as it is, with no event (the idempotency claim is still made). */
function unchanged(ctx: ServiceContext, id: string) {
  const body = offerJsonById(ctx.principal.galleryId, id);
  return executeWrite(ctx, { schema: Offer, statements: [], events: [], status: 200, body });
}

/**
 * Adds contacts to a draft or scheduled offer (409 naming the status otherwise). Each must be one of the
 * gallery's contacts (400 naming its index in `contact_ids`); those already recipients stay as they are. New
 * recipients are `pending`. Records `offer.recipients_added` with the contacts that joined, or nothing when none
 * did. Answers the offer.
 */
export async function addOfferRecipients(ctx: ServiceContext, id: string, input: OfferRecipientsAddInput) {
  const galleryId = ctx.principal.galleryId;
  const found = await findRecipientsToAdd(ctx.db, galleryId, id, input.contact_ids);
  if (!found) return notFoundUnlessReplay<OfferBody, 200>(ctx, `No offer ${id} in this gallery.`);
  const final = finalOfferConflict(found.body, "recipients can be added");
  if (final) return refuseUnlessReplay<OfferBody, 200>(ctx, final);
  if (found.unknownAt !== null) {
    return refuseUnlessReplay<OfferBody, 200>(
      ctx,
      fieldProblem(`contact_ids.${found.unknownAt}`, "names a resource that does not exist in this gallery"),
    );
  }
  if (found.newRecipients.length === 0) return unchanged(ctx, id);
  const at = nextTimestamp(found.updatedAt);
  return executeWrite(
    ctx,
    recipientsPlan(ctx, found, {
      // A contact deleted since the read aborts the write with a 400 naming the field.
      statements: [
        expectReferences(contacts, galleryId, found.newRecipients, "contact_ids"),
        insertRecipients(galleryId, id, found.newRecipients, at),
      ],
      type: "offer.recipients_added",
      contactIds: found.newRecipients,
      at,
    }),
  );
}

/**
 * Takes a contact off a draft or scheduled offer (409 naming the status otherwise). A contact of the gallery that
 * is not a recipient leaves the offer unchanged (200, no event); one that is not the gallery's is 404. Records
 * `offer.recipient_removed`. Answers the offer.
 */
export async function removeOfferRecipient(ctx: ServiceContext, id: string, contactId: string) {
  const galleryId = ctx.principal.galleryId;
  const found = await findRecipientToRemove(ctx.db, galleryId, id, contactId);
  if (!found) return notFoundUnlessReplay<OfferBody, 200>(ctx, `No offer ${id} in this gallery.`);
  if (!found.contactExists) {
    return notFoundUnlessReplay<OfferBody, 200>(ctx, `No contact ${contactId} in this gallery.`);
  }
  const final = finalOfferConflict(found.body, "recipients can be removed");
  if (final) return refuseUnlessReplay<OfferBody, 200>(ctx, final);
  if (!found.isRecipient) return unchanged(ctx, id);
  return executeWrite(
    ctx,
    recipientsPlan(ctx, found, {
      statements: [deleteRecipient(galleryId, id, contactId)],
      type: "offer.recipient_removed",
      contactIds: [contactId],
      at: nextTimestamp(found.updatedAt),
    }),
  );
}
