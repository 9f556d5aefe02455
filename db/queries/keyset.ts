import { type SQL, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Db } from "../client";
import { isoMs } from "../resource";

export interface KeysetQuery {
  /** json of one row: the API representation (fetched as text). */
  body: SQL;
  from: SQL;
  where: SQL[];
  /**
   * Conditions of which at most one holds for any row (a static list's membership, a dynamic list's filters):
   * the rows match `where` and one of these. Each is a page of its own and the page is their union, cut again:
   * under one OR (or CASE) the planner has one plan for all of them, and cannot let a small set drive from its
   * own index while a large one is read in the sort key's order.
   */
  oneOf?: SQL[];
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
  const order = sql.raw(page.dir);
  if (query.oneOf && query.oneOf.length > 0) {
    // Materialized, each branch is planned for its own rows alone. Under a merge of ordered branches the planner
    // costs every branch for the outer limit's first rows and reads a 20-member list along the whole roster.
    // The branches select keys only; the body is built once, for the rows the merged page keeps (planned once,
    // not once per branch, and never for a branch's rows the cut drops).
    const branches = query.oneOf.map(
      (condition, i) =>
        sql`${sql.raw(`b${i}`)} as materialized (${pageQuery({ ...query, body: sql`null`, where: [...query.where, condition], oneOf: undefined }, page, true)})`,
    );
    const union = sql.join(
      query.oneOf.map((_, i) => sql.raw(`select sort_key, id, k from b${i}`)),
      sql` union all `,
    );
    return sql`with ${sql.join(branches, sql`, `)}
      select (select (${query.body})::text from ${query.from} where ${query.id} = p.id) as body,
        p.sort_key, p.id${rawKey ? sql`, p.k` : sql``}
      from (select u.sort_key, u.id, u.k from (${union}) u
        order by u.k ${order}, u.id ${order}
        limit ${page.limit + 1}) p
      order by p.k ${order}, p.id ${order}`;
  }
  const where = [...query.where];
  const op = sql.raw(page.dir === "desc" ? "<" : ">");
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
