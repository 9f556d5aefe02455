import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { eventJson } from "./events";
import { endpointJson } from "./webhooks";

/**
 * The cron Worker's statements: claim due deliveries under a lease, record what the sends came to, purge expired
 * rows. `clock` is the time they run at: the database's `now()`, or a fixed instant (tests drive time with it).
 */
export function clockSql(now: Date | undefined): SQL {
  return now ? sql`${now.toISOString()}::timestamptz` : sql`now()`;
}

export interface ClaimedDelivery {
  id: string;
  galleryId: string;
  endpointId: string;
  eventId: string;
  /** Attempts made before this one. */
  attemptCount: number;
  /** The lease this claim holds (ISO, ms): the fence that recording the outcome must still find. */
  lease: string;
  url: string;
  /** False when the endpoint was disabled after the delivery was queued: it is abandoned unsent. */
  enabled: boolean;
  /**
   * The current secret, then the previous one while its rotation window is open, as stored: sealed (see
   * services/webhooks/secret.ts), opened by the sender just before signing.
   */
  secrets: string[];
  /** The event exactly as `GET /gallery/events/{id}` returns it. */
  payload: Record<string, unknown>;
}

export interface Claim {
  /** The clock the claim ran at (ISO, ms). */
  now: string;
  deliveries: ClaimedDelivery[];
}

/**
 * ONE statement: locks up to `limit` due, unleased pending deliveries (skipping rows another drain has locked),
 * stamps a lease on them and returns each with its endpoint and event payload. The lease is a timestamp, not a
 * held lock: the transaction ends here, and until the lease expires no other claim can pick the row.
 */
export async function claimDueDeliveries(
  db: Db,
  opts: { now?: Date; limit: number; leaseMs: number; galleryId?: string },
): Promise<Claim> {
  const clock = clockSql(opts.now);
  const scope = opts.galleryId === undefined ? sql`` : sql`and d.gallery_id = ${opts.galleryId}`;
  const result = await db.execute<{
    id: string;
    gallery_id: string;
    endpoint_id: string;
    event_id: string;
    attempt_count: number;
    lease: string;
    now: string;
    url: string;
    enabled: boolean;
    secret: string;
    previous_secret: string | null;
    payload: Record<string, unknown>;
  }>(sql`with due as materialized (
      select d.id from webhook_deliveries d
      where d.status = 'pending' and d.next_attempt_at <= ${clock}
        and (d.lease_expires_at is null or d.lease_expires_at < ${clock}) ${scope}
      order by d.next_attempt_at
      limit ${opts.limit}
      for update skip locked
    ), claimed as (
      update webhook_deliveries d set lease_expires_at = ${clock} + (${opts.leaseMs})::float8 * interval '1 millisecond'
      from due where d.id = due.id
      returning d.id, d.gallery_id, d.endpoint_id, d.event_id, d.attempt_count, d.lease_expires_at, d.next_attempt_at
    )
    select c.id, c.gallery_id, c.endpoint_id, c.event_id, c.attempt_count, iso_ms(c.lease_expires_at) as lease,
      iso_ms(${clock}) as now, w.url, w.enabled, w.secret,
      case when w.previous_secret_expires_at > ${clock} then w.previous_secret end as previous_secret,
      ${eventJson} as payload
    from claimed c
      join webhook_endpoints w on w.id = c.endpoint_id
      join domain_events e on e.id = c.event_id
    order by c.next_attempt_at, c.id`);
  const now = result.rows[0]?.now ?? (opts.now ?? new Date()).toISOString();
  return {
    now,
    deliveries: result.rows.map((r) => ({
      id: r.id,
      galleryId: r.gallery_id,
      endpointId: r.endpoint_id,
      eventId: r.event_id,
      attemptCount: Number(r.attempt_count),
      lease: r.lease,
      url: r.url,
      enabled: r.enabled,
      secrets: r.previous_secret ? [r.secret, r.previous_secret] : [r.secret],
      payload: r.payload,
    })),
  };
}

export interface DeliveryOutcome {
  id: string;
  lease: string;
  status: "succeeded" | "pending" | "failed" | "abandoned";
  /** For `pending`: when to try again; null keeps the current time (a delivery released unsent). */
  nextAttemptAt: string | null;
  /** The HTTP attempt, when one was made (a delivery abandoned unsent has none). */
  attempt: {
    attemptedAt: string;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
    responseBody: string | null;
  } | null;
}

export interface EndpointOutcome {
  id: string;
  /** The endpoint's latest answer in this tick was a 2xx. */
  ok: boolean;
  /** It answered 410 Gone. */
  gone: boolean;
  /** When the request that got that answer was made (ISO): the start of a run of failures. */
  at: string;
}

/** Failing this long without a single success disables an endpoint. */
const FAILING_DISABLES_AFTER = sql.raw(`interval '5 days'`);

