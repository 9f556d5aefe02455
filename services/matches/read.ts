import {
  listMatches as listMatchRows,
  type MatchVisibility,
  matchDetailText,
} from "../../db/queries/matches";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** A read-only caller sees no price evidence of a work that is not public-priced. */
function matchView(ctx: ServiceContext) {
  return { gatePrices: ctx.principal.readOnly };
}

/**
 * One page (limit + 1 rows) of the contact's matches, best first. A missing contact is a 404; a contact the
 * engine has not judged yet answers an empty page. A cursor position that is not a probability was not minted
 * by this list (its cursors are bound to it): 400 naming the cursor.
 */
export async function listContactMatches(
  ctx: ServiceContext,
  contactId: string,
  visibility: MatchVisibility,
  page: PageRequest,
): Promise<PageRow[]> {
  if (page.after && (typeof page.after[0] !== "number" || !Number.isFinite(page.after[0]))) {
    throw new ApiError("invalid_request", "The cursor is not a position in this list.", [
      { location: "query", field: "cursor", message: "is not a position in this list" },
    ]);
  }
  const rows = await listMatchRows(
    ctx.db,
    ctx.principal.galleryId,
    contactId,
    matchView(ctx),
    visibility,
    page,
  );
  if (rows === null) throw new ApiError("not_found", `No contact ${contactId} in this gallery.`);
  return rows;
}

/** One match of the contact with all its evidence and the pair's feedback, as MatchDetail JSON text. */
export async function getContactMatch(
  ctx: ServiceContext,
  contactId: string,
  matchId: string,
): Promise<string> {
  const text = await matchDetailText(ctx.db, ctx.principal.galleryId, contactId, matchId, matchView(ctx));
  if (text === null)
    throw new ApiError("not_found", `No match ${matchId} of contact ${contactId} in this gallery.`);
  return text;
}
