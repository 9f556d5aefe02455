import { ApiError } from "../../lib/problem";
import { type OfferBody, openOfferStatuses } from "../../lib/schemas/offers";

/** A 400 naming a body field, as the validator words its own. */
export function fieldProblem(field: string, message: string): ApiError {
  return new ApiError("invalid_request", `Body field \`${field}\` ${message}.`, [
    { location: "body", field, message },
  ]);
}

/**
 * The 409 of a change to an offer that is no longer being composed (sent or cancelled: both final), naming its
 * status; null while it is draft or scheduled.
 */
export function finalOfferConflict(offer: OfferBody, what: string): ApiError | null {
  if (openOfferStatuses.includes(offer.status)) return null;
  return new ApiError(
    "conflict",
    `Offer ${offer.id} is ${offer.status}: ${what} only while an offer is draft or scheduled.`,
    { status: offer.status },
  );
}
