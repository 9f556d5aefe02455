import type { Env } from "../../lib/env";
import { webhookHeaders } from "../../lib/webhook-signing";
import { openWebhookSecret } from "./secret";

/**
 * One webhook send and what it comes to: the signed POST (Standard Webhooks), the retry schedule, and the fate of a
 * delivery after each attempt. Who sends when is services/webhooks/dispatch.ts.
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

/** One send's whole exchange, connect to last byte read. */
export const DEFAULT_TIMEOUT_MS = 15 * SECOND;

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

export function short(message: string): string {
  return message.length > ERROR_LIMIT ? `${message.slice(0, ERROR_LIMIT - 1)}…` : message;
}

/** What one send needs: the endpoint's URL and sealed secrets, and the event. */
export interface Send {
  endpointId: string;
  url: string;
  /** As stored: sealed (services/webhooks/secret.ts), opened just before signing. */
  secrets: string[];
  eventId: string;
  payload: Record<string, unknown>;
}

/** The bindings a send uses. */
export type SendEnv = Pick<Env, "ENVIRONMENT" | "WEBHOOK_SECRET_KEY" | "WEBHOOK_SECRET_KEY_PREVIOUS">;

/** One signed POST of a delivery, within `timeoutMs` for the whole exchange. Redirects are not followed. */
export async function post(delivery: Send, env: SendEnv, timeoutMs: number): Promise<AttemptResult> {
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

export function isIpLiteral(host: string): boolean {
  return host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
}
