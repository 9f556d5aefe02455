import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";

const eventJson = sql`jsonb_build_object('id', e.id, 'type', e.type, 'livemode', e.livemode,
  'resource_type', e.resource_type, 'resource_id', e.resource_id, 'data', e.data, 'created_at', iso_ms(e.created_at))`;

export interface EventListRow {
  body: Record<string, unknown>;
  sort_key: string;
  id: string;
}

/** One page (limit + 1 rows) of the gallery's domain events, keyset on (created_at, id). One round trip. */
export async function listEvents(
  db: Db,
  galleryId: string,
  filters: { type?: string },
  page: { dir: "asc" | "desc"; limit: number; after: [string | number | null, string] | null },
): Promise<EventListRow[]> {
  const where: SQL[] = [sql`e.gallery_id = ${galleryId}`];
  if (filters.type !== undefined) where.push(sql`e.type = ${filters.type}`);
  const op = sql.raw(page.dir === "desc" ? "<" : ">");
  const order = sql.raw(page.dir);
  if (page.after)
    where.push(sql`(e.created_at, e.id) ${op} (${page.after[0]}::timestamptz, ${page.after[1]})`);
  const result = await db.execute<{ body: Record<string, unknown>; sort_key: string; id: string }>(
    sql`select ${eventJson} as body, iso_ms(e.created_at) as sort_key, e.id from domain_events e
      where ${sql.join(where, sql` and `)}
      order by e.created_at ${order}, e.id ${order} limit ${page.limit + 1}`,
  );
  return result.rows;
}
