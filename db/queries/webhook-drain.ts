import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { eventJson } from "./events";
import { textArray } from "./rows";
import { endpointJson } from "./webhooks";

/**
 * Webhook delivery's statements: the drain issues tickets (one per endpoint with due deliveries), a ticket claims
 * its endpoint's due deliveries under a lease, its outcome is recorded and the ticket settled; expired rows are
 * purged. `clock` is the time they run at: the database's `now()`, or a fixed instant (tests drive time with it).
 */
export function clockSql(now: Date | undefined): SQL {
  return now ? sql`${now.toISOString()}::timestamptz` : sql`now()`;
}

/** A ticket the drain issued: one endpoint's turn on the webhook Queue, fenced by its token. */
export interface IssuedTicket {
  galleryId: string;
  endpointId: string;
  token: string;
}

/**
 * The drain's ONE statement: every endpoint with a due, unleased pending delivery, no ticket out and no backoff
 * running gets a ticket: a fresh token and a lease on the endpoint row. Fair: endpoints are taken in turns across
 * galleries (each gallery's oldest-due endpoint first, then each gallery's second, …), so a gallery with many busy
 * endpoints cannot crowd out another's one; within a turn, the oldest due delivery first. At most `limit`.
 * Re-checked under the row lock, so two drains at once never issue two tickets for one endpoint.
 */
export async function claimTickets(db: Db, opts: TicketsOptions): Promise<IssuedTicket[]> {
  const result = await db.execute<{ id: string; gallery_id: string; token: string }>(
    claimTicketsStatement(opts),
  );
  return result.rows.map((r) => ({ galleryId: r.gallery_id, endpointId: r.id, token: r.token }));
}

export interface TicketsOptions {
  now?: Date;
  limit: number;
  leaseMs: number;
  galleryIds?: string[];
}

/** The statement of claimTickets (its plan is checked in test/webhooks/dispatch-plan.test.ts). */
export function claimTicketsStatement(opts: TicketsOptions): SQL {
  const clock = clockSql(opts.now);
  const scope =
    opts.galleryIds === undefined ? sql`` : sql`and w.gallery_id = any(${textArray(opts.galleryIds)})`;
  const free = sql`(w.dispatch_expires_at is null or w.dispatch_expires_at < ${clock})
    and (w.backoff_until is null or w.backoff_until <= ${clock})`;
  return sql`with due as (
      select w.id, w.gallery_id, first.next_attempt_at as oldest
      from webhook_endpoints w
      cross join lateral (
        select d.next_attempt_at from webhook_deliveries d
        where d.endpoint_id = w.id and d.status = 'pending' and d.next_attempt_at <= ${clock}
          and (d.lease_expires_at is null or d.lease_expires_at < ${clock})
        order by d.next_attempt_at
        limit 1
      ) first
      where ${free} ${scope}
    ), picked as (
      select id from (
        select id, oldest, row_number() over (partition by gallery_id order by oldest, id) as turn from due
      ) turns
      order by turn, oldest, id
      limit ${opts.limit}
    )
    update webhook_endpoints w
    set dispatch_token = new_id('wdt'),
      dispatch_expires_at = ${clock} + (${opts.leaseMs})::float8 * interval '1 millisecond'
    from picked
    where w.id = picked.id and ${free}
    returning w.id, w.gallery_id, w.dispatch_token as token`;
}

export interface ClaimedDelivery {
  id: string;
  eventId: string;
  /** Attempts made before this one. */
  attemptCount: number;
  /** The lease this claim holds (ISO, ms): the fence that recording the outcome must still find. */
  lease: string;
  /** The event exactly as `GET /gallery/events/{id}` returns it. */
  payload: Record<string, unknown>;
}

