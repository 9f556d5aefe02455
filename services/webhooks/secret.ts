import { openSecret, type SecretBoxKeys, sealSecret } from "../../lib/secret-box";
import { WEBHOOK_SECRET_PREFIX } from "../../lib/webhook-signing";

/** A signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  let s = "";
  for (const b of crypto.getRandomValues(new Uint8Array(32))) s += String.fromCharCode(b);
  return `${WEBHOOK_SECRET_PREFIX}${btoa(s)}`;
}

/** What the endpoint row stores of a signing secret: sealed with WEBHOOK_SECRET_KEY, bound to the endpoint. */
export function sealWebhookSecret(keys: SecretBoxKeys, endpointId: string, secret: string): Promise<string> {
  return sealSecret(keys, secret, endpointId);
}

/**
 * A stored signing secret as the sender needs it. Plaintext `whsec_` values (rows written before secrets were
 * sealed) are read as they are.
 */
export function openWebhookSecret(keys: SecretBoxKeys, endpointId: string, stored: string): Promise<string> {
  return openSecret(keys, stored, endpointId, WEBHOOK_SECRET_PREFIX);
}
