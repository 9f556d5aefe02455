import { httpDb } from "../../db/client";
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  type DeliveryOutcome,
  type EndpointOutcome,
  purgeExpired,
  recordOutcomes,
} from "../../db/queries/webhook-drain";
import type { Env } from "../../lib/env";
import { webhookHeaders } from "../../lib/webhook-signing";
import { checkWebhookUrl, dnsOverHttpsResolver, type Resolver } from "../../lib/webhook-url";
import { openWebhookSecret } from "./secret";

/**
 * Webhook delivery, as the cron Worker runs it each minute: claim due deliveries under a lease, POST them signed
 * (Standard Webhooks), record the outcomes, reschedule failures. At-least-once: a delivery is only ever marked
 * done after its outcome is recorded, so a crash anywhere re-sends it once its lease has expired; receivers
 * dedupe on `webhook-id`.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before the next attempt after attempt n (index n - 1); after the last, the delivery has failed. */
export const RETRY_SCHEDULE_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** Each delay is spread ±10 % so that deliveries failing together do not come back together. */
export const JITTER = 0.1;
/** A `Retry-After` longer than this is capped to it. */
export const RETRY_AFTER_CAP_MS = 24 * HOUR;
/** Stored of each response body. */
export const RESPONSE_BODY_LIMIT = 1024;
const ERROR_LIMIT = 200;

export const DEFAULT_TIMEOUT_MS = 15 * SECOND;
export const DEFAULT_CONCURRENCY = 6;
/** Deliveries claimed per tick. */
export const DEFAULT_LIMIT = 40;
/**
 * Subrequests one Worker invocation may make (the Workers Free limit; Paid plans allow far more). Each send is
 * one, a URL check resolving a new host name two more (A + AAAA over DNS-over-HTTPS), and the database calls
 * (claim, record and its one retry, purge) four.
 */
export const DEFAULT_SUBREQUESTS = 50;
const DB_SUBREQUESTS = 4;
const DNS_SUBREQUESTS = 2;

/**
 * Long enough for the whole tick, not just one send: every claimed delivery may wait for a free slot, and all
 * outcomes are recorded together at the end. Lease > tick means no second drain can claim a delivery in flight.
 */
export function defaultLeaseMs(limit: number, concurrency: number, timeoutMs: number): number {
  return (Math.ceil(limit / concurrency) + 1) * timeoutMs + MINUTE;
}

/** The jittered delay after attempt `attempt` (1-based), or null when it was the last one. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_SCHEDULE_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + (random() * 2 - 1) * JITTER));
}

/**
 * `Retry-After` as milliseconds from `nowMs`: delay-seconds or an HTTP-date. Null when absent or unreadable
 * (then the schedule alone applies).
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  // HTTP-dates name a weekday and month; this keeps Date.parse from reading "1.5" as a date.
  if (!/[A-Za-z]{3}/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** What one HTTP attempt came to. */
export type AttemptResult =
  | { statusCode: number; retryAfter: string | null; responseBody: string | null; latencyMs: number }
  | { error: string; latencyMs: number };

export interface Decision {
  status: "succeeded" | "pending" | "failed" | "abandoned";
  /** For `pending`: how long from now until the next attempt. */
  delayMs: number | null;
  /** The endpoint answered 410 Gone: it is disabled and its pending deliveries abandoned. */
  gone: boolean;
}

/**
 * The fate of a delivery after its attempt number `attempt`:
 * - 2xx: succeeded. 410: abandoned, and the endpoint disabled.
 * - anything else (other status, timeout, network error, refused URL): retried after the schedule's delay, or
 *   failed after the 10th attempt.
 * - 429 and 503 with `Retry-After`: the receiver's wait is honoured as a minimum: the delay is the larger of the
 *   schedule's and Retry-After (capped at 24 h), so a receiver can slow us down but not make us retry sooner
 *   than the schedule (nor burn its 10 attempts in minutes). It still counts as an attempt.
 */
export function decide(
  attempt: number,
  result: AttemptResult,
  random: () => number,
  nowMs: number,
): Decision {
  if ("statusCode" in result) {
    if (result.statusCode >= 200 && result.statusCode < 300)
      return { status: "succeeded", delayMs: null, gone: false };
    if (result.statusCode === 410) return { status: "abandoned", delayMs: null, gone: true };
  }
  const delay = retryDelayMs(attempt, random);
  if (delay === null) return { status: "failed", delayMs: null, gone: false };
  if ("statusCode" in result && (result.statusCode === 429 || result.statusCode === 503)) {
    const asked = parseRetryAfter(result.retryAfter, nowMs);
    if (asked !== null) {
      return {
        status: "pending",
        delayMs: Math.max(delay, Math.min(asked, RETRY_AFTER_CAP_MS)),
        gone: false,
      };
    }
  }
  return { status: "pending", delayMs: delay, gone: false };
}