/** What a ticket claimed: its endpoint, and up to `limit` of the endpoint's due deliveries, oldest first. */
export interface TicketClaim {
  /** The clock the claim ran at (ISO, ms). */
  now: string;
  galleryId: string;
  endpointId: string;
  /** The endpoint's token from now on: what the ticket's outcome, and its continuation, are fenced by. */
  token: string;
  url: string;
  /** False when the endpoint was disabled after the deliveries were queued: they are abandoned unsent. */
  enabled: boolean;
  /**
   * The current secret, then the previous one while its rotation window is open, as stored: sealed (see
   * services/webhooks/secret.ts), opened by the sender just before signing.
   */
  secrets: string[];
  deliveries: ClaimedDelivery[];
}

/**
 * A ticket's ONE statement: only while the endpoint still holds the ticket's token, replaces the token (a
 * duplicate copy of the same ticket then claims nothing), extends the endpoint's lease, and locks up to `limit`
 * of its due, unleased pending deliveries, oldest first (skipping rows locked by anyone else), stamping a lease
 * on them. The lease is a timestamp, not a held lock. Null when the ticket is stale.
 */
export async function claimTicket(db: Db, opts: TicketOptions): Promise<TicketClaim | null> {
  const result = await db.execute<{
    now: string;
    token: string;
    url: string;
    enabled: boolean;
    secret: string;
    previous_secret: string | null;
    deliveries: {
      id: string;
      event_id: string;
      attempt_count: number;
      lease: string;
      payload: Record<string, unknown>;
    }[];
  }>(claimTicketStatement(opts));
  // json, not jsonb, throughout: the payload keeps the key order of GET /gallery/events/{id}.
  const row = result.rows[0];
  if (!row) return null;
  return {
    now: row.now,
    galleryId: opts.galleryId,
    endpointId: opts.endpointId,
    token: row.token,
    url: row.url,
    enabled: row.enabled,
    secrets: row.previous_secret ? [row.secret, row.previous_secret] : [row.secret],
    deliveries: row.deliveries.map((d) => ({
      id: d.id,
      eventId: d.event_id,
      attemptCount: Number(d.attempt_count),
      lease: d.lease,
      payload: d.payload,
    })),
  };
}

export interface TicketOptions {
  galleryId: string;
  endpointId: string;
  token: string;
  now?: Date;
  limit: number;
  leaseMs: number;
}

