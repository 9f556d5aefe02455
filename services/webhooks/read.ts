import {
  endpointExists,
  endpointResource,
  listDeliveries,
  listWebhookEndpoints as listEndpointRows,
} from "../../db/queries/webhooks";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

/** One endpoint as JSON text; never its secret. */
export async function getWebhookEndpoint(ctx: ServiceContext, id: string): Promise<string> {
  const text = await endpointResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No webhook endpoint ${id} in this gallery.`);
  return text;
}

/** One page (limit + 1 rows) of the gallery's endpoints. */
export function listWebhookEndpoints(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listEndpointRows(ctx.db, ctx.principal.galleryId, page);
}

/** One page (limit + 1 rows) of an endpoint's deliveries; a missing endpoint is a 404, not an empty page. */
export async function listWebhookDeliveries(
  ctx: ServiceContext,
  id: string,
  filters: { status?: string },
  page: PageRequest,
): Promise<PageRow[]> {
  const galleryId = ctx.principal.galleryId;
  // Both in parallel: an empty page alone cannot tell a quiet endpoint from a missing one.
  const [exists, rows] = await Promise.all([
    endpointExists(ctx.db, galleryId, id),
    listDeliveries(ctx.db, galleryId, id, filters, page),
  ]);
  if (!exists) throw new ApiError("not_found", `No webhook endpoint ${id} in this gallery.`);
  return rows;
}
