import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { Show, type ShowCreateInput, type ShowUpdateInput } from "../../lib/schemas/shows";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { shows } from "../schema";
import { type KeysetQuery, keysetPage } from "./keyset";

/** The API representation of a show (alias `s`). */
export const showResource = resource({
  schema: Show,
  table: shows,
  alias: "s",
  name: "show",
  computed: {
    starts_on: () => sql`to_char(s.starts_on, 'YYYY-MM-DD')`,
    ends_on: () => sql`to_char(s.ends_on, 'YYYY-MM-DD')`,
    artwork_ids: () => sql`array(select sa.artwork_id from show_artworks sa
      where sa.show_id = s.id order by sa.position, sa.artwork_id)`,
    tag_count: () => sql`(select count(*)::int from show_tags st where st.show_id = s.id)`,
  },
});

/** Newest first by default; `updated` by the last change; `starts` by the opening day (undated shows last). */
export const showList = listSpec({ sorts: ["created", "updated", "starts"], defaultSort: "created" });
type ShowSort = (typeof showList.sorts)[number];

const sortKeys: Record<ShowSort, Pick<KeysetQuery, "sortKey" | "cast">> = {
  created: { sortKey: sql`s.created_at`, cast: "timestamptz" },
  updated: { sortKey: sql`s.updated_at`, cast: "timestamptz" },
  // The expression of shows_gallery_starts_key_idx.
  starts: { sortKey: sql`coalesce(s.starts_on, '0001-01-01'::date)`, cast: "date" },
};

export interface ShowFilters {
  status?: string;
  starts_after?: string;
  starts_before?: string;
  artwork_id?: string;
}

/** One page (limit + 1 rows) of the gallery's shows matching the filters. One round trip. */
export function listShows(db: Db, galleryId: string, f: ShowFilters, page: PageRequest): Promise<PageRow[]> {
  const where = [sql`s.gallery_id = ${galleryId}`];
  if (f.status !== undefined) where.push(sql`s.status = ${f.status}`);
  if (f.starts_after !== undefined) where.push(sql`s.starts_on >= ${f.starts_after}::date`);
  if (f.starts_before !== undefined) where.push(sql`s.starts_on < ${f.starts_before}::date`);
  if (f.artwork_id !== undefined) {
    where.push(
      sql`exists (select 1 from show_artworks sa where sa.show_id = s.id and sa.artwork_id = ${f.artwork_id})`,
    );
  }
  return keysetPage(
    db,
    {
      body: showResource.json({}),
      from: sql`shows s`,
      where,
      ...sortKeys[page.sort as ShowSort],
      id: sql`s.id`,
    },
    page,
  );
}

export interface ShowState {
  body: z.infer<typeof Show>;
  updatedAt: string;
}

/** One show of the gallery, with what a guarded write needs, or null. One round trip. */
export async function findShow(db: Db, galleryId: string, id: string): Promise<ShowState | null> {
  const result = await db.execute<{ body: z.infer<typeof Show>; updated_at: string }>(
    sql`select ${showResource.json({})} as body, ${isoMs(sql`s.updated_at`)} as updated_at
      from shows s where s.gallery_id = ${galleryId} and s.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/**
 * Statements that write shows, composed into one transaction by services/write.ts; none of them runs on its own.
 */

/** The works of a show, in order (positions 0, 1, …); nothing for an empty list. */
function insertShowArtworks(galleryId: string, showId: string, artworkIds: readonly string[]): SQL[] {
  if (artworkIds.length === 0) return [];
  const rows = artworkIds.map(
    (artworkId, position) => sql`(${galleryId}, ${showId}, ${artworkId}, ${position})`,
  );
  return [
    sql`insert into show_artworks (gallery_id, show_id, artwork_id, position) values ${sql.join(rows, sql`, `)}`,
  ];
}

/**
 * The rule of the dates: ends_on on or after starts_on, as the show ends up (`starts`/`ends`: SQL dates over
 * `from`). Aborts with a 400 naming `ends_on` otherwise.
 */
function datesRule(from: SQL, starts: SQL, ends: SQL): SQL {
  return sql`select expect_valid(${ends} >= ${starts}, 'ends_on',
      format('must be on or after starts_on (%s)', to_char(${starts}, 'YYYY-MM-DD')))
    from ${from}`;
}

/** A new show: the dates rule, the row, then its works. */
export function createShowStatements(
  galleryId: string,
  id: string,
  input: ShowCreateInput,
  at: string,
): SQL[] {
  const starts = sql`${input.starts_on ?? null}::date`;
  const ends = sql`${input.ends_on ?? null}::date`;
  return [
    datesRule(sql`(select 1) one`, starts, ends),
    sql`insert into shows (id, gallery_id, title, description, starts_on, ends_on, status, venue, created_at, updated_at)
      values (${id}, ${galleryId}, ${input.title}, ${input.description ?? null}, ${starts}, ${ends},
        ${input.status ?? "planned"}, ${input.venue ?? null}, ${at}::timestamptz, ${at}::timestamptz)`,
    ...insertShowArtworks(galleryId, id, input.artwork_ids ?? []),
  ];
}

/**
 * A change to a show: the dates rule against the show as read (when a date changes), the UPDATE for `guarded()`,
 * then the works when they are replaced.
 */
export function updateShowStatements(
  galleryId: string,
  id: string,
  input: ShowUpdateInput,
  readUpdatedAt: string,
  at: string,
): { rule: SQL | null; update: SQLWrapper; works: SQL[] } {
  const dateChange = input.starts_on !== undefined || input.ends_on !== undefined;
  const starts = input.starts_on !== undefined ? sql`${input.starts_on}::date` : sql`s.starts_on`;
  const ends = input.ends_on !== undefined ? sql`${input.ends_on}::date` : sql`s.ends_on`;
  const rule = dateChange
    ? datesRule(sql`shows s where s.gallery_id = ${galleryId} and s.id = ${id}`, starts, ends)
    : null;
  const set: SQL[] = [sql`updated_at = ${at}::timestamptz`];
  if (input.title !== undefined) set.push(sql`title = ${input.title}`);
  if (input.description !== undefined) set.push(sql`description = ${input.description}`);
  if (input.starts_on !== undefined) set.push(sql`starts_on = ${input.starts_on}::date`);
  if (input.ends_on !== undefined) set.push(sql`ends_on = ${input.ends_on}::date`);
  if (input.status !== undefined) set.push(sql`status = ${input.status}`);
  if (input.venue !== undefined) set.push(sql`venue = ${input.venue}`);
  const update = sql`update shows s set ${sql.join(set, sql`, `)}
    where s.gallery_id = ${galleryId} and s.id = ${id} and s.updated_at = ${readUpdatedAt}::timestamptz`;
  const works =
    input.artwork_ids === undefined
      ? []
      : [
          sql`delete from show_artworks where show_id = ${id}`,
          ...insertShowArtworks(galleryId, id, input.artwork_ids),
        ];
  return { rule, update, works };
}

/** Whether the gallery has this show. One round trip. */
export async function showExists(db: Db, galleryId: string, id: string): Promise<boolean> {
  const result = await db.execute<{ found: boolean }>(
    sql`select exists (select 1 from shows where gallery_id = ${galleryId} and id = ${id}) as found`,
  );
  return result.rows[0]?.found === true;
}
