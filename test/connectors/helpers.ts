import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { APP_SECRET, AUTH_TOKEN, metaSignature, twilioSignature, VERIFY_TOKEN } from "../helpers/connectors";
import { call, db, type TestGallery } from "../helpers/gallery";
import { CONNECTIONS, type ConnectionBody, connect } from "../inbox/helpers";

export * from "../helpers/connectors";

/** The connectors as a provider calls them: signed with the connection's test secrets, in the providers' formats. */

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
  const result = await db().execute<{
    messages: number;
    attachments: number;
    events: number;
    threads: number;
  }>(
    sql`select (select count(*)::int from inbox_messages where gallery_id = ${g.id}) as messages,
      (select count(*)::int from inbox_attachments where gallery_id = ${g.id}) as attachments,
      (select count(*)::int from inbox_threads where gallery_id = ${g.id}) as threads,
      (select count(*)::int from domain_events where gallery_id = ${g.id}
        and type like 'inbox_message.%') as events`,
  );
  return result.rows[0]!;
}

/** The member's connections, as listed. */
export async function listConnections(token: string): Promise<ConnectionBody[]> {
  const response = await call("GET", CONNECTIONS, { key: token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: ConnectionBody[] }).data;
}
