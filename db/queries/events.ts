import { type SQL, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Db } from "../client";
import { keysetPage } from "./keyset";

const eventJson = sql`jsonb_build_object('id', e.id, 'type', e.type, 'livemode', e.livemode,
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
