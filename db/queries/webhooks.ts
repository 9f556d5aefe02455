import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Principal } from "../../lib/principal";
import {
  DeliveryAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  type WebhookEndpointCreateInput,
  type WebhookEndpointUpdateInput,
} from "../../lib/schemas/webhooks";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "../schema";
import { keysetPage } from "./keyset";
import { asRead } from "./rows";

/** The API representation of an endpoint (alias `w`): never a secret. */
export const endpointResource = resource({
  schema: WebhookEndpoint,
  table: webhookEndpoints,
  alias: "w",
  computed: {
    previous_secret_expires_at: () =>
      sql`case when w.previous_secret is not null then ${isoMs(sql`w.previous_secret_expires_at`)} end`,
  },
});
export const endpointJson = endpointResource.json({});

/** Whether the endpoint exists in the gallery. */
export async function endpointExists(db: Db, galleryId: string, id: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from webhook_endpoints where gallery_id = ${galleryId} and id = ${id}`,
  );
  return result.rows.length > 0;
}

export interface EndpointState {
  body: Record<string, unknown>;
  enabled: boolean;
  updatedAt: string;
}

/** One endpoint of the gallery with what a guarded write needs, or null. One round trip. */
export async function findWebhookEndpoint(
  db: Db,
  galleryId: string,
  id: string,
): Promise<EndpointState | null> {
  const result = await db.execute<{ body: Record<string, unknown>; enabled: boolean; updated_at: string }>(
    sql`select ${endpointJson} as body, w.enabled, ${isoMs(sql`w.updated_at`)} as updated_at
      from webhook_endpoints w where w.gallery_id = ${galleryId} and w.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, enabled: row.enabled, updatedAt: row.updated_at } : null;
}

/** One page (limit + 1 rows) of the gallery's endpoints, keyset on (created_at, id). */
export function listWebhookEndpoints(db: Db, galleryId: string, page: PageRequest): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: endpointJson,
      from: sql`webhook_endpoints w`,
      where: [sql`w.gallery_id = ${galleryId}`],
      sortKey: sql`w.created_at`,
      cast: "timestamptz",
      id: sql`w.id`,
    },
    page,
  );
}

/**
 * Statements that write endpoints. They are composed into one transaction by services/write.ts; none of them
 * runs on its own.
 */

export function createEndpointStatement(
  db: Db,
  galleryId: string,
  id: string,
  input: WebhookEndpointCreateInput,
  secret: string,
  at: string,
): SQLWrapper {
  return db.insert(webhookEndpoints).values(
    endpointResource.row({
      ...input,
      id,
      secret,
      gallery_id: galleryId,
      created_at: at,
      updated_at: at,
    }),
  );
}

/**
 * The UPDATE for `guarded()`: matches only the row as it was read. Re-enabling clears what the delivery worker
 * recorded when it disabled the endpoint.
 */
export function updateEndpointStatement(
  db: Db,
  galleryId: string,
  id: string,
  input: WebhookEndpointUpdateInput,
  reenable: boolean,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const cleared = reenable ? { disabled_reason: null, failing_since: null } : {};
  return db
    .update(webhookEndpoints)
    .set(endpointResource.row({ ...input, ...cleared, updated_at: at }))
    .where(asRead(webhookEndpoints, galleryId, id, readUpdatedAt));
}

/** The UPDATE for `guarded()`: the current secret becomes the previous one until `previousExpiresAt` (or is dropped). */
export function rotateSecretStatement(
  db: Db,
  galleryId: string,
  id: string,
  secret: string,
  previousExpiresAt: string | null,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  return db
    .update(webhookEndpoints)
    .set({
      // Every right-hand side of an UPDATE reads the row as it was: this is the secret being replaced.
      previousSecret: previousExpiresAt ? sql`${webhookEndpoints.secret}` : null,
      ...endpointResource.row({ previous_secret_expires_at: previousExpiresAt, secret, updated_at: at }),
    })
    .where(asRead(webhookEndpoints, galleryId, id, readUpdatedAt));
}

/**
 * A test event for one endpoint: the event row and its single delivery, written directly rather than through
 * the outbox writer: the fan-out trigger skips this type, which goes only to the endpoint under test.
 */
