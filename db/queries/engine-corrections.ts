import { type SQL, sql } from "drizzle-orm";
import { newId } from "../../lib/ids";

/**
 * A member's correction of a judgment, kept as a labelled example (judgment_corrections) with the input it
 * corrected, in the same transaction as the correcting write. The engine never overwrites what a member said.
 */

/**
 * A thread's corrected_intent: the engine's intent as it stood, the member's, and the judged message (from the
 * stored triage judgment; the last inbound message when none was stored) with the judgment itself.
 */
export function recordTriageCorrection(
  galleryId: string,
  threadId: string,
  engineIntent: string | null,
  correctedIntent: string,
  memberId: string | null,
): SQL {
  return sql`insert into judgment_corrections (id, gallery_id, subject_kind, subject_id, aspect, engine_value,
      corrected_value, input, member_id)
    select ${newId("jcor")}, ${galleryId}, 'inbox_thread', ${threadId}, 'triage', to_jsonb(${engineIntent}::text),
      to_jsonb(${correctedIntent}::text),
      jsonb_build_object('channel', t.channel, 'subject', t.subject, 'message_id', m.id, 'text', m.body,
        'judgment', j.evidence),
      ${memberId}
    from inbox_threads t
    left join judgments j on j.gallery_id = t.gallery_id and j.subject_kind = 'inbox_thread'
      and j.subject_id = t.id and j.aspect = 'triage'
    left join lateral (
      select im.id, coalesce(im.body, im.snippet) as body from inbox_messages im
      where im.thread_id = t.id and (im.id = j.evidence->>'message_id'
        or (j.evidence->>'message_id' is null and im.direction = 'inbound'))
      order by im.sent_at desc, im.id desc limit 1) m on true
    where t.gallery_id = ${galleryId} and t.id = ${threadId}`;
}

/** A suggested show tag a member removed: never suggested for that show again (corrected_value null). */
export function recordRemovedSuggestion(
  galleryId: string,
  showId: string,
  tag: { id: string; name: string; facet: string },
  memberId: string | null,
): SQL {
  return sql`insert into judgment_corrections (id, gallery_id, subject_kind, subject_id, aspect, engine_value,
      corrected_value, input, member_id)
    values (${newId("jcor")}, ${galleryId}, 'show', ${showId}, 'show_tags', to_jsonb(${tag.name}::text), null,
      ${JSON.stringify({ show_id: showId, tag })}::jsonb, ${memberId})`;
}
