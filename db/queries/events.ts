import { type SQL, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { DomainEvent } from "../../lib/schemas/events";
import type { Db } from "../client";
import { resource } from "../resource";
import { domainEvents } from "../schema";
import { keysetPage } from "./keyset";

/** The event as the API and every webhook delivery present it (`e` is a domain_events row). */
export const eventResource = resource({ schema: DomainEvent, table: domainEvents, alias: "e" });
export const eventJson = eventResource.json({});

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

/** One event of the gallery as JSON text, or null. One round trip. */
export async function eventText(db: Db, galleryId: string, id: string): Promise<string | null> {
  const result = await db.execute<{ body: string }>(
    sql`select ${eventJson}::text as body from domain_events e where e.gallery_id = ${galleryId} and e.id = ${id}`,
  );
  return result.rows[0]?.body ?? null;
}
