import { httpDb } from "../../db/client";
import {
  type ClaimedDelivery,
  claimTicket,
  claimTickets,
  type DeliveryOutcome,
  type EndpointOutcome,
  recordOutcomes,
  type TicketClaim,
} from "../../db/queries/webhook-drain";
import { errorSummary } from "../../lib/dependency-failure";
import type { Env } from "../../lib/env";
import { parseWebhookTicket, type WebhookTicket } from "../../lib/webhook-queue";
import { checkWebhookUrl, dnsOverHttpsResolver, type Resolver } from "../../lib/webhook-url";
import { type AttemptResult, DEFAULT_TIMEOUT_MS, decide, hostOf, isIpLiteral, post, short } from "./delivery";

/**
 * Webhook delivery at platform scale, in two halves joined by the `gallery-webhooks` Queue:
 *
 * - the drain (the cron Worker's tick, `dispatch`): every endpoint with due deliveries gets ONE ticket, in turns
 *   across galleries; an endpoint never has two tickets out, nor one while it is backed off;
 * - the consumer (the same Worker's `queue` handler, `handleWebhookBatch`): a ticket claims up to TICKET_SIZE of its
 *   endpoint's due deliveries under a lease, sends them ENDPOINT_CONCURRENCY at a time, oldest first, records the
 *   outcomes, and goes to the back of the Queue as a continuation while more are due. A ticket stops starting sends
 *   after TICKET_BUDGET_MS or after a timeout, and trips when its endpoint timed out twice, or timed out without a
 *   success, or failed five times in a row: the endpoint is then backed off (30 s, doubling per tripped ticket in a
 *   row, at most 15 min).
 *
 * So a burst in one gallery is one endpoint's chain of tickets among everyone else's, a slow endpoint holds only its
 * own ticket, and a quiet gallery's event goes out on the first tick after it. The database is the truth: every
 * claim is fenced by the endpoint's token and every delivery by its lease; a lost or duplicated message claims
 * nothing twice, and what a lost one held returns to the drain when its lease lapses. At-least-once: a delivery is
 * marked done only after its outcome is recorded; receivers dedupe on `webhook-id`.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Deliveries a ticket claims: within the 50 subrequests of one invocation with its database calls. */
export const TICKET_SIZE = 40;
/** Sends to one endpoint in flight at once: its concurrency limit (one ticket per endpoint, this many lanes). */
export const ENDPOINT_CONCURRENCY = 5;
/** A ticket starts no send after this long; what it has not sent goes out with its continuation. */
export const TICKET_BUDGET_MS = 20 * SECOND;
/** Tickets one tick issues (ten Queue sendBatch calls). */
export const TICKETS_PER_TICK = 1000;
/** A ticket trips after this many timeouts (or one without a success)… */
export const TRIP_TIMEOUTS = 2;
/** …or this many failed attempts in a row. */
export const TRIP_FAILURES = 5;
/** The first backoff of a tripped endpoint; doubled for each tripped ticket in a row, up to the cap. */
export const BACKOFF_MS = 30 * SECOND;
export const BACKOFF_CAP_MS = 15 * MINUTE;
/**
 * Subrequests one invocation may make (the Workers Free limit; Paid plans allow far more). Each send is one, a
 * URL check resolving a new host name two more (A + AAAA over DNS-over-HTTPS), and the database and Queue calls
 * (claim, record and its one retry, the continuation) four.
 */
export const DEFAULT_SUBREQUESTS = 50;
const OVERHEAD_SUBREQUESTS = 4;
const DNS_SUBREQUESTS = 2;
/** Queue sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;

/**
 * How long a ticket holds its endpoint and its deliveries: its whole run (the budget, then a last send's timeout)
 * plus a minute for the Queue; past it, the drain may issue the endpoint a new ticket.
 */
export function defaultLeaseMs(timeoutMs: number, budgetMs: number): number {
  return budgetMs + timeoutMs + MINUTE;
}

/** What the drain needs. */
export type DispatchEnv = Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT" | "WEBHOOK_QUEUE">;

export interface DispatchOptions {
  /** The tick's clock; the database's `now()` when absent. */
  now?: Date;
  /** Tickets issued (default TICKETS_PER_TICK). */
  limit?: number;
  leaseMs?: number;
  /** Only these galleries' endpoints (test isolation). */
  galleryIds?: string[];
}

export interface DispatchResult {
  /** Tickets issued. */
  issued: number;
  /** Without a Queue binding (tests), the issued tickets, for the caller to hand to the consumer. */
  tickets: WebhookTicket[];
}

