import { type SQL, sql } from "drizzle-orm";
import { IDEMPOTENCY_TTL_SECONDS } from "../../lib/idempotency";
import { EVENT_RETENTION_DAYS } from "../../lib/retention";
import type { Db } from "../client";
import { clockSql } from "./webhook-drain";

/**
 * The retention purge's statements: what the platform no longer keeps, deleted a bounded batch of the oldest at a
 * time, every read by index (docs/decisions.md, "Retention: events, deliveries and attempts").
 */

/** Events per batch, each with its deliveries and their attempts. */
export const EVENT_PURGE_BATCH = 5000;
/** Idempotency keys, and upload tokens, per batch. */
export const ROW_PURGE_BATCH = 5000;

/** Transaction-local settings handing one statement's event ids to the next within the batch. */
const CANDIDATES = "gallery.purge_candidates";
export const PURGEABLE = "gallery.purge_events";

export interface PurgeCounts {
  events: number;
  deliveries: number;
  attempts: number;
  idempotencyKeys: number;
  uploadTokens: number;
}

export interface PurgeBatch extends PurgeCounts {
  /** Some table gave a whole batch: there may be more to purge now. */
  full: boolean;
}

/**
 * The ids a setting holds, as one value: a sub-select, so PostgreSQL reads the setting once (an InitPlan) rather
 * than parsing the array again for every row a filter meets.
 */
function idsOf(setting: string): SQL {
  return sql`(select current_setting(${setting})::text[])::text[]`;
}

function scoped(galleryId: string | undefined, column: SQL): SQL {
  return galleryId === undefined ? sql`` : sql`and ${column} = ${galleryId}`;
}

export interface PurgeStatements {
  lock: SQL;
  settle: SQL;
  delete: SQL;
  idempotencyKeys: SQL;
  uploadTokens: SQL;
}

/** The batch's statements, in order (the batch sizes are parameters for the benchmark's comparisons). */
export function purgeStatements(opts: {
  now?: Date;
  galleryId?: string;
  eventBatch?: number;
  rowBatch?: number;
}): PurgeStatements {
  const clock = clockSql(opts.now);
  const eventBatch = opts.eventBatch ?? EVENT_PURGE_BATCH;
  const rowBatch = opts.rowBatch ?? ROW_PURGE_BATCH;
  return {
    lock: sql`select set_config(${CANDIDATES}, coalesce(array_agg(c.id), '{}')::text, true), count(*)::int as n
      from (
        select e.id from domain_events e
        where e.created_at < ${clock} - make_interval(days => ${EVENT_RETENTION_DAYS})
          ${scoped(opts.galleryId, sql`e.gallery_id`)}
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')
        order by e.created_at
        limit ${eventBatch}
        for update of e skip locked
      ) c`,
    settle: sql`with locked as materialized (
        select d.event_id, d.status from webhook_deliveries d
        where d.event_id = any(${idsOf(CANDIDATES)})
        for update skip locked
      ), seen as (
        select d.event_id, count(*) as n from webhook_deliveries d
        where d.event_id = any(${idsOf(CANDIDATES)})
        group by d.event_id
      ), held as (
        select event_id, count(*) as n, bool_or(status = 'pending') as pending from locked group by event_id
      )
      select set_config(${PURGEABLE}, coalesce(array_agg(c.id), '{}')::text, true)
      from unnest(${idsOf(CANDIDATES)}) as c(id)
        left join seen s on s.event_id = c.id left join held h on h.event_id = c.id
      where coalesce(s.n, 0) = coalesce(h.n, 0) and not coalesce(h.pending, false)`,
    delete: sql`with doomed as materialized (
        select d.id from webhook_deliveries d where d.event_id = any(${idsOf(PURGEABLE)})
      ), attempts as (
        select count(*) as n from webhook_delivery_attempts a where a.delivery_id = any(array(select id from doomed))
      ), events as (
        delete from domain_events e where e.id = any(${idsOf(PURGEABLE)}) returning 1
      )
      select (select count(*) from events)::int as events, (select count(*) from doomed)::int as deliveries,
        (select n from attempts)::int as attempts`,
    // Both by the rows' addresses (ctid, a TID scan) or primary keys, read from a bounded index walk of the oldest:
    // `in (select … limit)` would hash-join the whole table to the batch.
    idempotencyKeys: sql`with gone as (
        delete from idempotency_keys where ctid = any(array(
          select ctid from idempotency_keys
          where created_at < ${clock} - make_interval(secs => ${IDEMPOTENCY_TTL_SECONDS})
            ${scoped(opts.galleryId, sql`gallery_id`)}
          order by created_at limit ${rowBatch}))
        returning 1)
      select count(*)::int as n from gone`,
    uploadTokens: sql`with gone as (
        delete from upload_tokens where id = any(array(
          select id from upload_tokens where expires_at < ${clock} ${scoped(opts.galleryId, sql`gallery_id`)}
          order by expires_at limit ${rowBatch}))
        returning 1)
      select count(*)::int as n from gone`,
  };
}

