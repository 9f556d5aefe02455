import { type EventView, eventText, listEvents as listEventRows } from "../../db/queries/events";
import { priceAccess } from "../../db/resource";
import { catalogueTypes, type EventReadScopes, readableEventTypes } from "../../lib/event-catalogue";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Principal } from "../../lib/principal";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/**
 * What a caller may see of the event stream: only the types whose objects it could read itself (each type's
 * read scopes), and the gated values of those objects as the resources' own reads show them.
 */
function eventAccess(principal: Principal, readScopes: EventReadScopes) {
  const readable = readableEventTypes(readScopes, principal.scopes);
  const view: EventView = { prices: priceAccess(principal) };
  return { view, readable: readable.length === catalogueTypes.length ? undefined : readable };
}

/**
 * One domain event of the gallery as JSON text, byte for byte what the list shows the same caller. An event of a
 * type the caller may not read is 404, like another gallery's.
 */
export async function getEvent(
  ctx: ServiceContext,
  id: string,
  readScopes: EventReadScopes,
): Promise<string> {
  const { view, readable } = eventAccess(ctx.principal, readScopes);
  const text = await eventText(ctx.db, ctx.principal.galleryId, id, view, readable);
  if (text === null) throw new ApiError("not_found", `No event ${id} in this gallery.`);
  return text;
}

/** One page of the events the caller may read; the others are left out of the stream, not redacted. */
export function listEvents(
  ctx: ServiceContext,
  filters: { type?: string },
  page: PageRequest,
  readScopes: EventReadScopes,
): Promise<PageRow[]> {
  const { view, readable } = eventAccess(ctx.principal, readScopes);
  return listEventRows(ctx.db, ctx.principal.galleryId, view, { ...filters, readable }, page);
}
