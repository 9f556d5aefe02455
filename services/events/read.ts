import { eventText, listEvents as listEventRows } from "../../db/queries/events";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One domain event of the gallery as JSON text: byte for byte what the list and a webhook delivery carry. */
export async function getEvent(ctx: ServiceContext, id: string): Promise<string> {
  const text = await eventText(ctx.db, ctx.principal.galleryId, id);
  if (text === null) throw new ApiError("not_found", `No event ${id} in this gallery.`);
  return text;
}

export function listEvents(
  ctx: ServiceContext,
  filters: { type?: string },
  page: PageRequest,
): Promise<PageRow[]> {
  return listEventRows(ctx.db, ctx.principal.galleryId, filters, page);
}
