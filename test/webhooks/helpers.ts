import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { newId } from "../../lib/ids";
import { type WebhookDelivery, WebhookEndpointWithSecret } from "../../lib/schemas/webhooks";
import { openWebhookSecret } from "../../services/webhooks/secret";
import { call, db, readJson } from "../helpers/gallery";

/** Helpers for the webhook endpoint suites: endpoints made through the API, deliveries read and seeded in SQL. */

/** An endpoint as the API shows it; `secret` is set only in the answers that reveal it. */
export type Endpoint = z.infer<typeof WebhookEndpointWithSecret>;
export type Delivery = z.infer<typeof WebhookDelivery>;

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
export const BASE = "/gallery/webhook-endpoints";

export async function create(key: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await call("POST", BASE, { key, body, headers });
  return { response, body: await readJson(WebhookEndpointWithSecret, response) };
}

export async function createdEndpoint(key: string, body: Record<string, unknown> = {}): Promise<Endpoint> {
  const result = await create(key, { url: "https://hooks.example.com/in", event_types: ["*"], ...body });
  expect(result.response.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

/** An endpoint's secrets as the sender opens them; `sealed` holds the columns exactly as stored. */
export async function storedSecrets(id: string) {
  const result = await db().execute<{
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: string | null;
  }>(
    sql`select secret, previous_secret, iso_ms(previous_secret_expires_at) as previous_secret_expires_at
      from webhook_endpoints where id = ${id}`,
  );
  const row = result.rows[0]!;
  return {
    secret: await openWebhookSecret(env, id, row.secret),
    previous_secret:
      row.previous_secret === null ? null : await openWebhookSecret(env, id, row.previous_secret),
    previous_secret_expires_at: row.previous_secret_expires_at,
    sealed: { secret: row.secret, previous_secret: row.previous_secret },
  };
}

/** Deliveries straight from the table, for one event (or every one of an endpoint). */
export async function deliveryRows(where: { eventId?: string; endpointId?: string }) {
  const result = await db().execute<{
    id: string;
    endpoint_id: string;
    event_id: string;
    status: string;
    attempt_count: number;
    next_attempt_at: string | null;
  }>(
    sql`select id, endpoint_id, event_id, status, attempt_count, iso_ms(next_attempt_at) as next_attempt_at
      from webhook_deliveries
      where ${where.eventId ? sql`event_id = ${where.eventId}` : sql`endpoint_id = ${where.endpointId!}`}
      order by created_at, id`,
  );
  return result.rows;
}

/**
 * A delivery row in any state, as the cron Worker would have left it. Seeding the event already queued its
 * delivery to every subscribed endpoint (the fan-out trigger), so this sets that row's state (or inserts it,
 * for an endpoint not subscribed to the event's type).
 */
export async function seedDelivery(
  galleryId: string,
  endpointId: string,
  eventId: string,
  columns: { status: string; created_at: string; attempt_count?: number; next_attempt_at?: string | null },
): Promise<string> {
  const result = await db().execute<{ id: string }>(sql`insert into webhook_deliveries
      (id, gallery_id, endpoint_id, event_id, status, attempt_count, next_attempt_at, last_status_code,
       last_error, created_at, updated_at)
    values (${newId("wd")}, ${galleryId}, ${endpointId}, ${eventId}, ${columns.status}, ${columns.attempt_count ?? 0},
      ${columns.next_attempt_at ?? null}, ${columns.status === "failed" ? 500 : null},
      ${columns.status === "failed" ? "HTTP 500" : null}, ${columns.created_at}, ${columns.created_at})
    on conflict (event_id, endpoint_id) do update set status = excluded.status,
      attempt_count = excluded.attempt_count, next_attempt_at = excluded.next_attempt_at,
      last_status_code = excluded.last_status_code, last_error = excluded.last_error,
      created_at = excluded.created_at, updated_at = excluded.updated_at
    returning id`);
  return result.rows[0]!.id;
}

export async function eventsOfType(galleryId: string, type: string) {
  const result = await db().execute<{ id: string; resource_id: string; data: Record<string, unknown> }>(
    sql`select id, resource_id, data from domain_events where gallery_id = ${galleryId} and type = ${type}
      order by created_at, id`,
  );
  return result.rows;
}

export async function deliveryEvent(deliveryId: string): Promise<string | undefined> {
  const result = await db().execute<{ event_id: string }>(
    sql`select event_id from webhook_deliveries where id = ${deliveryId}`,
  );
  return result.rows[0]?.event_id;
}
