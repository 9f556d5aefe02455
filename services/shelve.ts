import type { z } from "@hono/zod-openapi";
import type { SQL, SQLWrapper } from "drizzle-orm";
import { nextTimestamp, type ShelvableTable, shelveStatement } from "../db/queries/rows";
import type { EventType } from "../lib/event-types";
import type { ServiceContext } from "./context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "./write";

/** A resource with an archive shelf (contacts, invoices): how to read it and what its moves record. */
export interface Shelf<S extends z.ZodType> {
  schema: S;
  table: ShelvableTable;
  resourceType: string;
  archived: EventType;
  restored: EventType;
  /** The row as read, or null when the gallery has no such id. */
  find(ctx: ServiceContext, id: string): Promise<{ body: Record<string, unknown>; updatedAt: string } | null>;
  /** The resource's JSON, built by Postgres after the change. */
  json(galleryId: string, id: string): SQL;
  notFound(id: string): string;
  /** Rules checked in the same transaction before the move (a restored contact's email must still be free). */
  rules?(galleryId: string, id: string, body: Record<string, unknown>, archive: boolean): SQLWrapper[];
}

/**
 * Puts a row on the archive shelf or takes it off, answering the resource. A row already where it is asked to be
 * stays as it is: no change, no event. Otherwise one guarded batch: the rules, the move, `<resource>.archived` or
 * `.restored`.
 */
export async function shelve<S extends z.ZodType>(
  ctx: ServiceContext,
  shelf: Shelf<S>,
  id: string,
  archive: boolean,
) {
  const galleryId = ctx.principal.galleryId;
  const found = await shelf.find(ctx, id);
  if (!found) return notFoundUnlessReplay<unknown, 200>(ctx, shelf.notFound(id));
  const object = shelf.json(galleryId, id);
  if ((found.body.archived_at !== null) === archive) {
    return executeWrite(ctx, { schema: shelf.schema, statements: [], events: [], status: 200, body: object });
  }
  const at = nextTimestamp(found.updatedAt);
  return executeWrite(ctx, {
    schema: shelf.schema,
    statements: [
      ...(shelf.rules?.(galleryId, id, found.body, archive) ?? []),
      guarded(shelveStatement(shelf.table, galleryId, id, archive ? at : null, found.updatedAt, at)),
    ],
    events: [changeEvent(archive ? shelf.archived : shelf.restored, shelf.resourceType, id, object)],
    status: 200,
    body: object,
  });
}