/**
 * Everything one tick learnt, as one batch (one transaction, one round trip), idempotent so that it can be
 * retried:
 * 1. each delivery's new state and its attempt row, only where the claim's lease still stands (a drain whose lease
 *    ran out, or whose delivery was abandoned meanwhile, changes nothing);
 * 2. each endpoint's failing_since: cleared by a success, set by the first failure after one;
 * 3. endpoints that answered 410 or have been failing for 5 days are disabled, with a `webhook_endpoint.disabled`
 *    event (fanned out by the domain_events trigger, which no longer sees them enabled), and their pending
 *    deliveries abandoned.
 */
export async function recordOutcomes(
  db: Db,
  deliveries: DeliveryOutcome[],
  endpoints: EndpointOutcome[],
): Promise<void> {
  const rows = deliveries.map((d) => ({
    id: d.id,
    lease: d.lease,
    status: d.status,
    next_attempt_at: d.nextAttemptAt,
    attempted: d.attempt !== null,
    attempted_at: d.attempt?.attemptedAt ?? null,
    status_code: d.attempt?.statusCode ?? null,
    latency_ms: d.attempt?.latencyMs ?? null,
    error: d.attempt?.error ?? null,
    response_body: d.attempt?.responseBody ?? null,
  }));
  const endpointRows = sql`jsonb_to_recordset(${JSON.stringify(endpoints)}::jsonb)
    as o(id text, ok boolean, gone boolean, at timestamptz)`;
  await db.batch([
    db.execute(sql`with x as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, lease timestamptz, status text,
          next_attempt_at timestamptz, attempted boolean, attempted_at timestamptz, status_code integer,
          latency_ms integer, error text, response_body text)
      ), updated as (
        update webhook_deliveries d set status = x.status,
          next_attempt_at = case when x.status = 'pending' then coalesce(x.next_attempt_at, d.next_attempt_at) end,
          lease_expires_at = null,
          attempt_count = d.attempt_count + (case when x.attempted then 1 else 0 end),
          last_status_code = case when x.attempted then x.status_code else d.last_status_code end,
          last_latency_ms = case when x.attempted then x.latency_ms else d.last_latency_ms end,
          last_error = case when x.attempted then x.error else d.last_error end,
          last_response_body = case when x.attempted then x.response_body else d.last_response_body end,
          updated_at = now()
        from x where d.id = x.id and d.lease_expires_at = x.lease
        returning d.id, d.gallery_id
      )
      insert into webhook_delivery_attempts
        (id, gallery_id, delivery_id, status_code, latency_ms, error, response_body, attempted_at)
      select new_id('wda'), u.gallery_id, x.id, x.status_code, x.latency_ms, x.error, x.response_body, x.attempted_at
      from updated u join x on x.id = u.id
      where x.attempted`),
    db.execute(sql`update webhook_endpoints w
      set failing_since = case when o.ok then null else coalesce(w.failing_since, o.at) end
      from ${endpointRows}
      where w.id = o.id and w.enabled and (case when o.ok then w.failing_since is not null else w.failing_since is null end)`),
    db.execute(sql`with disabled as (
        update webhook_endpoints w
        set enabled = false, disabled_reason = case when o.gone then 'gone' else 'failing' end, updated_at = now()
        from ${endpointRows}
        where w.id = o.id and w.enabled
          and (o.gone or (not o.ok and w.failing_since <= o.at - ${FAILING_DISABLES_AFTER}))
        returning w.id, w.gallery_id, ${endpointJson} as object
      ), event as (
        insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
        select new_id('evt'), d.gallery_id, 'webhook_endpoint.disabled', g.livemode, 'webhook_endpoint', d.id,
          jsonb_build_object('object', d.object)
        from disabled d join galleries g on g.id = d.gallery_id
        returning id
      )
      update webhook_deliveries d
      set status = 'abandoned', next_attempt_at = null, lease_expires_at = null, updated_at = now()
      from disabled where d.endpoint_id = disabled.id and d.status = 'pending'`),
  ]);
}

/** Rows purged per table and tick: a backlog shrinks over a few ticks instead of in one long transaction. */
const PURGE_BATCH = 5000;

/**
 * Idempotency claims older than 14 days and expired upload tokens (used ones go too once their short lifetime
 * ends; until then a reused token is still recognised as used). One batch.
 */
export async function purgeExpired(
  db: Db,
  opts: { now?: Date; galleryId?: string },
): Promise<{ idempotencyKeys: number; uploadTokens: number }> {
  const clock = clockSql(opts.now);
  const scope = opts.galleryId === undefined ? sql`` : sql`and gallery_id = ${opts.galleryId}`;
  const [keys, tokens] = await db.batch([
    db.execute<{ n: number }>(sql`with gone as (
        delete from idempotency_keys where (gallery_id, key) in (
          select gallery_id, key from idempotency_keys
          where created_at < ${clock} - interval '14 days' ${scope} limit ${PURGE_BATCH})
        returning 1)
      select count(*)::int as n from gone`),
    db.execute<{ n: number }>(sql`with gone as (
        delete from upload_tokens where id in (
          select id from upload_tokens where expires_at < ${clock} ${scope} limit ${PURGE_BATCH})
        returning 1)
      select count(*)::int as n from gone`),
  ]);
  return {
    idempotencyKeys: Number(keys.rows[0]?.n ?? 0),
    uploadTokens: Number(tokens.rows[0]?.n ?? 0),
  };
}
