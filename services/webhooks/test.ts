import { findWebhookEndpoint, testEventBody, testEventStatements } from "../../db/queries/webhooks";
import { newId } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import { WebhookTestResult } from "../../lib/schemas/webhooks";
import type { ServiceContext } from "../context";
import { writeExisting } from "../write";

/**
 * Records a `webhook_endpoint.test` event about the endpoint and queues its delivery to this endpoint only. A
 * disabled endpoint is refused.
 */
export async function sendWebhookTest(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const current = await findWebhookEndpoint(db, principal.galleryId, id);
  return writeExisting(ctx, current, `No webhook endpoint ${id} in this gallery.`, (found) => {
    if (!found.enabled) {
      throw new ApiError("conflict", `Webhook endpoint ${id} is disabled; enable it to send a test event.`);
    }
    const ids = { eventId: newId("evt"), deliveryId: newId("wd") };
    return {
      schema: WebhookTestResult,
      statements: testEventStatements(db, principal, ctx.requestId, id, ids),
      events: [],
      status: 202 as const,
      body: testEventBody(ids),
    };
  });
}
