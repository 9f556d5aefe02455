import { sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type RowValues, rowOf } from "../../db/resource";
import { domainEvents, judgmentSubjects } from "../../db/schema";
import { newId } from "../../lib/ids";
import { db } from "./gallery";

/** An INSERT of one row into `table`, with values named as the columns are (`gallery_id`), checked by the compiler. */
export function insertRow<T extends PgTable>(table: T, values: RowValues<T>) {
  return db().insert(table).values(rowOf(table, values));
}

/** Rows written by direct SQL, for columns the API does not let a caller set, and rows read back the same way. */

/** `2024-01-01T00:00:00.000Z` plus `minutes` minutes: distinct, ordered, millisecond-exact timestamps. */
export function minutesAfterEpoch(minutes: number): string {
  return new Date(Date.UTC(2024, 0, 1) + minutes * 60_000).toISOString();
}

/** Inserts a domain event row directly, with an explicit created_at. */
export async function seedEvent(
  galleryId: string,
  columns: { created_at: string; type?: string; id?: string; livemode?: boolean },
): Promise<string> {
  const id = columns.id ?? newId("evt");
  await db().execute(
    insertRow(domainEvents, {
      id,
      gallery_id: galleryId,
      type: columns.type ?? "artwork.created",
      livemode: columns.livemode ?? false,
      resource_type: "artwork",
      resource_id: newId("art"),
      data: { seeded: true },
      created_at: columns.created_at,
    }),
  );
  return id;
}

/** Domain events of one gallery straight from the outbox table, oldest first. */
export async function outboxEvents(
  galleryId: string,
): Promise<{ id: string; type: string; resource_id: string; data: Record<string, unknown> }[]> {
  const result = await db().execute<{
    id: string;
    type: string;
    resource_id: string;
    data: Record<string, unknown>;
  }>(
    sql`select id, type, resource_id, data from domain_events where gallery_id = ${galleryId} order by created_at, id`,
  );
  return result.rows;
}

/** Number of rows of `table` in one gallery. */
export async function countRows(
  table: "artworks" | "domain_events" | "idempotency_keys" | "inbox_messages",
  galleryId: string,
) {
  const result = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where gallery_id = ${galleryId}`,
  );
  return Number(result.rows[0]!.n);
}

/**
 * A judgment subject in the state a test needs. Writes already mark their subjects (the outbox trigger), so this
 * sets the row whether or not the write made it.
 */
export function upsertJudgmentSubject(values: RowValues<typeof judgmentSubjects>) {
  const row = rowOf(judgmentSubjects, values);
  return db()
    .insert(judgmentSubjects)
    .values(row)
    .onConflictDoUpdate({
      target: [judgmentSubjects.galleryId, judgmentSubjects.kind, judgmentSubjects.subjectId],
      set: row,
    });
}