/** The statement of claimTicket (its plan is checked in test/webhooks/dispatch-plan.test.ts). */
export function claimTicketStatement(opts: TicketOptions): SQL {
  const clock = clockSql(opts.now);
  const lease = sql`${clock} + (${opts.leaseMs})::float8 * interval '1 millisecond'`;
  return sql`with ticket as (
      update webhook_endpoints w set dispatch_token = new_id('wdt'), dispatch_expires_at = ${lease}
      where w.id = ${opts.endpointId} and w.gallery_id = ${opts.galleryId} and w.dispatch_token = ${opts.token}
      returning w.id, w.dispatch_token, w.url, w.enabled, w.secret,
        case when w.previous_secret_expires_at > ${clock} then w.previous_secret end as previous_secret
    ), due as materialized (
      select d.id from webhook_deliveries d
      where d.endpoint_id = (select id from ticket) and d.status = 'pending' and d.next_attempt_at <= ${clock}
        and (d.lease_expires_at is null or d.lease_expires_at < ${clock})
      order by d.next_attempt_at, d.event_id
      limit ${opts.limit}
      for update skip locked
    ), claimed as (
      update webhook_deliveries d set lease_expires_at = ${lease}
      from due where d.id = due.id
      returning d.id, d.event_id, d.attempt_count, d.lease_expires_at, d.next_attempt_at
    )
    select iso_ms(${clock}) as now, t.dispatch_token as token, t.url, t.enabled, t.secret, t.previous_secret,
      coalesce((
        select json_agg(json_build_object('id', c.id, 'event_id', c.event_id, 'attempt_count', c.attempt_count,
            'lease', iso_ms(c.lease_expires_at), 'payload', ${eventJson}) order by c.next_attempt_at, c.event_id)
        from claimed c join domain_events e on e.id = c.event_id
      ), '[]'::json) as deliveries
    from ticket t`;
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

/** How a ticket ends, for its endpoint's dispatch state. */
export interface TicketSettlement {
  endpointId: string;
  /** The token the ticket's claim left on the endpoint: settling is fenced by it. */
  token: string;
  /** The ticket stopped early because its endpoint timed out or failed throughout: back it off. */
  tripped: boolean;
  /** At least one delivery succeeded and the ticket was not cut short: the backoff streak starts again. */
  healthy: boolean;
  /** With more due: the continuation's lease on the endpoint. */
  leaseMs: number;
  /** The first backoff; each further tripped ticket in a row doubles it, up to `backoffCapMs`. */
  backoffMs: number;
  backoffCapMs: number;
  now?: Date;
}

/**
 * Everything one ticket learnt, as one batch (one transaction, one round trip), idempotent so that it can be
 * retried:
 * 1. each delivery's new state and its attempt row, only where the claim's lease still stands (a drain whose lease
 *    ran out, or whose delivery was abandoned meanwhile, changes nothing);
 * 2. each endpoint's failing_since: cleared by a success, set by the first failure after one (only while the
 *    endpoint still holds the ticket's token: a ticket that lost it records nothing about its endpoint);
 * 3. endpoints that answered 410 or have been failing for 5 days are disabled, with a `webhook_endpoint.disabled`
 *    event (fanned out by the domain_events trigger, which no longer sees them enabled), and their pending
 *    deliveries abandoned.
 */
export async function recordOutcomes(
  db: Db,
  deliveries: DeliveryOutcome[],
  endpoints: EndpointOutcome[],
  settlement: TicketSettlement,
): Promise<{ more: boolean }> {
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
  const clock = clockSql(settlement.now);
  const results = await db.batch([
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
      where w.id = o.id and w.enabled and w.dispatch_token = ${settlement.token}
        and (case when o.ok then w.failing_since is not null else w.failing_since is null end)`),
    db.execute(sql`with disabled as (
        update webhook_endpoints w
        set enabled = false, disabled_reason = case when o.gone then 'gone' else 'failing' end, updated_at = now()
        from ${endpointRows}
        where w.id = o.id and w.enabled and w.dispatch_token = ${settlement.token}
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
    db.execute<{ more: boolean }>(sql`with s as (
        select not ${settlement.tripped} and exists (
          select 1 from webhook_deliveries d
          where d.endpoint_id = ${settlement.endpointId} and d.status = 'pending' and d.next_attempt_at <= ${clock}
            and (d.lease_expires_at is null or d.lease_expires_at < ${clock})
        ) as more
      )
      update webhook_endpoints w set
        dispatch_token = case when s.more then w.dispatch_token end,
        dispatch_expires_at = case when s.more
          then ${clock} + (${settlement.leaseMs})::float8 * interval '1 millisecond' end,
        backoff_until = case when ${settlement.tripped}
          then ${clock} + least(${settlement.backoffMs}::float8 * power(2, least(w.backoff_streak, 30)),
            ${settlement.backoffCapMs}::float8) * interval '1 millisecond'
          else w.backoff_until end,
        backoff_streak = case when ${settlement.tripped} then w.backoff_streak + 1
          when ${settlement.healthy} then 0 else w.backoff_streak end
      from s
      where w.id = ${settlement.endpointId} and w.dispatch_token = ${settlement.token}
      returning s.more`),
  ]);
  return { more: results[3].rows[0]?.more === true };
}

/** Rows purged per table and tick: a backlog shrinks over a few ticks instead of in one long transaction. */
const PURGE_BATCH = 5000;

/**
 * Idempotency claims older than 14 days and expired upload tokens (used ones go too once their short lifetime
 * ends; until then a reused token is still recognised as used). One batch.
 */
export async function purgeExpired(
  db: Db,
  opts: { now?: Date; galleryIds?: string[] },
): Promise<{ idempotencyKeys: number; uploadTokens: number }> {
  const clock = clockSql(opts.now);
  const scope =
    opts.galleryIds === undefined ? sql`` : sql`and gallery_id = any(${textArray(opts.galleryIds)})`;
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
