import { sql } from "drizzle-orm";
import { PUBLIC_SURFACE_EVENT_CONDITION } from "../../lib/public-surface";
import type { Db } from "../client";
import { clockSql } from "./webhook-drain";

/** A gallery whose public surface changed lately, and the generation that names its latest state. */
export interface PublicSurfaceChange {
  galleryId: string;
  /** The id of its newest event that changes the public surface (ids are time-ordered). */
  generation: string;
}

/**
 * The galleries with events changing their public surface in the last `windowSeconds` before `now`, each with its
 * newest such event's id: one read, over the partial index `domain_events_public_surface_idx` (its predicate is
 * PUBLIC_SURFACE_EVENT_CONDITION, word for word).
 */
export async function publicSurfaceChanges(
  db: Db,
  windowSeconds: number,
  limit: number,
  now?: Date,
): Promise<PublicSurfaceChange[]> {
  const clock = clockSql(now);
  const result = await db.execute<{ gallery_id: string; generation: string }>(sql`
    select gallery_id, max(id) as generation from domain_events
    where ${sql.raw(PUBLIC_SURFACE_EVENT_CONDITION)}
      and created_at > ${clock} - make_interval(secs => ${windowSeconds})
      and created_at <= ${clock}
    group by gallery_id
    order by max(created_at) desc
    limit ${limit}`);
  return result.rows.map((row) => ({ galleryId: row.gallery_id, generation: row.generation }));
}
