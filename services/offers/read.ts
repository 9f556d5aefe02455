import {
  listOfferRecipients as listOfferRecipientRows,
  listOffers as listOfferRows,
  type OfferFilters,
  offerResource,
  recommendedRecipients as recommendedRecipientsText,
} from "../../db/queries/offers";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

function notFound(id: string): ApiError {
  return new ApiError("not_found", `No offer ${id} in this gallery.`);
}

/** One offer as JSON text. */
export async function getOffer(ctx: ServiceContext, id: string): Promise<string> {
  const text = await offerResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw notFound(id);
  return text;
}

/** One page (limit + 1 rows) of the gallery's offers. */
export function listOffers(
  ctx: ServiceContext,
  filters: OfferFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  return listOfferRows(ctx.db, ctx.principal.galleryId, filters, page);
}

/** One page (limit + 1 rows) of an offer's recipients; 404 when the offer is not the gallery's. */
export async function listOfferRecipients(
  ctx: ServiceContext,
  id: string,
  page: PageRequest,
): Promise<PageRow[]> {
  const rows = await listOfferRecipientRows(ctx.db, ctx.principal.galleryId, id, page);
  if (rows === null) throw notFound(id);
  return rows;
}

/**
 * Contacts the stored matches recommend for the offer's works, best first, as `{data: [...]}` text (see
 * db/queries/offers.ts recommendedRecipients); 404 when the offer is not the gallery's. One round trip.
 */
export async function recommendOfferRecipients(
  ctx: ServiceContext,
  id: string,
  limit: number,
): Promise<string> {
  const text = await recommendedRecipientsText(ctx.db, ctx.principal.galleryId, id, limit);
  if (text === null) throw notFound(id);
  return text;
}
