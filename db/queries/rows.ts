import { and, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";

/** A JS array as ONE text[] parameter (drizzle's template would otherwise expand it into a tuple). */
export function textArray(values: readonly string[]): SQL {
  return sql`${sql.param([...values])}::text[]`;
}

/**
 * The row of a guarded write (services/write.ts `guarded`) exactly as it was read: its gallery, its id and the
 * updated_at the read saw. An UPDATE or DELETE with this condition touches no row when another write came first.
 */
export function asRead(
  table: PgTable & { id: AnyPgColumn; galleryId: AnyPgColumn; updatedAt: AnyPgColumn },
  galleryId: string,
  id: string,
  readUpdatedAt: string,
): SQL {
  return and(eq(table.galleryId, galleryId), eq(table.id, id), eq(table.updatedAt, readUpdatedAt))!;
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

/** The DELETE of a guarded write (services/write.ts `guarded`): removes the row only as it was read. */
export function deleteAsRead(
  table: PgTable & { id: AnyPgColumn; galleryId: AnyPgColumn; updatedAt: AnyPgColumn },
  galleryId: string,
  id: string,
  readUpdatedAt: string,
): SQLWrapper {
  return sql`delete from ${table} where ${asRead(table, galleryId, id, readUpdatedAt)}`;
}

/** A table whose rows go on the archive shelf: `archived_at` set while they are there. */
export type ShelvableTable = PgTable & {
  id: AnyPgColumn;
  galleryId: AnyPgColumn;
  updatedAt: AnyPgColumn;
  archivedAt: AnyPgColumn;
};

/** Puts the row on the archive shelf (`archivedAt` a timestamp) or takes it off (null); for `guarded()`. */
export function shelveStatement(
  table: ShelvableTable,
  galleryId: string,
  id: string,
  archivedAt: string | null,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  return sql`update ${table}
    set ${sql.identifier(table.archivedAt.name)} = ${archivedAt}, ${sql.identifier(table.updatedAt.name)} = ${at}
    where ${asRead(table, galleryId, id, readUpdatedAt)}`;
}
