import { type SQL, sql } from "drizzle-orm";
import { newId } from "../../lib/ids";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { EngagementEvent, type EngagementEventCreateInput } from "../../lib/schemas/engagements";
import type { Db } from "../client";
import { resource } from "../resource";
import { artworks, engagementEvents, viewingRooms } from "../schema";
import { contactExists } from "./interactions";
import { keysetChildPage } from "./keyset";
import { expectReferences } from "./rows";

/** The API representation of an engagement event (alias `ee`). */
export const engagementResource = resource({
  schema: EngagementEvent,
  table: engagementEvents,
  alias: "ee",
  name: "engagement_event",
});

/** Newest first, by when each event happened. */
export const engagementList = listSpec({ sorts: ["occurred"], defaultSort: "occurred" });

export interface EngagementFilters {
  kind?: string;
}

/**
 * One page (limit + 1 rows) of a contact's engagement events, newest first on the (gallery, contact,
 * occurred_at, id) index; null when the contact is not in the gallery.
 */
export function listEngagements(
  db: Db,
  galleryId: string,
  contactId: string,
  filters: EngagementFilters,
  page: PageRequest,
): Promise<PageRow[] | null> {
  const where = [sql`ee.gallery_id = ${galleryId}`, sql`ee.contact_id = ${contactId}`];
  if (filters.kind !== undefined) where.push(sql`ee.kind = ${filters.kind}`);
  return keysetChildPage(
    db,
    contactExists(galleryId, contactId),
    {
      body: engagementResource.json({}),
      from: sql`engagement_events ee`,
      where,
      sortKey: sql`ee.occurred_at`,
      cast: "timestamptz",
      id: sql`ee.id`,
    },
    page,
  );
}

/** The statements that record one engagement event, and its id. */
export interface EngagementStatements {
  id: string;
  statements: SQL[];
}

/**
 * Records one engagement event of a contact: the one writer of `engagement_events`, for the gallery's API and
 * the public viewing-room surface alike. The artwork and room it names must be the gallery's (400 naming the
 * field). The insert happens only while the contact is still in the gallery and yields the number of rows it
 * wrote (1, or 0 when the contact is gone), for `guarded()`-style checks; the trigger on `engagement_events`
 * keeps `contact_engagement` and the contact's `last_engaged_at` in the same transaction. Composed into one
 * transaction by services/write.ts; none of them runs on its own.
 */
export function engagementStatements(
  galleryId: string,
  contactId: string,
  input: EngagementEventCreateInput,
  at: string,
  id: string = newId("eng"),
): EngagementStatements {
  const statements: SQL[] = [];
  if (input.artwork_id)
    statements.push(expectReferences(artworks, galleryId, [input.artwork_id], "artwork_id"));
  if (input.viewing_room_id) {
    statements.push(expectReferences(viewingRooms, galleryId, [input.viewing_room_id], "viewing_room_id"));
  }
  statements.push(
    sql`with inserted as (
        insert into engagement_events (id, gallery_id, contact_id, kind, occurred_at, artwork_id, viewing_room_id,
          metadata, created_at)
        select ${id}, c.gallery_id, c.id, ${input.kind}, ${input.occurred_at ?? at}::timestamptz,
          ${input.artwork_id ?? null}, ${input.viewing_room_id ?? null}, ${JSON.stringify(input.metadata ?? {})}::jsonb,
          ${at}::timestamptz
        from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}
        returning 1)
      select expect_one_row((select count(*) from inserted))`,
  );
  return { id, statements };
}