/**
 * One batch, one transaction in one round trip. Events older than EVENT_RETENTION_DAYS go with their deliveries
 * and those deliveries' attempts, except an event that still has a pending delivery (a replay re-queued late, a
 * retry in progress): it waits until that delivery settles. Three statements, each with a snapshot of its own
 * (READ COMMITTED), so that no delivery turns pending under the purge:
 *
 * 1. `lock`: the oldest expired events without a pending delivery are locked (FOR UPDATE SKIP LOCKED). From then
 *    on no delivery can be added to them: inserting one takes a key-share lock on its event, which waits for ours
 *    (an insert already under way holds that lock, and its event is skipped);
 * 2. `settle`: their deliveries, now all visible to this statement, are locked (SKIP LOCKED: the purge never
 *    waits, so it cannot deadlock with a replay or a drain). An event keeps its place when one of its deliveries
 *    is pending in its latest version (a replay that committed after statement 1 began) or is locked by someone
 *    else;
 * 3. `delete`: the rest go. Only the events are deleted; their deliveries and those deliveries' attempts follow by
 *    the foreign keys' ON DELETE CASCADE (each row's cascade an index probe), counted just before in the same
 *    statement. Measured as fast as deleting each table explicitly (the keys' triggers run for every deleted row
 *    either way) and simpler; see docs/decisions.md, "Retention: events, deliveries and attempts".
 *
 * Every id list is read by index: `= any(ids)`, the ids a sub-select of the setting (see idsOf).
 *
 * Idempotency keys past their 14 days and expired upload tokens (used ones go too once their short lifetime
 * ends; until then a reused token is still recognised as used) are purged in the same batch.
 */
export async function purgeBatch(db: Db, opts: { now?: Date; galleryId?: string }): Promise<PurgeBatch> {
  const s = purgeStatements(opts);
  const [locked, , deleted, keys, tokens] = await db.batch([
    db.execute<{ n: number }>(s.lock),
    db.execute(s.settle),
    db.execute<{ events: number; deliveries: number; attempts: number }>(s.delete),
    db.execute<{ n: number }>(s.idempotencyKeys),
    db.execute<{ n: number }>(s.uploadTokens),
  ]);
  const counts = deleted.rows[0];
  const idempotencyKeys = Number(keys.rows[0]?.n ?? 0);
  const uploadTokens = Number(tokens.rows[0]?.n ?? 0);
  return {
    events: Number(counts?.events ?? 0),
    deliveries: Number(counts?.deliveries ?? 0),
    attempts: Number(counts?.attempts ?? 0),
    idempotencyKeys,
    uploadTokens,
    full:
      Number(locked.rows[0]?.n ?? 0) >= EVENT_PURGE_BATCH ||
      idempotencyKeys >= ROW_PURGE_BATCH ||
      uploadTokens >= ROW_PURGE_BATCH,
  };
}