/** Up to `limit` bytes of a response body as text; the rest is not read. */
async function readPrefix(response: Response, limit: number): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body cut short (timeout, reset) keeps what arrived.
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= bytes.length) break;
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
  }
  return new TextDecoder().decode(bytes);
}

function short(message: string): string {
  return message.length > ERROR_LIMIT ? `${message.slice(0, ERROR_LIMIT - 1)}…` : message;
}

/** One signed POST of a delivery, within `timeoutMs` for the whole exchange. Redirects are not followed. */
async function post(delivery: ClaimedDelivery, env: DrainEnv, timeoutMs: number): Promise<AttemptResult> {
  const body = JSON.stringify(delivery.payload);
  let secrets: string[];
  try {
    // Opened here, for this send only: the sender is the one place a signing secret exists in clear.
    secrets = await Promise.all(delivery.secrets.map((s) => openWebhookSecret(env, delivery.endpointId, s)));
  } catch (error) {
    return { error: short(`cannot open the signing secret: ${(error as Error).message}`), latencyMs: 0 };
  }
  let headers: Record<string, string>;
  try {
    // The signed timestamp is the wall clock of the send: receivers compare it with theirs.
    headers = await webhookHeaders({
      id: delivery.eventId,
      timestamp: Math.floor(Date.now() / SECOND),
      body,
      secrets,
    });
  } catch (error) {
    // A secret that cannot be used fails this delivery, not the whole tick.
    return { error: short(`cannot sign: ${(error as Error).message}`), latencyMs: 0 };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const started = Date.now();
  try {
    const response = await fetch(delivery.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: controller.signal,
    });
    const responseBody = await readPrefix(response, RESPONSE_BODY_LIMIT);
    return {
      statusCode: response.status,
      retryAfter: response.headers.get("retry-after"),
      responseBody,
      latencyMs: Date.now() - started,
    };
  } catch (error) {
    const latencyMs = Date.now() - started;
    if (controller.signal.aborted) return { error: `timeout after ${timeoutMs} ms`, latencyMs };
    return { error: short(describeFetchError(error, delivery.url)), latencyMs };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A failed fetch in words an endpoint's owner can act on. The runtime's messages are terse and differ between
 * workerd locally and Cloudflare's edge (a failed DNS lookup surfaces locally only as "internal error; reference
 * = …"), so each known spelling maps to one cause; the runtime's own text follows in parentheses.
 */
export function describeFetchError(error: unknown, url: string): string {
  const raw = error instanceof Error ? error.message : String(error);
  const host = hostOf(url) ?? url;
  const text = raw.toLowerCase();
  const cause = (words: string) => `${words} (${raw})`;
  if (/dns|name not resolved|enotfound|eai_again|getaddrinfo|could not resolve|no such host/.test(text))
    return cause(`DNS lookup failed: ${host} does not resolve`);
  if (/tls|ssl|certificate|handshake|x509/.test(text)) return cause(`TLS handshake with ${host} failed`);
  if (/timed out|timeout|etimedout/.test(text)) return cause(`timed out connecting to ${host}`);
  if (/refused|econnrefused/.test(text)) return cause(`connection refused by ${host}`);
  if (/network connection lost|reset|econnreset|disconnected|socket hang up/.test(text))
    return cause(`connection to ${host} refused or reset before a response`);
  if (/^internal error; reference = /.test(text))
    return cause(`could not connect to ${host}: the host name does not resolve or the host is unreachable`);
  return cause(`network error reaching ${host}`);
}

/** Runs `work` over `items` with at most `concurrency` at a time; results in input order. */
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

export interface DrainOptions {
  /** The clock of the whole tick; the database's `now()` when absent. */
  now?: Date;
  /** Deliveries claimed per tick (default 40). */
  limit?: number;
  /** Per send (default 15 s). */
  timeoutMs?: number;
  /** Sends in flight at once (default 6, the Workers limit on simultaneous open connections). */
  concurrency?: number;
  /** Claim lease (default: long enough for the whole tick, see defaultLeaseMs). */
  leaseMs?: number;
  /** Subrequests this invocation may make (default 50). */
  subrequests?: number;
  /** The jitter source, in [0, 1). */
  random?: () => number;
  /** Only this gallery's deliveries and expired rows: an on-demand drain for one tenant, and test isolation. */
  galleryId?: string;
  /** Host name resolution for the URL check (DNS over HTTPS by default). */
  resolve?: Resolver;
}

export interface DrainResult {
  claimed: number;
  succeeded: number;
  /** Failed this time and scheduled again. */
  rescheduled: number;
  /** Failed for the last time (attempt 10). */
  failed: number;
  /** Not to be sent again: the endpoint answered 410 or is disabled. */
  abandoned: number;
  /** Claimed but left for the next tick, for want of subrequests. */
  released: number;
  purged: { idempotencyKeys: number; uploadTokens: number };
}

/** The bindings the drain uses: the cron Worker has only these. */
export type DrainEnv = Pick<
  Env,
  | "DATABASE_URL"
  | "NEON_LOCAL_ENDPOINT"
  | "ENVIRONMENT"
  | "WEBHOOK_SECRET_KEY"
  | "WEBHOOK_SECRET_KEY_PREVIOUS"
>;

/** One tick of the cron Worker. */
export async function drain(env: DrainEnv, options: DrainOptions = {}): Promise<DrainResult> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const leaseMs = options.leaseMs ?? defaultLeaseMs(limit, concurrency, timeoutMs);
  const random = options.random ?? Math.random;
  const db = httpDb(env);

  const claim = await claimDueDeliveries(db, {
    now: options.now,
    limit,
    leaseMs,
    galleryId: options.galleryId,
  });
  // Times in this tick are the claim's clock plus the wall time elapsed since, so an injected clock moves on too.
  const claimedAt = Date.now();
  const tickMs = Date.parse(claim.now);
  const at = () => tickMs + (Date.now() - claimedAt);

  let subrequests = (options.subrequests ?? DEFAULT_SUBREQUESTS) - DB_SUBREQUESTS;
  const lookups = new Map<string, Promise<string[]>>();
  const lookup = options.resolve ?? dnsOverHttpsResolver();
  const strict = env.ENVIRONMENT !== "local";
  const gone = new Set<string>();
  const endpoints = new Map<string, EndpointOutcome>();

  const deliver = async (d: ClaimedDelivery): Promise<DeliveryOutcome> => {
    const unsent = (status: "pending" | "abandoned"): DeliveryOutcome => ({
      id: d.id,
      lease: d.lease,
      status,
      nextAttemptAt: null,
      attempt: null,
    });
    if (!d.enabled || gone.has(d.endpointId)) return unsent("abandoned");

    // A host name not yet looked up in this tick may cost a DNS lookup; reserve for it, refund if unused.
    const host = hostOf(d.url);
    const reserve =
      strict && host !== null && !isIpLiteral(host) && !lookups.has(host) ? 1 + DNS_SUBREQUESTS : 1;
    if (subrequests < reserve) return unsent("pending");
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
    const verdict = await checkWebhookUrl(d.url, { environment: env.ENVIRONMENT, resolve });
    if (reserve > 1 && !looked) subrequests += DNS_SUBREQUESTS;
    const result: AttemptResult = verdict.ok
      ? await post(d, env, timeoutMs)
      : { error: short(`url refused: ${verdict.reason}`), latencyMs: 0 };
    const finishedAt = at();
    const decision = decide(d.attemptCount + 1, result, random, Date.now());
    if (decision.gone) gone.add(d.endpointId);

    const ok = decision.status === "succeeded";
    const previous = endpoints.get(d.endpointId);
    endpoints.set(d.endpointId, {
      id: d.endpointId,
      ok,
      gone: decision.gone || (previous?.gone ?? false),
      at: new Date(attemptedAt).toISOString(),
    });

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
  if (outcomes.length > 0) {
    const record = () => recordOutcomes(db, outcomes, [...endpoints.values()]);
    // Recording is idempotent (fenced by the lease): one retry saves a re-send after a transient failure.
    await record().catch(record);
  }
  const purged = await purgeExpired(db, { now: options.now, galleryId: options.galleryId });

  const count = (status: DeliveryOutcome["status"], sent: boolean) =>
    outcomes.filter((o) => o.status === status && (o.attempt !== null) === sent).length;
  return {
    claimed: outcomes.length,
    succeeded: count("succeeded", true),
    rescheduled: count("pending", true),
    failed: count("failed", true),
    abandoned: count("abandoned", true) + count("abandoned", false),
    released: count("pending", false),
    purged,
  };
}

function isIpLiteral(host: string): boolean {
  return host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
}
