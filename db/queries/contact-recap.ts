import { sql } from "drizzle-orm";
import { RECAP_RECENT_INTERACTIONS } from "../../lib/schemas/contact-recap";
import type { Db } from "../client";
import { isoMs } from "../resource";
import { dynamicListConditions } from "./contact-filters";

/**
 * The contact recap in one statement: the contact's row and, beside it, each part of its history read through
 * the (gallery, contact, …) index of its table. A contact that is not the gallery's yields no row.
 */
export async function contactRecapText(db: Db, galleryId: string, contactId: string): Promise<string | null> {
  // Inside the dynamic lists' `exists`, `c` is the contact again (the conditions are written over `contacts c`).
  const matchesDynamic = sql.join(dynamicListConditions(galleryId, sql`l.id`), sql` and `);
  const result = await db.execute<{ body: string }>(
    sql`select json_build_object(
        'contact_id', c.id,
        'name', c.name,
        'company', c.company,
        'contact_type', c.contact_type,
        'lead_status', c.lead_status,
        'vip', coalesce((select cp.vip from collector_profiles cp where cp.contact_id = c.id), false),
        'spend', json_build_object(
          'total_spend_cents', c.total_spend_cents,
          'works_acquired', c.works_acquired,
          'avg_acquisition_cents', c.avg_acquisition_cents),
        'first_interaction_at', ${isoMs(sql`ia.first_at`)},
        'last_interaction_at', ${isoMs(sql`ia.last_at`)},
        'interaction_count', ia.n,
        'recent_interactions', (select coalesce(json_agg(json_build_object(
            'occurred_at', ${isoMs(sql`r.occurred_at`)},
            'type', r.type,
            'direction', r.direction,
            'summary', r.summary,
            'artwork_id', r.artwork_id) order by r.occurred_at desc, r.id desc), '[]'::json)
          from (select i.occurred_at, i.id, i.type, i.direction, i.summary, i.artwork_id from interactions i
            where i.gallery_id = c.gallery_id and i.contact_id = c.id
            order by i.occurred_at desc, i.id desc limit ${RECAP_RECENT_INTERACTIONS}) r),
        'open_task_count', (select count(*) from tasks t
          where t.gallery_id = c.gallery_id and t.contact_id = c.id and t.completed_at is null),
        'next_task', (select json_build_object('id', t.id, 'title', t.title, 'due_at', ${isoMs(sql`t.due_at`)})
          from tasks t where t.gallery_id = c.gallery_id and t.contact_id = c.id and t.completed_at is null
          order by t.due_at asc nulls last, t.id asc limit 1),
        'list_memberships', (select coalesce(json_agg(json_build_object(
            'list_id', l.id, 'list_name', l.title, 'kind', l.kind) order by l.created_at desc, l.id desc), '[]'::json)
          from contact_lists l
          where l.gallery_id = c.gallery_id and (
            (not l.is_dynamic and exists (select 1 from contact_list_memberships m
              where m.list_id = l.id and m.contact_id = c.id and m.gallery_id = c.gallery_id))
            or (l.is_dynamic and exists (select 1 from contacts c
              where c.gallery_id = ${galleryId} and c.id = ${contactId} and ${matchesDynamic}))))
      )::text as body
      from contacts c
      cross join lateral (select min(i.occurred_at) as first_at, max(i.occurred_at) as last_at, count(*) as n
        from interactions i where i.gallery_id = c.gallery_id and i.contact_id = c.id) ia
      where c.gallery_id = ${galleryId} and c.id = ${contactId}`,
  );
  return result.rows[0]?.body ?? null;
}
