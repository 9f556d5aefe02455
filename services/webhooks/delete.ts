import { deleteAsRead } from "../../db/queries/rows";
import { findWebhookEndpoint } from "../../db/queries/webhooks";
import { webhookEndpoints } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/**
 * Deletes the endpoint with its deliveries and their attempts; `webhook_endpoint.deleted` carries its last
 * state.
 */
export async function deleteWebhookEndpoint(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const current = await findWebhookEndpoint(db, principal.galleryId, id);
  return writeExisting(ctx, current, `No webhook endpoint ${id} in this gallery.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(webhookEndpoints, principal.galleryId, id, found.updatedAt))],
    events: [changeEvent("webhook_endpoint.deleted", "webhook_endpoint", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
