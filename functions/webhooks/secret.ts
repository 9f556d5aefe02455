import type { Context } from "hono";
import type { AppEnv } from "../../lib/env";
import { REPLAYED_HEADER } from "../../lib/idempotency";
import { WEBHOOK_SECRET_PREFIX } from "../../lib/webhook-signing";

/** A signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  let s = "";
  for (const b of crypto.getRandomValues(new Uint8Array(32))) s += String.fromCharCode(b);
  return `${WEBHOOK_SECRET_PREFIX}${btoa(s)}`;
}

/**
 * Adds a freshly minted secret to a write's response. What executeWrite stores for replays (Postgres and KV)
 * holds `secret: null`, so the secret is shown once and a replay carries null.
 */
export async function revealSecret(
  c: Context<AppEnv>,
  response: Response,
  secret: string,
): Promise<Response> {
  if (response.headers.get(REPLAYED_HEADER) === "true") return response;
  const stored = (await response.json()) as Record<string, unknown>;
  c.header("Cache-Control", "no-store");
  return c.json({ ...stored, secret }, response.status as 200 | 201);
}
