import type { Db } from "../../db/client";
import {
  findOffer,
  markRecipientsSent,
  type OfferState,
  offerJsonById,
  updateOffer as updateOfferRow,
} from "../../db/queries/offers";
import type { DomainEventInput } from "../../db/queries/outbox";
import { nextTimestamp } from "../../db/queries/rows";
import { previousAttributes } from "../../lib/json";
import { ApiError } from "../../lib/problem";
import {
  Offer,
  type OfferBody,
  type OfferStatus,
  type OfferUpdateInput,
  openOfferStatuses,
} from "../../lib/schemas/offers";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import {
  changeEvent,
  executeWrite,
  guarded,
  notFoundUnlessReplay,
  refuseUnlessReplay,
  updatePlan,
  type WritePlan,
} from "../write";
import { fieldProblem, finalOfferConflict } from "./rules";

/** The fields a PATCH ends with, as the offer prints them. */
interface OfferChange {
  fields: Partial<Pick<OfferBody, "title" | "message" | "currency" | "status" | "scheduled_at" | "sent_at">>;
}

/**
 * What the request changes, or the refusal: `scheduled_at` only for an offer that is or becomes scheduled, and in
 * the future whenever the offer is scheduled or rescheduled (400 naming it); a sent or cancelled offer never
 * changes (409 naming its status). `sent_at` is set when the offer becomes sent; `scheduled_at` is cleared when it
 * goes back to draft.
 */
function changeOf(offer: OfferBody, input: OfferUpdateInput, at: string): OfferChange | ApiError {
  const status: OfferStatus = input.status ?? offer.status;
  const fields: OfferChange["fields"] = {};
  if (input.title !== undefined) fields.title = input.title;
  if (input.message !== undefined) fields.message = input.message;
  if (input.currency !== undefined) fields.currency = input.currency;
  if (input.status !== undefined) fields.status = input.status;
  // A sent or cancelled offer never changes: whatever the request would change is refused as a whole (409).
  if (!openOfferStatuses.includes(offer.status)) {
    if (input.scheduled_at !== undefined) fields.scheduled_at = toStoredMs(input.scheduled_at);
    return { fields };
  }
  if (input.scheduled_at !== undefined) {
    if (status !== "scheduled") {
      return fieldProblem(
        "scheduled_at",
        "is only for an offer that is or becomes scheduled (status `scheduled`)",
      );
    }
    fields.scheduled_at = toStoredMs(input.scheduled_at);
  }
  const scheduling =
    status === "scheduled" && (offer.status !== "scheduled" || input.scheduled_at !== undefined);
  if (scheduling) {
    const when = fields.scheduled_at ?? null;
    if (when === null) return fieldProblem("scheduled_at", "is required to schedule an offer");
    if (Date.parse(when) <= Date.now()) return fieldProblem("scheduled_at", "must be in the future");
  }
  if (status === "draft") fields.scheduled_at = null;
  if (status === "sent" && offer.status !== "sent") fields.sent_at = at;
  return { fields };
}

const statusEvents: Partial<Record<OfferStatus, "offer.scheduled" | "offer.sent" | "offer.cancelled">> = {
  scheduled: "offer.scheduled",
  sent: "offer.sent",
  cancelled: "offer.cancelled",
};

/**
 * The write of a change to an offer as read (see changeOf for the moves and their rules), or its refusal. A sent
 * offer marks its pending recipients `sent`. Records `offer.updated` with `previous_attributes`, then
 * `offer.scheduled`, `offer.sent` or `offer.cancelled` when the status moved there; a change that changes nothing
 * records nothing, whatever the status. The UPDATE is guarded by the read's updated_at. One definition for the
 * PATCH and for the cron Worker's scheduled send (services/offers/scheduled.ts), so both send alike.
 */
export function offerChange(
  db: Db,
  galleryId: string,
  current: OfferState,
  input: OfferUpdateInput,
): WritePlan<typeof Offer, 200> | ApiError {
  const id = current.body.id;
  const at = nextTimestamp(current.updatedAt);
  const change = changeOf(current.body, input, at);
  if (change instanceof ApiError) return change;
  const previous = previousAttributes(current.body, change.fields);
  if (Object.keys(previous).length > 0) {
    const final = finalOfferConflict(current.body, "it changes");
    if (final) return final;
  }
  const object = offerJsonById(galleryId, id);
  const becomes = "status" in previous ? statusEvents[change.fields.status!] : undefined;
  const events: DomainEventInput[] = becomes ? [changeEvent(becomes, "offer", id, object)] : [];
  return updatePlan({
    schema: Offer,
    type: "offer.updated",
    resourceType: "offer",
    id,
    object,
    previous,
    statements: [
      guarded(updateOfferRow(db, galleryId, id, { ...change.fields, updated_at: at }, current.updatedAt)),
      ...(becomes === "offer.sent" ? [markRecipientsSent(galleryId, id)] : []),
    ],
    events,
  });
}

/** Changes an offer's title, message, currency or status: offerChange on the offer as read. */
export async function updateOffer(ctx: ServiceContext, id: string, input: OfferUpdateInput) {
  const { db, principal } = ctx;
  const current = await findOffer(db, principal.galleryId, id);
  if (!current) return notFoundUnlessReplay<OfferBody, 200>(ctx, `No offer ${id} in this gallery.`);
  const plan = offerChange(db, principal.galleryId, current, input);
  if (plan instanceof ApiError) return refuseUnlessReplay<OfferBody, 200>(ctx, plan);
  return executeWrite(ctx, plan);
}
