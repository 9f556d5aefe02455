import { z } from "@hono/zod-openapi";
import type { EventType } from "../../lib/event-types";
import { eventTypes } from "../../lib/event-types";
import { ApiKey } from "../../lib/schemas/api-keys";
import { Artwork } from "../../lib/schemas/artworks";
import { Member } from "../../lib/schemas/members";
import { WebhookEndpoint } from "../../lib/schemas/webhooks";

interface CatalogueEntry {
  resourceType: string;
  /** Schema of `data.object`. */
  object: z.ZodType;
  /** Whether `data.previous_attributes` is present (updates). */
  previousAttributes: boolean;
}

/**
 * What each event type carries. Typed by the event-type list, so a new type cannot be emitted without saying
 * here what its `data` holds; the catalogue endpoint and the OpenAPI `webhooks` section are generated from it.
 */
export const eventCatalogue: Record<EventType, CatalogueEntry> = {
  "artwork.created": { resourceType: "artwork", object: Artwork, previousAttributes: false },
  "artwork.updated": { resourceType: "artwork", object: Artwork, previousAttributes: true },
  "artwork.price_changed": { resourceType: "artwork", object: Artwork, previousAttributes: true },
  "artwork.deleted": { resourceType: "artwork", object: Artwork, previousAttributes: false },
  "api_key.created": { resourceType: "api_key", object: ApiKey, previousAttributes: false },
  "api_key.revoked": { resourceType: "api_key", object: ApiKey, previousAttributes: false },
  "member.updated": { resourceType: "member", object: Member, previousAttributes: true },
  "webhook_endpoint.created": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
  "webhook_endpoint.updated": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: true,
  },
  "webhook_endpoint.deleted": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
  "webhook_endpoint.disabled": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
  "webhook_endpoint.secret_rotated": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
  "webhook_endpoint.test": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
};

/** The `data` schema of one event type. */
export function eventDataSchema(type: EventType) {
  const entry = eventCatalogue[type];
  return entry.previousAttributes
    ? z.object({
        object: entry.object,
        previous_attributes: z
          .record(z.string(), z.unknown())
          .openapi({ description: "The former values of the fields that changed." }),
      })
    : z.object({ object: entry.object });
}

/** The full event (as delivered and as `GET /gallery/events/{id}` returns it) for one type. */
export function eventEnvelopeSchema(type: EventType) {
  return z.object({
    id: z.string(),
    type: z.literal(type),
    livemode: z.boolean(),
    resource_type: z.literal(eventCatalogue[type].resourceType),
    resource_id: z.string(),
    data: eventDataSchema(type),
    created_at: z.string(),
  });
}

export const catalogueTypes = Object.keys(eventTypes) as EventType[];
