/**
 * The webhook Queue's message (`gallery-webhooks`): a ticket for one endpoint, never the deliveries themselves.
 * The drain stamps the endpoint with the ticket's token when it sends it; the consumer claims that endpoint's due
 * deliveries only while the endpoint still holds this token, so a duplicate or late copy of a ticket claims
 * nothing, and a lost one lapses with its lease into the next tick. The database stays the truth.
 */
export interface WebhookTicket {
  gallery_id: string;
  endpoint_id: string;
  /** The endpoint's dispatch_token when this ticket was issued. */
  token: string;
}

/** A body off the queue, checked: anything else is dropped (and logged) rather than retried forever. */
export function parseWebhookTicket(body: unknown): WebhookTicket | null {
  if (typeof body !== "object" || body === null) return null;
  const m = body as Record<string, unknown>;
  if (typeof m.gallery_id !== "string" || typeof m.endpoint_id !== "string" || typeof m.token !== "string")
    return null;
  return { gallery_id: m.gallery_id, endpoint_id: m.endpoint_id, token: m.token };
}

/**
 * The webhook Queue's dead-letter queue (wrangler.cron.toml), which the cron Worker also consumes. Kept out of the
 * Worker's entry module: every export of that module is an entrypoint to the runtime, which refuses a string.
 */
export const WEBHOOK_DEAD_LETTERS = "gallery-webhooks-dlq";
