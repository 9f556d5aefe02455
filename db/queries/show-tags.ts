import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { MAX_TAGS_PER_SHOW, ShowTag } from "../../lib/schemas/shows";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { showTags } from "../schema";

/** The API representation of a show tag (alias `st`). */
export const showTagResource = resource({
  schema: ShowTag,
  table: showTags,
  alias: "st",
  name: "show_tag",
});

/** By name ignoring case, in code-point order whatever the database's collation, then exactly, then by id. */
const tagOrder = sql`lower(st.name) collate "C", st.name collate "C", st.id`;

/**
 * The show's tags as `{data}` JSON text, or null when the gallery has no such show: the missing show and an
 * empty list told apart in one round trip.
 */
export async function showTagsText(db: Db, galleryId: string, showId: string): Promise<string | null> {
  const result = await db.execute<{ body: string }>(
    sql`select json_build_object('data', coalesce((select json_agg(${showTagResource.json({})} order by ${tagOrder})
        from show_tags st where st.show_id = s.id), '[]'::json))::text as body
      from shows s where s.gallery_id = ${galleryId} and s.id = ${showId}`,
  );
  return result.rows[0]?.body ?? null;
}

export interface ShowTagState {
  body: z.infer<typeof ShowTag>;
  updatedAt: string;
}

/** One tag of the show, with what a guarded write needs, or null. One round trip. */
export async function findShowTag(
  db: Db,
  galleryId: string,
  showId: string,
  id: string,
): Promise<ShowTagState | null> {
  const result = await db.execute<{ body: z.infer<typeof ShowTag>; updated_at: string }>(
    sql`select ${showTagResource.json({})} as body, ${isoMs(sql`st.updated_at`)} as updated_at
      from show_tags st where st.gallery_id = ${galleryId} and st.show_id = ${showId} and st.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/**
 * Statements that write show tags, composed into one transaction by services/write.ts; none runs on its own.
 */

/**
 * Locks the show's row for the transaction (tags added concurrently count one after the other); aborts with 409
 * `concurrent_modification` if the show is gone.
 */
export function lockShow(galleryId: string, showId: string): SQL {
  return sql`with locked as (select 1 from shows where gallery_id = ${galleryId} and id = ${showId} for update)
    select expect_one_row((select count(*) from locked))`;
}

/** Aborts with 409 `conflict` when the show already holds MAX_TAGS_PER_SHOW tags. */
export function refuseWhenShowFull(showId: string): SQL {
  return sql`select raise_conflict(format('A show holds at most %s tags; remove one first', ${MAX_TAGS_PER_SHOW}::int),
      jsonb_build_object('max_tags', ${MAX_TAGS_PER_SHOW}::int))
    from (select count(*) as n from show_tags where show_id = ${showId}) c where c.n >= ${MAX_TAGS_PER_SHOW}`;
}

/**
 * Aborts with 409 `conflict` naming the existing tag when another tag of the show has this name, ignoring case
 * (`show_tags_show_name_key` also holds, for two such writes racing).
 */
export function refuseDuplicateShowTag(showId: string, name: string, exceptId: string): SQL {
  return sql`select raise_conflict(format('The show already has a tag named “%s”: %s', st.name, st.id),
      jsonb_build_object('existing_id', st.id))
    from show_tags st where st.show_id = ${showId} and lower(st.name) = lower(${name}) and st.id <> ${exceptId}`;
}

export interface NewShowTag {
  id: string;
  name: string;
  color: string;
  facet: string;
  origin: string;
}

export function insertShowTag(galleryId: string, showId: string, tag: NewShowTag, at: string): SQL {
  return sql`insert into show_tags (id, gallery_id, show_id, name, color, facet, origin, created_at, updated_at)
    values (${tag.id}, ${galleryId}, ${showId}, ${tag.name}, ${tag.color}, ${tag.facet}, ${tag.origin},
      ${at}::timestamptz, ${at}::timestamptz)`;
}

/** The UPDATE for `guarded()`: matches only the tag as it was read. */
export function updateShowTagStatement(
  galleryId: string,
  showId: string,
  id: string,
  change: Partial<Omit<NewShowTag, "id">>,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const set: SQL[] = [sql`updated_at = ${at}::timestamptz`];
  if (change.name !== undefined) set.push(sql`name = ${change.name}`);
  if (change.color !== undefined) set.push(sql`color = ${change.color}`);
  if (change.facet !== undefined) set.push(sql`facet = ${change.facet}`);
  if (change.origin !== undefined) set.push(sql`origin = ${change.origin}`);
  return sql`update show_tags st set ${sql.join(set, sql`, `)}
    where st.gallery_id = ${galleryId} and st.show_id = ${showId} and st.id = ${id}
      and st.updated_at = ${readUpdatedAt}::timestamptz`;
}

/** The DELETE for `guarded()`: matches only the tag as it was read. */
export function deleteShowTagStatement(
  galleryId: string,
  showId: string,
  id: string,
  readUpdatedAt: string,
): SQLWrapper {
  return sql`delete from show_tags st
    where st.gallery_id = ${galleryId} and st.show_id = ${showId} and st.id = ${id}
      and st.updated_at = ${readUpdatedAt}::timestamptz`;
}
