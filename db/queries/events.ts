import { type SQL, sql } from "drizzle-orm";
import { catalogueTypes, eventCatalogue, eventDataSchema } from "../../lib/event-catalogue";
import type { EventType } from "../../lib/event-types";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { DomainEvent } from "../../lib/schemas/events";
import type { Db } from "../client";
import { gatedEventData, gatedLocations, type JsonView, type PriceAccess, resource } from "../resource";
import { domainEvents } from "../schema";
import { keysetPage } from "./keyset";
import { textArray } from "./rows";

export interface EventView extends JsonView {
  /** Which gated values of the resources an event carries the caller sees (db/resource.ts `Gate`). */
  prices: PriceAccess;
}

/**
 * `e.data` as a caller of this access reads it: every gated resource the type's `data` schema carries, wherever
 * it sits, gated by its own description. Types that carry none are served as recorded.
 */
function gatedData(access: Exclude<PriceAccess, "all">): SQL {
  const byExpression = new Map<string, EventType[]>();
  for (const type of catalogueTypes) {
    const locations = gatedLocations(eventDataSchema(type));
    if (locations.length === 0) continue;
    const expression = gatedEventData("d", locations, eventCatalogue[type].previousAttributes, access);
    byExpression.set(expression, [...(byExpression.get(expression) ?? []), type]);
  }
  if (byExpression.size === 0) return sql`e.data`;
  const branches = [...byExpression].map(
    ([expression, types]) => `when e.type in (${types.map((t) => `'${t}'`).join(", ")}) then ${expression}`,
  );
  return sql.raw(`(select case ${branches.join(" ")} else d end from (select e.data as d) gated_data)`);
}

/**
 * The event as the API presents it (`e` is a domain_events row). Webhook deliveries carry the payload as
 * recorded, ungated: an endpoint may subscribe only to types whose objects its creator could read
 * (docs/decisions.md).
 */
export const eventResource = resource({
  schema: DomainEvent,
  table: domainEvents,
  alias: "e",
  viewKey: (view: EventView) => view.prices,
  computed: {
    data: (view: EventView) => (view.prices === "all" ? sql`e.data` : gatedData(view.prices)),
  },
});
export const eventJson = eventResource.json({ prices: "all" });

/**
 * Only events of these types (the ones the caller may read), or every type when undefined: one condition of
 * the same keyset query, so a page stays one round trip and its cursor stays a position in the whole stream.
 */
function readableCondition(readable: readonly string[] | undefined): SQL[] {
  return readable === undefined ? [] : [sql`e.type = any(${textArray(readable)})`];
}

/** One event of the gallery as JSON text, when it is of a readable type; null otherwise. One round trip. */
export async function eventText(
  db: Db,
  galleryId: string,
  id: string,
  view: EventView,
  readable: readonly string[] | undefined,
): Promise<string | null> {
  const where = [sql`e.gallery_id = ${galleryId}`, sql`e.id = ${id}`, ...readableCondition(readable)];
  const result = await db.execute<{ body: string }>(
    sql`select ${eventResource.json(view)}::text as body from domain_events e where ${sql.join(where, sql` and `)}`,
  );
  return result.rows[0]?.body ?? null;
}

/** One page (limit + 1 rows) of the gallery's domain events, keyset on (created_at, id). One round trip. */
export function listEvents(
  db: Db,
  galleryId: string,
  view: EventView,
  filters: { type?: string; readable?: readonly string[] },
  page: PageRequest,
): Promise<PageRow[]> {
  const where: SQL[] = [sql`e.gallery_id = ${galleryId}`, ...readableCondition(filters.readable)];
  if (filters.type !== undefined) where.push(sql`e.type = ${filters.type}`);
  return keysetPage(
    db,
    {
      body: eventResource.json(view),
      from: sql`domain_events e`,
      where,
      sortKey: sql`e.created_at`,
      cast: "timestamptz",
      id: sql`e.id`,
    },
    page,
  );
}