export function testEventStatements(
  db: Db,
  principal: Principal,
  requestId: string,
  endpointId: string,
  ids: { eventId: string; deliveryId: string },
): SQLWrapper[] {
  return [
    sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data, actor_id, request_id)
      select ${ids.eventId}, w.gallery_id, 'webhook_endpoint.test', ${principal.livemode}, 'webhook_endpoint', w.id,
        jsonb_build_object('object', ${endpointJson}), ${principal.credentialId}, ${requestId}
      from webhook_endpoints w where w.gallery_id = ${principal.galleryId} and w.id = ${endpointId}`,
    db.insert(webhookDeliveries).values({
      id: ids.deliveryId,
      galleryId: principal.galleryId,
      endpointId,
      eventId: ids.eventId,
      nextAttemptAt: sql`now()`,
    }),
  ];
}

/** The response of a test event: the ids of the event and its delivery. */
export function testEventBody(ids: { eventId: string; deliveryId: string }): SQL {
  return sql`json_build_object('delivery_id', ${ids.deliveryId}::text, 'event_id', ${ids.eventId}::text)`;
}

/** Session-local counter that carries a statement's row count to the response SQL of the same transaction. */
const REQUEUED = "gallery.requeued";

/**
 * Queues the event's delivery to the endpoint now: creates it, or puts the existing one back to pending (its
 * retry schedule starts afresh; earlier attempts stay listed). The event must belong to the gallery.
 */
export function requeueEventStatement(
  galleryId: string,
  endpointId: string,
  eventId: string,
  at: string,
): SQL {
  return sql`with requeued as (
      insert into webhook_deliveries (id, gallery_id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
      select new_id('wd'), e.gallery_id, ${endpointId}, e.id, 'pending', now(), ${at}, ${at}
      from domain_events e where e.gallery_id = ${galleryId} and e.id = ${eventId}
      on conflict (event_id, endpoint_id) do update
        set status = 'pending', next_attempt_at = now(), attempt_count = 0, updated_at = excluded.updated_at
      returning 1
    )
    select set_config(${REQUEUED}, count(*)::text, true) from requeued`;
}

/** Puts every delivery to the endpoint that failed for good, created at or after `since`, back to pending. */
export function requeueFailedStatement(
  galleryId: string,
  endpointId: string,
  since: string,
  at: string,
): SQL {
  return sql`with requeued as (
      update webhook_deliveries set status = 'pending', next_attempt_at = now(), attempt_count = 0, updated_at = ${at}
      where gallery_id = ${galleryId} and endpoint_id = ${endpointId}
        and status in ('failed', 'abandoned') and created_at >= ${since}::timestamptz
      returning 1
    )
    select set_config(${REQUEUED}, count(*)::text, true) from requeued`;
}

/** The response of a replay: how many deliveries the requeue statement touched. */
export const requeuedBody = sql`json_build_object('requeued', current_setting(${REQUEUED})::int)`;

/** Whether the event exists in the gallery. */
export async function eventExists(db: Db, galleryId: string, eventId: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from domain_events where gallery_id = ${galleryId} and id = ${eventId}`,
  );
  return result.rows.length > 0;
}

/** One attempt of a delivery (alias `a`). */
const attemptResource = resource({
  schema: DeliveryAttempt,
  table: webhookDeliveryAttempts,
  alias: "a",
});

/** A delivery (alias `d`, joined to its event `e`) with its last 10 attempts, newest first. */
const deliveryResource = resource({
  schema: WebhookDelivery,
  table: webhookDeliveries,
  alias: "d",
  computed: {
    event_type: () => sql`e.type`,
    next_attempt_at: () => sql`case when d.status = 'pending' then ${isoMs(sql`d.next_attempt_at`)} end`,
    attempts: () => sql`coalesce((
      select json_agg(${attemptResource.json({})} order by a.attempted_at desc, a.id desc)
      from (select * from webhook_delivery_attempts a where a.delivery_id = d.id
        order by a.attempted_at desc, a.id desc limit 10) a), '[]'::json)`,
  },
});
const deliveryJson = deliveryResource.json({});

/** One page (limit + 1 rows) of an endpoint's deliveries, keyset on (created_at, id). */
export function listDeliveries(
  db: Db,
  galleryId: string,
  endpointId: string,
  filters: { status?: string },
  page: PageRequest,
): Promise<PageRow[]> {
  const where: SQL[] = [sql`d.gallery_id = ${galleryId}`, sql`d.endpoint_id = ${endpointId}`];
  if (filters.status !== undefined) where.push(sql`d.status = ${filters.status}`);
  return keysetPage(
    db,
    {
      body: deliveryJson,
      from: sql`webhook_deliveries d join domain_events e on e.id = d.event_id`,
      where,
      sortKey: sql`d.created_at`,
      cast: "timestamptz",
      id: sql`d.id`,
    },
    page,
  );
}
