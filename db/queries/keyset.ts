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
  cast: "timestamptz" | "bigint" | "integer" | "text";
  /** The row's id column. */
  id: SQL;
}

/**
 * The one keyset page query: rows after the cursor by the row-value comparison (sort key, id), in `dir`,
 * `limit + 1` of them so the caller knows whether another page exists. One round trip.
 */
export async function keysetPage(db: Db, query: KeysetQuery, page: PageRequest): Promise<PageRow[]> {
  const where = [...query.where];
  const op = sql.raw(page.dir === "desc" ? "<" : ">");
  const order = sql.raw(page.dir);
  const cast = sql.raw(query.cast);
  if (page.after)
    where.push(sql`(${query.sortKey}, ${query.id}) ${op} (${page.after[0]}::${cast}, ${page.after[1]})`);
  // Timestamps travel in cursors as ISO strings with milliseconds, exactly as stored.
  const sortKeyOut = query.cast === "timestamptz" ? isoMs(query.sortKey) : query.sortKey;
  const result = await db.execute<{ body: string; sort_key: string | number; id: string }>(
    sql`select (${query.body})::text as body, ${sortKeyOut} as sort_key, ${query.id} as id
      from ${query.from}
      where ${sql.join(where, sql` and `)}
      order by ${query.sortKey} ${order}, ${query.id} ${order}
      limit ${page.limit + 1}`,
  );
  return result.rows;
}
