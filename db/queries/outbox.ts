import { type SQL, sql } from "drizzle-orm";
import type { EventType } from "../../lib/event-types";
import { newId } from "../../lib/ids";
import type { Actor } from "../../lib/principal";

export interface DomainEventInput {
  type: EventType;
  resourceType: string;
  resourceId: string;
  /** The event payload: a JSON object, or SQL yielding jsonb evaluated inside the write's transaction. */
  data: Record<string, unknown> | SQL;
}

/**
 * The outbox writer: an INSERT of the domain event, run in the same transaction as the change it records (see
 * lib/write.ts), so an event exists if and only if its change committed. Postgres fans each event out to the
 * gallery's subscribed webhook endpoints in that same transaction (trigger `domain_events_fan_out`, migration
 * 0004); endpoints created later do not receive earlier events, which can be replayed by id.
 */
export function eventInsert(actor: Actor, requestId: string | null, event: DomainEventInput): SQL {
  const data =
    "getSQL" in event.data ? sql`(${event.data})::jsonb` : sql`${JSON.stringify(event.data)}::jsonb`;
  return sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data, actor_id, request_id)
    values (${newId("evt")}, ${actor.galleryId}, ${event.type}, ${actor.livemode}, ${event.resourceType},
      ${event.resourceId}, ${data}, ${actor.credentialId}, ${requestId})`;
}