/** The drain: one tick of the cron Worker. */
export async function dispatch(env: DispatchEnv, options: DispatchOptions = {}): Promise<DispatchResult> {
  const db = httpDb(env);
  const leaseMs = options.leaseMs ?? defaultLeaseMs(DEFAULT_TIMEOUT_MS, TICKET_BUDGET_MS);
  const issued = await claimTickets(db, {
    now: options.now,
    limit: options.limit ?? TICKETS_PER_TICK,
    leaseMs,
    galleryIds: options.galleryIds,
  });
  const tickets = issued.map(toMessage);
  if (env.WEBHOOK_QUEUE) {
    // A batch that cannot be sent leaves its tickets to lapse into a later tick: nothing is lost.
    for (let i = 0; i < tickets.length; i += SEND_BATCH) {
      await env.WEBHOOK_QUEUE.sendBatch(tickets.slice(i, i + SEND_BATCH).map((body) => ({ body })));
    }
  }
  return { issued: tickets.length, tickets: env.WEBHOOK_QUEUE ? [] : tickets };
}

function toMessage(t: { galleryId: string; endpointId: string; token: string }): WebhookTicket {
  return { gallery_id: t.galleryId, endpoint_id: t.endpointId, token: t.token };
}

/** What the consumer needs. */
export type ConsumerEnv = Pick<
  Env,
  | "DATABASE_URL"
  | "NEON_LOCAL_ENDPOINT"
  | "ENVIRONMENT"
  | "WEBHOOK_SECRET_KEY"
  | "WEBHOOK_SECRET_KEY_PREVIOUS"
  | "WEBHOOK_QUEUE"
>;

export interface TicketOptions {
  /** The clock of the run; the database's `now()` when absent (tests drive time with it). */
  now?: Date;
  /** Deliveries a ticket claims (default TICKET_SIZE). */
  limit?: number;
  /** Per send (default 15 s). */
  timeoutMs?: number;
  /** Lanes of one endpoint (default ENDPOINT_CONCURRENCY). */
  concurrency?: number;
  /** No send starts after this long (default TICKET_BUDGET_MS). */
  budgetMs?: number;
  leaseMs?: number;
  /** Subrequests of one ticket (default 50). */
  subrequests?: number;
  /** The jitter source, in [0, 1). */
  random?: () => number;
  /** Host name resolution for the URL check (DNS over HTTPS by default). */
  resolve?: Resolver;
}

export interface TicketResult {
  claimed: number;
  succeeded: number;
  /** Failed this time and scheduled again. */
  rescheduled: number;
  /** Failed for the last time (attempt 10). */
  failed: number;
  /** Not to be sent again: the endpoint answered 410 or is disabled. */
  abandoned: number;
  /** Claimed but left unsent: past the budget, for want of subrequests, or after the ticket tripped. */
  released: number;
  /** Tickets cut short by timeouts or failures (their endpoints backed off). */
  tripped: number;
  /** Tickets that found their token replaced (a duplicate or late copy): nothing done. */
  stale: number;
}

export function emptyTicketResult(): TicketResult {
  return {
    claimed: 0,
    succeeded: 0,
    rescheduled: 0,
    failed: 0,
    abandoned: 0,
    released: 0,
    tripped: 0,
    stale: 0,
  };
}

const TICKET_COUNTS = Object.keys(emptyTicketResult()) as (keyof TicketResult)[];

/** Adds the counts of `from` into `into` (which may carry more fields). */
export function addTicketResults<T extends TicketResult>(into: T, from: TicketResult): T {
  for (const key of TICKET_COUNTS) into[key] += from[key];
  return into;
}

