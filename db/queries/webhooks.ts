import { type SQL, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Principal } from "../../lib/principal";
import { WebhookEndpoint, type WebhookEndpointUpdateInput } from "../../lib/schemas/webhooks";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { webhookEndpoints } from "../schema";
import { keysetPage } from "./keyset";
import { insertRow, setList } from "./rows";

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

/** SQL yielding one endpoint's jsonb (null when absent), for reads and write responses. */
export function endpointJsonById(galleryId: string, id: string): SQL {
  return sql`select ${endpointJson} from webhook_endpoints w where w.gallery_id = ${galleryId} and w.id = ${id}`;
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
    sql`select ${endpointJson} as body, w.enabled, iso_ms(w.updated_at) as updated_at
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

export interface NewEndpoint {
  id: string;
  url: string;
  description?: string | null;
  event_types: readonly string[];
  enabled: boolean;
  metadata?: Record<string, string>;
  secret: string;
}

export function createEndpointStatement(galleryId: string, endpoint: NewEndpoint, at: string): SQL {
  return insertRow("webhook_endpoints", {
    ...endpoint,
    gallery_id: galleryId,
    created_at: at,
    updated_at: at,
  });
}

/**
 * The UPDATE for `guarded()`: matches only the row as it was read. Re-enabling clears what the delivery worker
 * recorded when it disabled the endpoint.
 */
export function updateEndpointStatement(
  galleryId: string,
  id: string,
  input: WebhookEndpointUpdateInput,
  reenable: boolean,
  readUpdatedAt: string,
  at: string,
): SQL {
  const cleared = reenable ? { disabled_reason: null, failing_since: null } : {};
  return sql`update webhook_endpoints set ${setList({ ...input, ...cleared, updated_at: at })}
    where gallery_id = ${galleryId} and id = ${id} and updated_at = ${readUpdatedAt}::timestamptz`;
}

/** The UPDATE for `guarded()`: the current secret becomes the previous one until `previousExpiresAt` (or is dropped). */
export function rotateSecretStatement(
  galleryId: string,
  id: string,
  secret: string,
  previousExpiresAt: string | null,
  readUpdatedAt: string,
  at: string,
): SQL {
  const previous = previousExpiresAt
    ? sql`previous_secret = secret, previous_secret_expires_at = ${previousExpiresAt}`
    : sql`previous_secret = null, previous_secret_expires_at = null`;
  return sql`update webhook_endpoints set ${previous}, secret = ${secret}, updated_at = ${at}
    where gallery_id = ${galleryId} and id = ${id} and updated_at = ${readUpdatedAt}::timestamptz`;
}

/** The DELETE for `guarded()`; deliveries and their attempts go with it (foreign-key cascade). */
export function deleteEndpointStatement(galleryId: string, id: string, readUpdatedAt: string): SQL {
  return sql`delete from webhook_endpoints
    where gallery_id = ${galleryId} and id = ${id} and updated_at = ${readUpdatedAt}::timestamptz`;
}

/**
 * A test event for one endpoint: the event row and its single delivery, written directly rather than through
 * the outbox writer: the fan-out trigger skips this type, which goes only to the endpoint under test.
 */
export function testEventStatements(
  principal: Principal,
  requestId: string,
  endpointId: string,
  ids: { eventId: string; deliveryId: string },
): SQL[] {
  return [
    sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data, actor_id, request_id)
      select ${ids.eventId}, w.gallery_id, 'webhook_endpoint.test', ${principal.livemode}, 'webhook_endpoint', w.id,
        jsonb_build_object('object', ${endpointJson}), ${principal.credentialId}, ${requestId}
      from webhook_endpoints w where w.gallery_id = ${principal.galleryId} and w.id = ${endpointId}`,
    sql`insert into webhook_deliveries (id, gallery_id, endpoint_id, event_id, next_attempt_at)
      values (${ids.deliveryId}, ${principal.galleryId}, ${endpointId}, ${ids.eventId}, now())`,
  ];
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
export const requeuedBody = sql`jsonb_build_object('requeued', current_setting(${REQUEUED})::int)`;

/** Whether the event exists in the gallery. */
export async function eventExists(db: Db, galleryId: string, eventId: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from domain_events where gallery_id = ${galleryId} and id = ${eventId}`,
  );
  return result.rows.length > 0;
}

const deliveryJson = sql`jsonb_build_object('id', d.id, 'endpoint_id', d.endpoint_id, 'event_id', d.event_id,
  'event_type', e.type, 'status', d.status, 'attempt_count', d.attempt_count,
  'next_attempt_at', case when d.status = 'pending' then iso_ms(d.next_attempt_at) end,
  'last_status_code', d.last_status_code, 'last_latency_ms', d.last_latency_ms, 'last_error', d.last_error,
  'attempts', coalesce((
    select jsonb_agg(jsonb_build_object('attempted_at', iso_ms(a.attempted_at), 'status_code', a.status_code,
      'latency_ms', a.latency_ms, 'error', a.error, 'response_body', a.response_body)
      order by a.attempted_at desc, a.id desc)
    from (select * from webhook_delivery_attempts a where a.delivery_id = d.id
      order by a.attempted_at desc, a.id desc limit 10) a), '[]'::jsonb),
  'created_at', iso_ms(d.created_at), 'updated_at', iso_ms(d.updated_at))`;

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
