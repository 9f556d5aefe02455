import { z } from "@hono/zod-openapi";

/**
 * The catalogue of domain event types (`<resource>.<past-tense verb>`). Each entry says when it is emitted;
 * the `data` of every event is `{ object }` (the resource after the change) plus, for updates,
 * `previous_attributes` (the changed fields' former values).
 */
export const eventTypes = {
  "artwork.created": "An artwork was created.",
  "artwork.updated": "An artwork's fields changed. `data.previous_attributes` holds the former values.",
  "artwork.price_changed": "An artwork's price_cents or currency changed (emitted beside artwork.updated).",
  "artwork.deleted": "An artwork was deleted. `data.object` is its last state.",
  "api_key.created":
    "A secret API key or publishable token was created. `data.object` is the key without its secret.",
  "api_key.revoked": "An API key or publishable token was revoked. `data.object` is the revoked key.",
  "member.updated":
    "A member's role changed, or it was disabled or re-enabled. `data.previous_attributes` holds the former values.",
  "webhook_endpoint.created":
    "A webhook endpoint was created. `data.object` is the endpoint; secrets never appear in events.",
  "webhook_endpoint.updated":
    "A webhook endpoint's fields changed. `data.previous_attributes` holds the former values.",
  "webhook_endpoint.deleted": "A webhook endpoint was deleted. `data.object` is its last state.",
  "webhook_endpoint.disabled":
    "The platform disabled a webhook endpoint: it answered 410 Gone, or its deliveries failed continuously for 5 days. `data.object.disabled_reason` says which.",
  "webhook_endpoint.secret_rotated":
    "A webhook endpoint's signing secret was rotated. `data.object.previous_secret_expires_at` is when the former secret stops signing.",
  "webhook_endpoint.test":
    "Sent by POST /gallery/webhook-endpoints/{id}/test to that one endpoint only, whatever its event_types; never fanned out to other endpoints. `data.object` is the endpoint.",
} as const;

export type EventType = keyof typeof eventTypes;

export const EventTypeSchema = z
  .enum(Object.keys(eventTypes) as [EventType, ...EventType[]])
  .openapi("EventType", {
    description: Object.entries(eventTypes)
      .map(([type, when]) => `- \`${type}\`: ${when}`)
      .join("\n"),
  });