/** One ticket: claim, send, record, settle. Returns its continuation when more of the endpoint's are due. */
export async function runTicket(
  env: ConsumerEnv,
  ticket: WebhookTicket,
  options: TicketOptions = {},
): Promise<{ result: TicketResult; continuation: WebhookTicket | null }> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const budgetMs = options.budgetMs ?? TICKET_BUDGET_MS;
  const leaseMs = options.leaseMs ?? defaultLeaseMs(timeoutMs, budgetMs);
  const db = httpDb(env);
  const result = emptyTicketResult();

  const claim = await claimTicket(db, {
    galleryId: ticket.gallery_id,
    endpointId: ticket.endpoint_id,
    token: ticket.token,
    now: options.now,
    limit: options.limit ?? TICKET_SIZE,
    leaseMs,
  });
  if (!claim) {
    result.stale = 1;
    return { result, continuation: null };
  }
  const run = await sendAll(env, claim, { ...options, timeoutMs, budgetMs });
  const outcomes = run.outcomes;
  const settle = () =>
    recordOutcomes(db, outcomes, run.endpoint ? [run.endpoint] : [], {
      endpointId: claim.endpointId,
      token: claim.token,
      tripped: run.tripped,
      healthy: !run.tripped && outcomes.some((o) => o.status === "succeeded"),
      leaseMs,
      backoffMs: BACKOFF_MS,
      backoffCapMs: BACKOFF_CAP_MS,
      now: options.now,
    });
  // Recording is idempotent (fenced by the leases and the token): one retry saves a re-send after a transient
  // failure.
  const { more } = await settle().catch(settle);

  const count = (status: DeliveryOutcome["status"], sent: boolean) =>
    outcomes.filter((o) => o.status === status && (o.attempt !== null) === sent).length;
  result.claimed = outcomes.length;
  result.succeeded = count("succeeded", true);
  result.rescheduled = count("pending", true);
  result.failed = count("failed", true);
  result.abandoned = count("abandoned", true) + count("abandoned", false);
  result.released = count("pending", false);
  result.tripped = run.tripped ? 1 : 0;
  const continuation = more ? { ...ticket, token: claim.token } : null;
  return { result, continuation };
}

interface SendRun {
  outcomes: DeliveryOutcome[];
  /** The endpoint's latest answer, when an attempt was made. */
  endpoint: EndpointOutcome | null;
  tripped: boolean;
}

/**
 * A ticket's sends: its deliveries in claim order (oldest first), `concurrency` lanes taking the next one each.
 * A delivery a lane does not start (budget spent, subrequests spent, the ticket tripped) is released unsent.
 */
async function sendAll(
  env: ConsumerEnv,
  claim: TicketClaim,
  options: TicketOptions & { timeoutMs: number; budgetMs: number },
): Promise<SendRun> {
  const random = options.random ?? Math.random;
  const concurrency = Math.max(1, options.concurrency ?? ENDPOINT_CONCURRENCY);
  const started = Date.now();
  // Times of this run are the claim's clock plus the wall time elapsed since, so an injected clock moves on too.
  const claimedAt = started;
  const tickMs = Date.parse(claim.now);
  const at = () => tickMs + (Date.now() - claimedAt);

  let subrequests = (options.subrequests ?? DEFAULT_SUBREQUESTS) - OVERHEAD_SUBREQUESTS;
  const lookups = new Map<string, Promise<string[]>>();
  const lookup = options.resolve ?? dnsOverHttpsResolver();
  const strict = env.ENVIRONMENT !== "local";
  let gone = false;
  let timeouts = 0;
  let failuresInARow = 0;
  let successes = 0;
  let tripped = false;
  let endpoint: EndpointOutcome | null = null;

  const unsent = (d: ClaimedDelivery, status: "pending" | "abandoned"): DeliveryOutcome => ({
    id: d.id,
    lease: d.lease,
    status,
    nextAttemptAt: null,
    attempt: null,
  });

  const deliver = async (d: ClaimedDelivery): Promise<DeliveryOutcome> => {
    if (!claim.enabled || gone) return unsent(d, "abandoned");
    // After a timeout no lane starts another send: the ticket ends with what is in flight (a timeout's wait is
    // the longest a ticket can hold its invocation).
    if (tripped || timeouts > 0 || Date.now() - started >= options.budgetMs) return unsent(d, "pending");

    // A host name not yet looked up in this ticket may cost a DNS lookup; reserve for it, refund if unused.
    const host = hostOf(claim.url);
    const reserve =
      strict && host !== null && !isIpLiteral(host) && !lookups.has(host) ? 1 + DNS_SUBREQUESTS : 1;
    if (subrequests < reserve) return unsent(d, "pending");
    subrequests -= reserve;
    let looked = false;
    const resolve: Resolver = (name) => {
      let addresses = lookups.get(name);
      if (!addresses) {
        looked = true;
        addresses = lookup(name);
        lookups.set(name, addresses);
      }
      return addresses;
    };

    const attemptedAt = at();
    const verdict = await checkWebhookUrl(claim.url, { environment: env.ENVIRONMENT, resolve });
    if (reserve > 1 && !looked) subrequests += DNS_SUBREQUESTS;
    const send = {
      endpointId: claim.endpointId,
      url: claim.url,
      secrets: claim.secrets,
      eventId: d.eventId,
      payload: d.payload,
    };
    const result: AttemptResult = verdict.ok
      ? await post(send, env, options.timeoutMs)
      : { error: short(`url refused: ${verdict.reason}`), latencyMs: 0 };
    const finishedAt = at();
    const decision = decide(d.attemptCount + 1, result, random, Date.now());
    if (decision.gone) gone = true;

    const ok = decision.status === "succeeded";
    if (ok) {
      failuresInARow = 0;
      successes += 1;
    } else if (!decision.gone) {
      failuresInARow += 1;
      if ("error" in result && result.error.startsWith("timeout")) timeouts += 1;
      if (timeouts >= TRIP_TIMEOUTS || failuresInARow >= TRIP_FAILURES) tripped = true;
    }
    endpoint = {
      id: claim.endpointId,
      ok,
      gone: decision.gone || (endpoint?.gone ?? false),
      at: new Date(attemptedAt).toISOString(),
    };

    return {
      id: d.id,
      lease: d.lease,
      status: decision.status,
      nextAttemptAt: decision.delayMs === null ? null : new Date(finishedAt + decision.delayMs).toISOString(),
      attempt: {
        attemptedAt: new Date(attemptedAt).toISOString(),
        statusCode: "statusCode" in result ? result.statusCode : null,
        latencyMs: result.latencyMs,
        error: "error" in result ? result.error : null,
        responseBody: "responseBody" in result ? result.responseBody : null,
      },
    };
  };

  const outcomes = await mapBounded(claim.deliveries, concurrency, deliver);
  // A ticket that timed out without a single success trips too (one slow answer among successes only ends it).
  if (timeouts > 0 && successes === 0) tripped = true;
  return { outcomes, endpoint, tripped };
}

