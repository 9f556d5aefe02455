import { eventResource, listEvents as listEventRows } from "../../db/queries/events";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/**
 * One domain event of the gallery as JSON text, byte for byte what the list shows the same caller. A read-only
 * caller sees the gated values of the snapshot in `data.object` as null, as on the resource's own reads.
 */
export async function getEvent(ctx: ServiceContext, id: string): Promise<string> {
  const view = { gatePrices: ctx.principal.readOnly };
  const text = await eventResource.textById(ctx.db, ctx.principal.galleryId, id, view);
  if (text === null) throw new ApiError("not_found", `No event ${id} in this gallery.`);
  return text;
}

export function listEvents(
  ctx: ServiceContext,
  filters: { type?: string },
  page: PageRequest,
): Promise<PageRow[]> {
  const view = { gatePrices: ctx.principal.readOnly };
  return listEventRows(ctx.db, ctx.principal.galleryId, view, filters, page);
}
