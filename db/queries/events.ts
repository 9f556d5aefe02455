import { type SQL, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { DomainEvent } from "../../lib/schemas/events";
import type { Db } from "../client";
import { gatedPayload, type JsonView, resource } from "../resource";
import { domainEvents } from "../schema";
import { keysetPage } from "./keyset";

export interface EventView extends JsonView {
  /** A read-only caller: the snapshot in `data.object` has its resource's gated values nulled. */
  gatePrices?: boolean;
}

/**
 * The event as the API presents it (`e` is a domain_events row). Webhook deliveries carry the payload as
 * recorded, ungated: an endpoint is configured by a holder of a write scope (docs/decisions.md).
 */
export const eventResource = resource({
  schema: DomainEvent,
  table: domainEvents,
  alias: "e",
  viewKey: (view: EventView) => (view.gatePrices ? "gated" : "open"),
  computed: {
    data: (view: EventView) =>
      view.gatePrices ? gatedPayload(sql`e.data`, sql`e.resource_type`, ["object"]) : sql`e.data`,
  },
});
export const eventJson = eventResource.json({});

/** One page (limit + 1 rows) of the gallery's domain events, keyset on (created_at, id). One round trip. */
export function listEvents(
  db: Db,
  galleryId: string,
  view: EventView,
  filters: { type?: string },
  page: PageRequest,
): Promise<PageRow[]> {
  const where: SQL[] = [sql`e.gallery_id = ${galleryId}`];
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
