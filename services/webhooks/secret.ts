import { WEBHOOK_SECRET_PREFIX } from "../../lib/webhook-signing";

/** A signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  let s = "";
  for (const b of crypto.getRandomValues(new Uint8Array(32))) s += String.fromCharCode(b);
  return `${WEBHOOK_SECRET_PREFIX}${btoa(s)}`;
}
