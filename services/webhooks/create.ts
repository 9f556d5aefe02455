import { sql } from "drizzle-orm";
import { nextTimestamp } from "../../db/queries/rows";
import { createEndpointStatement, endpointResource } from "../../db/queries/webhooks";
import type { EventReadScopes } from "../../lib/event-catalogue";
import { newId } from "../../lib/ids";
import { type WebhookEndpointCreateInput, WebhookEndpointWithSecret } from "../../lib/schemas/webhooks";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, revealOnce } from "../write";
import { newWebhookSecret, sealWebhookSecret } from "./secret";
import { requireSubscriptionScopes } from "./subscription";
import { requireSafeWebhookUrl } from "./url";

/**
 * Subscribes a URL (checked to be safe to call) to event types whose objects the caller may read; records
 * `webhook_endpoint.created`. The response shows the new signing secret once: what is stored for replays holds
 * null.
 */
export async function createWebhookEndpoint(
  ctx: ServiceContext,
  input: WebhookEndpointCreateInput,
  readScopes: EventReadScopes,
) {
  const { db, principal } = ctx;
  requireSubscriptionScopes(principal, readScopes, input.event_types);
  await requireSafeWebhookUrl(input.url, { environment: ctx.env.ENVIRONMENT });
  const id = newId("we");
  const secret = newWebhookSecret();
  const sealed = await sealWebhookSecret(ctx.env, id, secret);
  const object = endpointResource.jsonById(principal.galleryId, id, {});
  const written = await executeWrite(ctx, {
    schema: WebhookEndpointWithSecret,
    statements: [createEndpointStatement(db, principal.galleryId, id, input, sealed, nextTimestamp())],
    events: [changeEvent("webhook_endpoint.created", "webhook_endpoint", id, object)],
    status: 201,
    body: sql`(${object})::jsonb || jsonb_build_object('secret', null::text)`,
  });
  return revealOnce(written, "secret", secret);
}
