import { env } from "cloudflare:workers";
import worker from "../../functions/api";

/**
 * A provider's side of the connectors, for every suite that calls them: the test secrets, the signatures Meta
 * and Twilio compute with them, and a mail as Email Routing hands it to the email handler.
 */

export const APP_SECRET = "test-app-secret-0123456789abcdef";
export const VERIFY_TOKEN = "test-verify-token-42";
export const AUTH_TOKEN = "test-twilio-auth-token-0123456789";

const encoder = new TextEncoder();

async function hmac(hash: "SHA-256" | "SHA-1", secret: string, data: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
}

/** `X-Hub-Signature-256` as Meta computes it: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export async function metaSignature(body: string, secret = APP_SECRET): Promise<string> {
  const mac = await hmac("SHA-256", secret, encoder.encode(body));
  return `sha256=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** `X-Twilio-Signature` as Twilio computes it: base64 HMAC-SHA1 of the URL then each sorted name and value. */
export async function twilioSignature(url: string, form: string, secret = AUTH_TOKEN): Promise<string> {
  const params = [...new URLSearchParams(form)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const data = url + params.map(([k, v]) => k + v).join("");
  return btoa(String.fromCharCode(...(await hmac("SHA-1", secret, encoder.encode(data)))));
}

/** The headers proving a delivery to a connector, as its provider would send them for `url` and `body`. */
export async function providerProof(
  path: string,
  body: string | Uint8Array | undefined,
): Promise<Record<string, string>> {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body ?? new Uint8Array());
  if (path.startsWith("/connectors/whatsapp/")) return { "x-hub-signature-256": await metaSignature(text) };
  if (path.startsWith("/connectors/sms/")) {
    return { "x-twilio-signature": await twilioSignature(`${env.PUBLIC_BASE_URL}/v1${path}`, text) };
  }
  return {};
}

/** What the email handler is given for one routed mail (ForwardableEmailMessage), with what it rejected. */
export function routedMail(raw: string | Uint8Array, from: string, to: string) {
  const bytes = typeof raw === "string" ? encoder.encode(raw) : raw;
  const rejected: string[] = [];
  const message = {
    from,
    to,
    raw: new Blob([bytes]).stream(),
    rawSize: bytes.byteLength,
    headers: new Headers(),
    setReject: (reason: string) => {
      rejected.push(reason);
    },
    forward: async () => ({ messageId: "" }),
    reply: async () => ({ messageId: "" }),
  } as unknown as ForwardableEmailMessage;
  return { message, rejected };
}

/**
 * Runs the API Worker's email handler in workerd on one mail, as Email Routing calls it: it passes the mail on to
 * the Email Worker (wrangler.email.toml, run beside the tests' Worker), which stores it or answers the rejection.
 */
export async function receive(raw: string | Uint8Array, to: string, from = "sender@example.com") {
  const { message, rejected } = routedMail(raw, from, to);
  await worker.email!(message, env);
  return { rejected };
}
