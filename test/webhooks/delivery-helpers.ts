import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { expect, inject } from "vitest";
import { textArray } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { Artwork } from "../../lib/schemas/artworks";
import { DomainEvent } from "../../lib/schemas/events";
import type { WebhookTicket } from "../../lib/webhook-queue";
import { WEBHOOK_USER_AGENT } from "../../lib/webhook-signing";
import {
  addTicketResults,
  dispatch,
  emptyTicketResult,
  handleWebhookBatch,
  type TicketOptions,
  type TicketResult,
} from "../../services/webhooks/dispatch";
import { sealWebhookSecret } from "../../services/webhooks/secret";
import { call, db, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import type { Behaviour, ReceivedRequest } from "../receiver";

/**
 * Helpers for the delivery suites: endpoints at paths of the real local receiver (test/receiver.ts), its recorded
 * requests verified with the standardwebhooks package, delivery rows read in SQL, and one drain tick per gallery.
 */

export const receiverUrl = inject("receiverUrl");
export const refusedUrl = inject("refusedUrl");

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 60 * MINUTE;

/** A domain event as the API shows it and as a delivery carries it. */
export type DomainEventBody = z.infer<typeof DomainEvent>;

export interface Endpoint {
  id: string;
  path: string;
  secret: string;
}

export function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`;
}

/** An endpoint at its own path of the receiver (or at `url`), inserted as the endpoints API would. */
export async function endpoint(g: TestGallery, types: string[] = ["*"], url?: string): Promise<Endpoint> {
  const id = newId("we");
  const path = `/${g.id}/${id}`;
  const secret = newSecret();
  const sealed = await sealWebhookSecret(env, id, secret);
  await db().execute(sql`insert into webhook_endpoints (id, gallery_id, url, event_types, secret)
    values (${id}, ${g.id}, ${url ?? `${receiverUrl}${path}`}, ${textArray(types)}, ${sealed})`);
  return { id, path, secret };
}

export async function behave(path: string, behaviour: Behaviour): Promise<void> {
  const res = await fetch(`${receiverUrl}/__control${path}`, {
    method: "POST",
    body: JSON.stringify(behaviour),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

export async function received(path: string): Promise<ReceivedRequest[]> {
  const res = await fetch(`${receiverUrl}/__received${path}`);
  return (await res.json()) as ReceivedRequest[];
}

/** Verifies a delivery as a receiver would, with the reference library: signature and timestamp. */
export function verify(request: ReceivedRequest, secret: string): DomainEventBody {
  expect(request.method).toBe("POST");
  expect(request.headers["content-type"]).toBe("application/json");
  expect(request.headers["user-agent"]).toBe(WEBHOOK_USER_AGENT);
  const event = new Webhook(secret).verify(request.body, request.headers) as DomainEventBody;
  expect(event.id).toBe(request.headers["webhook-id"]);
  return event;
}

export async function createArtwork(g: TestGallery, title: string): Promise<string> {
  const res = await call("POST", "/gallery/artworks", { key: g.key, body: { title } });
  expect(res.status).toBe(201);
  return (await readJson(Artwork, res)).id;
}

export async function feed(g: TestGallery): Promise<DomainEventBody[]> {
  const res = await call("GET", "/gallery/events?limit=100", { key: g.key });
  expect(res.status).toBe(200);
  return (await readJson(pageOf(DomainEvent), res)).data;
}

export async function dbNow(): Promise<number> {
  const result = await db().execute<{ now: string }>(sql`select iso_ms(clock_timestamp()) as now`);
  return Date.parse(result.rows[0]!.now);
}

export type DeliveryRow = {
  id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  lease_expires_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_response_body: string | null;
  last_latency_ms: number | null;
};

export async function deliveries(endpointId: string): Promise<DeliveryRow[]> {
  const result = await db().execute<DeliveryRow>(sql`select id, event_id, status, attempt_count,
      iso_ms(next_attempt_at) as next_attempt_at, iso_ms(lease_expires_at) as lease_expires_at, last_status_code,
      last_error, last_response_body, last_latency_ms
    from webhook_deliveries where endpoint_id = ${endpointId} order by created_at, id`);
  return result.rows;
}

export async function attempts(deliveryId: string) {
  const result = await db().execute<{
    status_code: number | null;
    latency_ms: number;
    error: string | null;
    response_body: string | null;
    attempted_at: string;
  }>(sql`select status_code, latency_ms, error, response_body, iso_ms(attempted_at) as attempted_at
    from webhook_delivery_attempts where delivery_id = ${deliveryId} order by attempted_at, id`);
  return result.rows;
}

export async function endpointRow(id: string) {
  const result = await db().execute<{
    enabled: boolean;
    disabled_reason: string | null;
    failing_since: string | null;
  }>(sql`select enabled, disabled_reason, iso_ms(failing_since) as failing_since
    from webhook_endpoints where id = ${id}`);
  return result.rows[0]!;
}

export interface TickResult extends TicketResult {
  /** Tickets the drain issued. */
  issued: number;
  /** Ticket runs in all (continuations run in the same batch included). */
  tickets: number;
  /** Each batch run, in order: the drain's tickets, then their continuations. */
  runs: (TicketResult & { tickets: number })[];
}

/**
 * The consumer of the webhook Queue on these tickets, as the Queue hands it a batch: the real handler on a real
 * message batch, every message acked. Returns the batch's totals and its continuations.
 */
export async function consume(tickets: WebhookTicket[], options: TicketOptions = {}) {
  const batch = createMessageBatch<WebhookTicket>(
    "gallery-webhooks",
    tickets.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  const result = await handleWebhookBatch(batch, env, options);
  const queued = await getQueueResult(batch, ctx);
  expect(queued.explicitAcks).toHaveLength(tickets.length);
  return result;
}

/** The consumer on these tickets as one real message batch; the Queue's acks and retries counted, not asserted. */
export async function runBatch(tickets: WebhookTicket[], options: TicketOptions = {}) {
  const batch = createMessageBatch<WebhookTicket>(
    "gallery-webhooks",
    tickets.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  const result = await handleWebhookBatch(batch, env, options);
  const queued = await getQueueResult(batch, ctx);
  return { result, acked: queued.explicitAcks.length, retried: queued.retryMessages.length };
}

/**
 * One tick for this gallery only (so that suites running in parallel never drain each other's deliveries): the
 * drain issues its tickets (up to `tickets`), the consumer runs them, then each continuation as the Queue would hand
 * it over next, until none is left (at most 20 rounds). Several galleries: one drain over all of them.
 */
export async function tick(
  g: TestGallery | TestGallery[],
  options: TicketOptions & { tickets?: number; together?: boolean } = {},
): Promise<TickResult> {
  const run = { random: () => 0.5, ...options };
  const drained = await dispatch(env, {
    galleryIds: [g].flat().map((one) => one.id),
    now: options.now,
    leaseMs: options.leaseMs,
    limit: options.tickets,
  });
  const total: TickResult = {
    ...emptyTicketResult(),
    issued: drained.issued,
    tickets: 0,
    runs: [],
  };
  let tickets = drained.tickets;
  for (let round = 0; round < 20 && tickets.length > 0; round++) {
    const next: WebhookTicket[] = [];
    // One ticket a batch, as in production; or all of a round's tickets in one batch, as the local Queue runs them.
    for (const batch of options.together ? [tickets] : tickets.map((t) => [t])) {
      const { continuations, ...result } = await consume(batch, run);
      total.runs.push(result);
      addTicketResults(total, result);
      total.tickets += result.tickets;
      next.push(...continuations);
    }
    tickets = next;
  }
  expect(tickets).toEqual([]);
  return total;
}

export const at = (base: number, offset: number) => new Date(base + offset);
