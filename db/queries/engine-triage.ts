import { type SQL, sql } from "drizzle-orm";
import { isoMs } from "../resource";

/**
 * Each gallery's triage adjustment (docs/decisions.md, "Each gallery's triage adjustment"): the galleries due a fit,
 * the corrected intents a fit reads, the upsert of what it fitted, and the adjustment the engine loads beside a
 * batch's threads. The adjustment itself is lib/engine/adjustment.ts IntentAdjustment, stored as JSON.
 */

/**
 * The gallery's adjustment when it was fitted over `sharedModel` (over another it is not applied: the gallery is
 * due a fit), one row or none. Loaded once per gallery per batch, in the same round trip as the threads.
 */
export function triageAdjustmentOf(galleryId: string, sharedModel: string): SQL {
  return sql`select adjustment from triage_adjustments
    where gallery_id = ${galleryId} and shared_model = ${sharedModel} and examples > 0`;
}

/**
 * Galleries due a fit, at most `limit`, the longest unfitted first: a triage correction newer than the newest their
 * adjustment read (or none fitted yet), or an adjustment fitted over another shared model. `galleryId`: only that
 * gallery, if due.
 */
export function triageGalleriesDue(sharedModel: string, limit: number, galleryId?: string): SQL {
  return sql`select g.id from galleries g
    left join triage_adjustments a on a.gallery_id = g.id
    where (
        exists (select 1 from judgment_corrections c
          where c.gallery_id = g.id and c.aspect = 'triage'
            and (a.corrected_through is null or c.created_at > a.corrected_through))
        or (a.gallery_id is not null and a.shared_model <> ${sharedModel}
          and exists (select 1 from judgment_corrections c where c.gallery_id = g.id and c.aspect = 'triage'))
      )
      ${galleryId === undefined ? sql`` : sql`and g.id = ${galleryId}`}
    order by a.fitted_at nulls first, g.id limit ${limit}`;
}

/** A corrected intent as a fit reads it: the judged message as it was, and the member's intent. */
export interface TriageCorrectionRow {
  channel: string | null;
  subject: string | null;
  text: string | null;
  intent: string;
  created_at: string;
}

/**
 * The gallery's newest `limit` corrected intents, the newest of each thread only (a member who changed their mind
 * said the last word), newest first.
 */
export function triageCorrections(galleryId: string, limit: number): SQL {
  return sql`select channel, subject, text, intent, ${isoMs(sql`created_at`)} as created_at from (
      select distinct on (c.subject_id) c.input->>'channel' as channel, c.input->>'subject' as subject,
        c.input->>'text' as text, c.corrected_value #>> '{}' as intent, c.created_at, c.id
      from (select * from judgment_corrections c
        where c.gallery_id = ${galleryId} and c.aspect = 'triage' and jsonb_typeof(c.corrected_value) = 'string'
        order by c.created_at desc, c.id desc limit ${limit * 4}) c
      order by c.subject_id, c.created_at desc, c.id desc
    ) newest order by created_at desc, id desc limit ${limit}`;
}

/** The newest triage correction of the gallery (what a fit read through), or null. */
export function newestTriageCorrection(galleryId: string): SQL {
  return sql`select ${isoMs(sql`max(created_at)`)} as at from judgment_corrections
    where gallery_id = ${galleryId} and aspect = 'triage'`;
}

export function upsertTriageAdjustment(
  galleryId: string,
  adjustment: { version: string; shared: string; examples: number },
  correctedThrough: string | null,
  at: string,
): SQL {
  return sql`insert into triage_adjustments (gallery_id, version, shared_model, examples, adjustment,
      corrected_through, fitted_at)
    values (${galleryId}, ${adjustment.version}, ${adjustment.shared}, ${adjustment.examples},
      ${JSON.stringify(adjustment)}::jsonb, ${correctedThrough}::timestamptz, ${at}::timestamptz)
    on conflict (gallery_id) do update set version = excluded.version, shared_model = excluded.shared_model,
      examples = excluded.examples, adjustment = excluded.adjustment,
      corrected_through = excluded.corrected_through, fitted_at = excluded.fitted_at`;
}
