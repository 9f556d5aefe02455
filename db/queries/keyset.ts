import { type SQL, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Db } from "../client";
import { isoMs } from "../resource";

export interface KeysetQuery {
  /** json of one row: the API representation (fetched as text). */
  body: SQL;
  from: SQL;
  where: SQL[];
  /** The sort expression, matching a (gallery, sort key, id) index. */
  sortKey: SQL;
  /** Postgres type the cursor's sort value is cast back to. */
  cast: "timestamptz" | "date" | "bigint" | "integer" | "text";
  /** The row's id column. */
  id: SQL;
}

/**
 * The one keyset page query: rows after the cursor by the row-value comparison (sort key, id), in `dir`,
 * `limit + 1` of them so the caller knows whether another page exists. With `rawKey`, also the sort key as is
 * (`k`), for a query around this one to order by.
 */
function pageQuery(query: KeysetQuery, page: PageRequest, rawKey = false): SQL {
  const where = [...query.where];
  const op = sql.raw(page.dir === "desc" ? "<" : ">");
  const order = sql.raw(page.dir);
  const cast = sql.raw(query.cast);
  if (page.after)
    where.push(sql`(${query.sortKey}, ${query.id}) ${op} (${page.after[0]}::${cast}, ${page.after[1]})`);
  // Timestamps travel in cursors as ISO strings with milliseconds, exactly as stored; dates as YYYY-MM-DD.
  const sortKeyOut =
    query.cast === "timestamptz"
      ? isoMs(query.sortKey)
      : query.cast === "date"
        ? sql`to_char(${query.sortKey}, 'YYYY-MM-DD')`
        : query.sortKey;
  return sql`select (${query.body})::text as body, ${sortKeyOut} as sort_key, ${query.id} as id${rawKey ? sql`, ${query.sortKey} as k` : sql``}
      from ${query.from}
      where ${sql.join(where, sql` and `)}
      order by ${query.sortKey} ${order}, ${query.id} ${order}
      limit ${page.limit + 1}`;
}

/** One page of rows (see pageQuery). One round trip. */
export async function keysetPage(db: Db, query: KeysetQuery, page: PageRequest): Promise<PageRow[]> {
  const result = await db.execute<{ body: string; sort_key: string | number; id: string }>(
    pageQuery(query, page),
  );
  return result.rows;
}

/**
 * One page of rows that hang off a parent (an artwork's timeline), or null when `parent` (a query yielding a
 * row when the parent exists in the gallery) finds nothing: a missing parent is told apart from an empty list
 * in the same single round trip.
 */
export async function keysetChildPage(
  db: Db,
  parent: SQL,
  query: KeysetQuery,
  page: PageRequest,
): Promise<PageRow[] | null> {
  const order = sql.raw(page.dir);
  const result = await db.execute<{
    body: string | null;
    sort_key: string | number | null;
    id: string | null;
  }>(
    sql`select p.body, p.sort_key, p.id from (${parent}) parent
      left join (${pageQuery(query, page, true)}) p on true
      order by p.k ${order}, p.id ${order}`,
  );
  if (result.rows.length === 0) return null;
  return result.rows.filter((row): row is PageRow => row.id !== null);
}
