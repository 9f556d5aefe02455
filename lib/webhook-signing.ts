/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
 * keyed by the secret's bytes (base64 after the `whsec_` prefix). WebCrypto only, so it runs in any Worker.
 */

export const WEBHOOK_SECRET_PREFIX = "whsec_";
export const WEBHOOK_USER_AGENT = "GalleryPlatform-Webhooks/1";

const encoder = new TextEncoder();

export interface SignInput {
  /** The `webhook-id` header: the event id. */
  id: string;
  /** The `webhook-timestamp` header: unix seconds. */
  timestamp: number;
  /** The exact bytes sent as the request body. */
  body: string;
  /** `whsec_<base64>`. */
  secret: string;
}

function secretBytes(secret: string): Uint8Array {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  if (bytes.length === 0) throw new Error("a webhook secret cannot be empty");
  return bytes;
}

function base64(bytes: ArrayBuffer): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

/** One `v1,<signature>` entry of the `webhook-signature` header. */
export async function sign({ id, timestamp, body, secret }: SignInput): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    secretBytes(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${base64(mac)}`;
}

/**
 * The headers of one delivery. `secrets` are the endpoint's current secret and, during a rotation, the previous
 * one: the signature header carries one space-separated entry per secret, so a receiver verifying with either
 * accepts the message.
 */
export async function webhookHeaders(input: {
  id: string;
  timestamp: number;
  body: string;
  secrets: readonly string[];
}): Promise<Record<string, string>> {
  const signatures = await Promise.all(
    input.secrets.map((secret) =>
      sign({ id: input.id, timestamp: input.timestamp, body: input.body, secret }),
    ),
  );
  return {
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
    "webhook-id": input.id,
    "webhook-timestamp": String(input.timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
