import type { z } from "zod";
import { nextTimestamp } from "../../db/queries/rows";
import {
  eventExists,
  findWebhookEndpoint,
  requeuedBody,
  requeueEventStatement,
  requeueFailedStatement,
} from "../../db/queries/webhooks";
import { ApiError } from "../../lib/problem";
import { WebhookReplayResult } from "../../lib/schemas/webhooks";
import type { ServiceContext } from "../context";
import { executeWrite, notFoundUnlessReplay } from "../write";

/**
 * Queues deliveries to the endpoint to be sent now: one event's (created or put back to pending), or every
 * delivery that failed for good since a time. A disabled endpoint is refused.
 */
export async function replayWebhookDeliveries(
  ctx: ServiceContext,
  id: string,
  input: { event_id?: string; failed_since?: string },
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const [current, eventFound] = await Promise.all([
    findWebhookEndpoint(db, galleryId, id),
    input.event_id ? eventExists(db, galleryId, input.event_id) : true,
  ]);
  if (!current)
    return notFoundUnlessReplay<z.output<typeof WebhookReplayResult>, 202>(
      ctx,
      `No webhook endpoint ${id} in this gallery.`,
    );
  if (!eventFound) throw new ApiError("not_found", `No event ${input.event_id} in this gallery.`);
  if (!current.enabled) {
    throw new ApiError("conflict", `Webhook endpoint ${id} is disabled; enable it before replaying.`);
  }
  const at = nextTimestamp();
  // The schema admits exactly one of the two.
  const requeue =
    input.event_id !== undefined
      ? requeueEventStatement(galleryId, id, input.event_id, at)
      : requeueFailedStatement(galleryId, id, input.failed_since!, at);
  return executeWrite(ctx, {
    schema: WebhookReplayResult,
    statements: [requeue],
    events: [],
    status: 202,
    body: requeuedBody,
  });
}
