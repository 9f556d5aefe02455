import { endpointResource, findWebhookEndpoint, updateEndpointStatement } from "../../db/queries/webhooks";
import type { EventReadScopes } from "../../lib/event-catalogue";
import { previousAttributes } from "../../lib/json";
import { WebhookEndpoint, type WebhookEndpointUpdateInput } from "../../lib/schemas/webhooks";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";
import { requireSubscriptionScopes } from "./subscription";
import { requireSafeWebhookUrl } from "./url";

/**
 * Changes only the fields sent; new event types, a new URL or re-enabling take the read scopes of every type the
 * endpoint is then subscribed to. A new URL is checked to be safe to call. Re-enabling a disabled endpoint clears
 * `disabled_reason` and `failing_since`. Records `webhook_endpoint.updated` with `previous_attributes`; a patch
 * that changes nothing writes nothing and records nothing.
 */
export async function updateWebhookEndpoint(
  ctx: ServiceContext,
  id: string,
  input: WebhookEndpointUpdateInput,
  readScopes: EventReadScopes,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findWebhookEndpoint(db, galleryId, id);
  return writeExisting(ctx, current, `No webhook endpoint ${id} in this gallery.`, async (found, at) => {
    const before = found.body;
    // A new URL or re-enabling points the whole subscription somewhere, as new event types do.
    if (input.event_types !== undefined || input.url !== undefined || input.enabled === true) {
      requireSubscriptionScopes(principal, readScopes, input.event_types ?? (before.event_types as string[]));
    }
    const previous = previousAttributes(before, input);
    const reenable = input.enabled === true && !found.enabled;
    if (reenable) {
      for (const field of ["disabled_reason", "failing_since"]) {
        if (before[field] !== null) previous[field] = before[field];
      }
    }
    if ("url" in previous && input.url !== undefined) {
      await requireSafeWebhookUrl(input.url, { environment: ctx.env.ENVIRONMENT });
    }
    return updatePlan({
      schema: WebhookEndpoint,
      type: "webhook_endpoint.updated",
      resourceType: "webhook_endpoint",
      id,
      object: endpointResource.jsonById(galleryId, id, {}),
      previous,
      statements: [guarded(updateEndpointStatement(db, galleryId, id, input, reenable, found.updatedAt, at))],
    });
  });
}
