import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, galleryId, ts, updatedAt } from "./columns";
import { galleries } from "./galleries";

/**
 * The outbox: one row per domain event, written in the same transaction as the change it describes.
 * `GET /gallery/events` reads it and the cron Worker fans it out to webhook endpoints.
 */
export const domainEvents = pgTable(
  "domain_events",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    livemode: boolean("livemode").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Who caused it: api_key / session id, for audit. */
    actorId: text("actor_id"),
    requestId: text("request_id"),
    /**
     * The instant the write recorded its first event (event_clock(), migration 0018), not the transaction's start:
     * a write records its events after its change has taken the resource's row lock, so the events of one resource
     * are in the order their writes committed and a receiver can order them by created_at; the events of one write
     * share the instant.
     */
    createdAt: ts("created_at").notNull().default(sql`event_clock()`),
  },
  (t) => [
    index("domain_events_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("domain_events_gallery_type_created_idx").on(t.galleryId, t.type, t.createdAt, t.id),
    // The retention purge walks the oldest events of the whole platform.
    index("domain_events_created_idx").on(t.createdAt),
  ],
);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    /** Event types or wildcards such as `artwork.*`; `*` for all. */
    eventTypes: text("event_types").array().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    secret: text("secret").notNull(),
    /** The secret being rotated out keeps signing until previous_secret_expires_at. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    disabledReason: text("disabled_reason"),
    failingSince: ts("failing_since"),
    /**
     * Dispatch state (never shown): the ticket out for this endpoint on the webhook Queue, if any, fenced by
     * its token until it expires; an endpoint has at most one ticket at a time (its concurrency limit), and none
     * while it is backed off after a ticket that timed out or failed throughout (services/webhooks/dispatch.ts).
     */
    dispatchToken: text("dispatch_token"),
    dispatchExpiresAt: ts("dispatch_expires_at"),
    backoffUntil: ts("backoff_until"),
    /** Tickets in a row that were cut short by failures: the backoff doubles with each. */
    backoffStreak: integer("backoff_streak").notNull().default(0),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_gallery_created_idx").on(t.galleryId, t.createdAt, t.id)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => domainEvents.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "succeeded", "failed", "abandoned"] })
      .notNull()
      .default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    leaseExpiresAt: ts("lease_expires_at"),
    lastStatusCode: integer("last_status_code"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    lastResponseBody: text("last_response_body"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // An endpoint's due deliveries, oldest first (ties in event order, as GET /gallery/events?dir=asc lists them):
    // what a ticket claims, and the drain's probe per endpoint.
    index("webhook_deliveries_endpoint_due_idx")
      .on(t.endpointId, t.nextAttemptAt, t.eventId)
      .where(sql`status = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.galleryId, t.endpointId, t.createdAt, t.id),
    // One delivery per (event, endpoint): a replay re-queues that row instead of adding a second one.
    uniqueIndex("webhook_deliveries_event_endpoint_key").on(t.eventId, t.endpointId),
  ],
);

/** Individual HTTP attempts of a delivery, for the deliveries listing. */
export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms"),
    error: text("error"),
    responseBody: text("response_body"),
    attemptedAt: ts("attempted_at").notNull(),
  },
  (t) => [index("webhook_delivery_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);

/**
 * Idempotency claims: one row per (gallery, key), inserted in the same transaction as the write it guards and
 * holding the finished response for replay. Purged after 14 days.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    galleryId: galleryId(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    responseStatus: integer("response_status").notNull(),
    /** The response body exactly as it was sent, so a replay is byte for byte the same. */
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "idempotency_keys_pkey", columns: [t.galleryId, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
