import { type SQL, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Db } from "../client";
import { keysetPage } from "./keyset";

/** The event as the API and every webhook delivery present it (`e` is a domain_events row). */
export const eventJson = sql`jsonb_build_object('id', e.id, 'type', e.type, 'livemode', e.livemode,
  'resource_type', e.resource_type, 'resource_id', e.resource_id, 'data', e.data, 'created_at', iso_ms(e.created_at))`;

/** One page (limit + 1 rows) of the gallery's domain events, keyset on (created_at, id). One round trip. */
export function listEvents(
  db: Db,
  galleryId: string,
  filters: { type?: string },
  page: PageRequest,
): Promise<PageRow[]> {
  const where: SQL[] = [sql`e.gallery_id = ${galleryId}`];
  if (filters.type !== undefined) where.push(sql`e.type = ${filters.type}`);
  return keysetPage(
    db,
    {
      body: eventJson,
      from: sql`domain_events e`,
      where,
      sortKey: sql`e.created_at`,
      cast: "timestamptz",
      id: sql`e.id`,
    },
    page,
  );
}

/** One event of the gallery, or null. One round trip. */
export async function findEvent(
  db: Db,
  galleryId: string,
  id: string,
): Promise<Record<string, unknown> | null> {
  const result = await db.execute<{ body: Record<string, unknown> }>(
    sql`select ${eventJson} as body from domain_events e where e.gallery_id = ${galleryId} and e.id = ${id}`,
  );
  return result.rows[0]?.body ?? null;
}
