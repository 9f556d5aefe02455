import type pg from "pg";

/**
 * Leaves the demo to the engine loop: every artwork, every inbox thread with an inbound message, every show,
 * every list with a described_as and every unarchived contact (its rubric verdicts and its matches) is marked stale as of an hour ago, so the cron Worker's first sweep sends them all
 * to the engine Queue and the demo is judged within a tick or two of `npm start`. Idempotent: a subject already
 * known keeps its state (only an older stale_since is taken, so a waiting subject is swept at once). Returns how
 * many subjects wait for the engine.
 */
export async function markDemoForEngine(client: pg.Client, galleryId: string): Promise<number> {
  await client.query(
    `with subjects(kind, subject_id) as (
        select 'artwork', id from artworks where gallery_id = $1
        union all
        select 'inbox_thread', t.id from inbox_threads t where t.gallery_id = $1
          and exists (select 1 from inbox_messages m where m.thread_id = t.id and m.direction = 'inbound')
        union all
        select 'show', id from shows where gallery_id = $1
        union all
        select 'contact_list', id from contact_lists
          where gallery_id = $1 and dynamic_query->>'described_as' is not null
        union all
        select 'contact', id from contacts where gallery_id = $1 and archived_at is null
      )
      insert into judgment_subjects as s (gallery_id, kind, subject_id, version, judged_version, stale_since)
      select $1, kind, subject_id, 1, 0, now() - interval '1 hour' from subjects
      on conflict (gallery_id, kind, subject_id) do update set stale_since = excluded.stale_since
        where s.judged_version < s.version and s.stale_since > excluded.stale_since`,
    [galleryId],
  );
  // Subjects the engine has never judged at all (judged_version 0) wait for it too, whatever marked them.
  const waiting = await client.query<{ n: string }>(
    "select count(*) as n from judgment_subjects where gallery_id = $1 and judged_version < version",
    [galleryId],
  );
  return Number(waiting.rows[0]?.n ?? 0);
}
