import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";

/** A JS array as ONE text[] parameter (drizzle's template would otherwise expand it into a tuple). */
export function textArray(values: readonly string[]): SQL {
  return sql`${sql.param([...values])}::text[]`;
}

/** A parameter with the cast its column needs: objects become jsonb, arrays Postgres arrays. */
function param(value: unknown): SQL {
  if (value === null || value === undefined) return sql`null`;
  if (Array.isArray(value)) return sql`${textArray(value)}`;
  if (typeof value === "object") return sql`${JSON.stringify(value)}::jsonb`;
  return sql`${value}`;
}

/**
 * INSERT of one row. Column names come from the API's own field lists (never from request keys that were not
 * validated against them), and the API's snake_case field names are the column names.
 */
export function insertRow(table: string, values: Record<string, unknown>): SQL {
  const entries = Object.entries(values).filter(([, v]) => v !== undefined);
  return sql`insert into ${sql.identifier(table)} (${sql.join(
    entries.map(([k]) => sql.identifier(k)),
    sql`, `,
  )}) values (${sql.join(
    entries.map(([, v]) => param(v)),
    sql`, `,
  )})`;
}

export function setList(values: Record<string, unknown>): SQL {
  return sql.join(
    Object.entries(values)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => sql`${sql.identifier(k)} = ${param(v)}`),
    sql`, `,
  );
}

/** Every id in `ids` must name a row of `table` in the gallery, or the transaction aborts with a 400. */
export function expectReferences(
  table: PgTable & { id: AnyPgColumn; galleryId: AnyPgColumn },
  galleryId: string,
  ids: readonly string[],
  field: string,
): SQL {
  const unique = [...new Set(ids)];
  return sql`select expect_references((select count(*) from ${table}
    where ${table.galleryId} = ${galleryId} and ${table.id} = any(${textArray(unique)})), ${unique.length}, ${field})`;
}

/** Milliseconds-precision "now" that is strictly after `previous`, so a guarded write always moves updated_at. */
export function nextTimestamp(previous?: string): string {
  const now = Date.now();
  const floor = previous ? Date.parse(previous) + 1 : 0;
  return new Date(Math.max(now, floor)).toISOString();
}