/** Runs `work` over `items` with at most `concurrency` at a time, taking them in order; results in input order. */
async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

export interface BatchResult extends TicketResult {
  /** Tickets run (messages of the batch). */
  tickets: number;
  /** Without a Queue binding (tests), the continuations, for the caller to run. */
  continuations: WebhookTicket[];
}

/**
 * The consumer: the tickets of a batch side by side (one per endpoint), each message acked once its ticket is
 * recorded and its continuation sent. A ticket that finishes with more due while others of its batch are still
 * running goes on at once in the same invocation (it would otherwise wait for the slowest of the batch), until the
 * batch has run for a ticket's budget; otherwise, and for the last one running, its continuation goes to the back
 * of the Queue. Production takes one ticket a batch, so there every
 * continuation goes back to the Queue; the local Queue hands out ten (scripts/wrangler.ts). A ticket that throws
 * before it claimed anything is retried by the Queue; one that throws later has already replaced its token, so a
 * retry claims nothing and what it held lapses with its lease into a later tick. Never throws.
 */
export async function handleWebhookBatch(
  batch: MessageBatch<unknown>,
  env: ConsumerEnv,
  options: TicketOptions = {},
): Promise<BatchResult> {
  const total: BatchResult = { ...emptyTicketResult(), tickets: 0, continuations: [] };
  let running = batch.messages.length;
  const batchStarted = Date.now();
  const budgetMs = options.budgetMs ?? TICKET_BUDGET_MS;

  /** A ticket and, while others of the batch still run and within the budget, its continuations. */
  const runChain = async (ticket: WebhookTicket): Promise<void> => {
    let current = ticket;
    for (;;) {
      const { result, continuation } = await runTicket(env, current, options);
      addTicketResults(total, result);
      total.tickets += 1;
      if (!continuation) return;
      // A batch must end within the budget, so that the tickets queued behind it (the next tick's, other
      // endpoints') get their turn.
      if (running > 1 && Date.now() - batchStarted < budgetMs) {
        current = continuation;
        continue;
      }
      if (env.WEBHOOK_QUEUE) await env.WEBHOOK_QUEUE.send(continuation);
      else total.continuations.push(continuation);
      return;
    }
  };

  await Promise.all(
    batch.messages.map(async (message) => {
      const ticket = parseWebhookTicket(message.body);
      try {
        if (!ticket) {
          console.error(JSON.stringify({ webhooks: "malformed ticket dropped", id: message.id }));
        } else {
          await runChain(ticket);
        }
        message.ack();
      } catch (error) {
        console.error(
          JSON.stringify({
            webhooks: "ticket failed",
            endpoint_id: ticket?.endpoint_id,
            error: errorSummary(error),
          }),
        );
        message.retry();
      } finally {
        running -= 1;
      }
    }),
  );
  return total;
}
