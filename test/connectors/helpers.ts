import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import worker from "../../functions/api";
import { call, db, type TestGallery } from "../helpers/gallery";
import { CONNECTIONS, type ConnectionBody, connect } from "../inbox/helpers";

/** The connectors as a provider calls them: signed with the connection's test secrets, in the providers' formats. */

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

/** A WhatsApp connection of the member with its app secret and verify token. */
export function whatsappConnection(token: string, address = randomPhone()): Promise<ConnectionBody> {
  return connect(token, {
    channel: "whatsapp",
    provider: "meta",
    address,
    secrets: { app_secret: APP_SECRET, verify_token: VERIFY_TOKEN },
  });
}

/** An SMS connection of the member with its Twilio auth token. */
export function smsConnection(token: string, address = randomPhone()): Promise<ConnectionBody> {
  return connect(token, {
    channel: "sms",
    provider: "twilio",
    address,
    secrets: { auth_token: AUTH_TOKEN },
  });
}

/** A UK number no other test uses. */
export function randomPhone(): string {
  return `+4420${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

/** POSTs a WhatsApp delivery, signed unless `signature` says otherwise. */
export async function postWhatsApp(connectionId: string, body: string, signature?: string | null) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const sig = signature === undefined ? await metaSignature(body) : signature;
  if (sig !== null) headers["x-hub-signature-256"] = sig;
  return call("POST", `/connectors/whatsapp/${connectionId}`, { rawBody: body, headers });
}

/** POSTs a Twilio webhook (form-encoded), signed for the public URL unless `signature` says otherwise. */
export async function postTwilio(connectionId: string, form: string, signature?: string | null) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  const url = `${env.PUBLIC_BASE_URL}/v1/connectors/sms/${connectionId}`;
  const sig = signature === undefined ? await twilioSignature(url, form) : signature;
  if (sig !== null) headers["x-twilio-signature"] = sig;
  return call("POST", `/connectors/sms/${connectionId}`, { rawBody: form, headers });
}

/** Rows of the gallery's inbox: messages, attachments and message events, to show that nothing was added. */
export async function inboxCounts(g: TestGallery) {
  const result = await db().execute<{ messages: number; attachments: number; events: number; threads: number }>(
    sql`select (select count(*)::int from inbox_messages where gallery_id = ${g.id}) as messages,
      (select count(*)::int from inbox_attachments where gallery_id = ${g.id}) as attachments,
      (select count(*)::int from inbox_threads where gallery_id = ${g.id}) as threads,
      (select count(*)::int from domain_events where gallery_id = ${g.id}
        and type like 'inbox_message.%') as events`,
  );
  return result.rows[0]!;
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

/** Runs the API Worker's email handler in workerd on one mail, as Email Routing calls it. */
export async function receive(raw: string | Uint8Array, to: string, from = "sender@example.com") {
  const { message, rejected } = routedMail(raw, from, to);
  const ctx = createExecutionContext();
  await worker.email!(message, env, ctx);
  await waitOnExecutionContext(ctx);
  return { rejected };
}

/** The member's connections, as listed. */
export async function listConnections(token: string): Promise<ConnectionBody[]> {
  const response = await call("GET", CONNECTIONS, { key: token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: ConnectionBody[] }).data;
}
