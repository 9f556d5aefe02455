import { sql } from "drizzle-orm";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { ArtworkActivityEvent } from "../../lib/schemas/artwork-timeline";
import type { Db } from "../client";
import { resource } from "../resource";
import { artworkActivityEvents } from "../schema";
import { artworkExists } from "./auction-records";
import { keysetChildPage } from "./keyset";

/** The API representation of a timeline entry (alias `e`). */
export const artworkActivityResource = resource({
  schema: ArtworkActivityEvent,
  table: artworkActivityEvents,
  alias: "e",
  name: "artwork_activity_event",
});
const activityJson = artworkActivityResource.json({});

/** Newest first, by when each entry happened. */
export const artworkTimelineList = listSpec({ sorts: ["occurred"], defaultSort: "occurred" });

/**
 * One page (limit + 1 rows) of an artwork's timeline, keyset on (occurred_at, id); null when the artwork is not
 * in the gallery. The id is compared as text: a cursor carries ids as strings, and a string that is not a UUID
 * must not make the comparison fail. The bound on occurred_at alone, implied by the row comparison, lets the
 * (gallery, artwork, occurred_at, id) index start each page at the cursor.
 */
export function listArtworkTimeline(
  db: Db,
  galleryId: string,
  artworkId: string,
  page: PageRequest,
): Promise<PageRow[] | null> {
  const where = [sql`e.gallery_id = ${galleryId}`, sql`e.artwork_id = ${artworkId}`];
  if (page.after) {
    const op = sql.raw(page.dir === "desc" ? "<=" : ">=");
    where.push(sql`e.occurred_at ${op} ${page.after[0]}::timestamptz`);
  }
  return keysetChildPage(
    db,
    artworkExists(galleryId, artworkId),
    {
      body: activityJson,
      from: sql`artwork_activity_events e`,
      where,
      sortKey: sql`e.occurred_at`,
      cast: "timestamptz",
      id: sql`e.id::text`,
    },
    page,
  );
}

/** What recording interest needs to know first: whether the work exists, and the contact's name (when named). */
export async function findInterestSubjects(
  db: Db,
  galleryId: string,
  artworkId: string,
  contactId: string | null,
): Promise<{ artwork: boolean; contactName: string | null }> {
  const result = await db.execute<{ artwork: boolean; contact_name: string | null }>(
    sql`select exists (select 1 from artworks a where a.gallery_id = ${galleryId} and a.id = ${artworkId}) as artwork,
      (select c.name from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}) as contact_name`,
  );
  const row = result.rows[0]!;
  return { artwork: row.artwork, contactName: row.contact_name };
}
