import { sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Db } from "../client";
import { isoMs } from "../resource";
import { keysetPage } from "./keyset";

/**
 * The operator's reads of the engine loop (docs/decisions.md, "The engine loop survives its failures"): a
 * gallery's subjects whose last attempt failed, and the messages of its that reached a dead-letter queue, with
 * the dead-letter consumers' record of them.
 */

/** The gallery's subjects whose last attempt failed (last_error set until they are judged), latest first. */
export function listEngineFailures(
  db: Db,
  galleryId: string,
  maxAttempts: number,
  page: PageRequest,
): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: sql`json_build_object('object', 'engine_failure', 'id', s.kind || ':' || s.subject_id, 'kind', s.kind,
        'subject_id', s.subject_id, 'attempts', s.attempts, 'last_error', s.last_error,
        'failed_at', ${isoMs(sql`s.failed_at`)}, 'stale_since', ${isoMs(sql`s.stale_since`)},
        'given_up', s.attempts >= ${maxAttempts})`,
      from: sql`judgment_subjects s`,
      where: [sql`s.gallery_id = ${galleryId}`, sql`s.last_error is not null`, sql`s.failed_at is not null`],
      sortKey: sql`s.failed_at`,
      cast: "timestamptz",
      id: sql`(s.kind || ':' || s.subject_id)`,
    },
    page,
  );
}

/** The gallery's dead letters, latest first. */
export function listDeadLetters(db: Db, galleryId: string, page: PageRequest): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: sql`json_build_object('object', 'dead_letter', 'id', d.message_id, 'queue', d.queue, 'body', d.body,
        'attempts', d.attempts, 'first_seen_at', ${isoMs(sql`d.first_seen_at`)},
        'last_seen_at', ${isoMs(sql`d.last_seen_at`)})`,
      from: sql`dead_letters d`,
      where: [sql`d.gallery_id = ${galleryId}`],
      sortKey: sql`d.first_seen_at`,
      cast: "timestamptz",
      id: sql`d.message_id`,
    },
    page,
  );
}

export interface DeadLetterRow {
  queue: string;
  message_id: string;
  gallery_id: string | null;
  body: unknown;
  attempts: number;
}

/**
 * Records messages that reached a dead-letter queue, once each by (queue, message id): a redelivery of one to the
 * consumer moves last_seen_at and counts it, nothing more. One round trip.
 */
export async function recordDeadLetters(db: Db, rows: DeadLetterRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`insert into dead_letters as d (queue, message_id, gallery_id, body, attempts)
    select r.queue, r.message_id, r.gallery_id, r.body, r.attempts
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(queue text, message_id text, gallery_id text,
      body jsonb, attempts integer)
    on conflict (queue, message_id) do update
      set last_seen_at = now(), times_seen = d.times_seen + 1, attempts = greatest(d.attempts, excluded.attempts)`);
}
