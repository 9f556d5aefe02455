/**
 * `npm run inbox:sample`: a provider's delivery to the local stack, as it arrives in production.
 *
 *   npm run inbox:sample -- email [--file some.eml]      a mail routed to an email connection's inbound address
 *   npm run inbox:sample -- whatsapp                      a WhatsApp Cloud API webhook, signed (X-Hub-Signature-256)
 *   npm run inbox:sample -- sms                           a Twilio incoming-message webhook, signed (X-Twilio-Signature)
 *                        [--api-url http://127.0.0.1:8787/v1] [--email editor@… --password …]
 *
 * Signs in as the demo editor (the credentials `npm start` saved in .data/local-keys.json, or --email and
 * --password), finds or makes the editor's sample connection of that channel (provider `sample`), sets its
 * provider secrets to fresh values the script signs with, and delivers the sample: the mail through wrangler's
 * local email endpoint (`POST /cdn-cgi/handler/email`, which calls the Worker's email handler), a webhook to the
 * connection's `webhook_url`. Each run stamps a new provider message id, so each run adds a message. It then
 * reads the thread back with the editor's session and waits for the engine's triage (the cron Worker's sweep
 * judges it within a few seconds when the Queue does not), and prints both.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { LOCAL_KEYS_PATH, loadLocalKeys } from "./local-keys";

const SAMPLES = new URL("../test/connectors/fixtures/", import.meta.url);
const SAMPLE_NUMBER = "+442079460999";
const TRIAGE_WAIT_MS = 20_000;

type Channel = "email" | "whatsapp" | "sms";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "api-url": { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    file: { type: "string" },
  },
});
const channel = positionals[0] as Channel | undefined;
if (!channel || !["email", "whatsapp", "sms"].includes(channel)) {
  console.error("usage: npm run inbox:sample -- email|whatsapp|sms [--file some.eml]");
  process.exit(2);
}
const api = (values["api-url"] ?? process.env.GALLERY_API_URL ?? "http://127.0.0.1:8787/v1").replace(
  /\/+$/,
  "",
);
const origin = new URL(api).origin;

async function request(path: string, init: RequestInit & { token?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  return fetch(`${api}${path}`, { ...init, headers });
}

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function signIn(): Promise<string> {
  const saved = loadLocalKeys();
  const email = values.email ?? saved?.editor.email;
  const password = values.password ?? saved?.editor.password;
  if (!email || !password) {
    throw new Error(
      `no member to sign in as: start the stack once (npm start writes ${LOCAL_KEYS_PATH}) or pass --email and --password`,
    );
  }
  const body = JSON.stringify({ email, password });
  return (await json<{ token: string }>(await request("/auth/sessions", { method: "POST", body }), "sign-in"))
    .token;
}

interface Connection {
  id: string;
  channel: Channel;
  provider: string;
  inbound_address: string | null;
  webhook_url: string | null;
}

/** The editor's sample connection of the channel, made on the first run; its secrets set to `secrets`. */
async function sampleConnection(token: string, secrets: Record<string, string>): Promise<Connection> {
  const page = await json<{ data: Connection[] }>(
    await request("/gallery/inbox/connections?limit=100", { token }),
    "listing connections",
  );
  let connection = page.data.find((c) => c.channel === channel && c.provider === "sample");
  if (!connection) {
    const address =
      channel === "email" ? `samples-${randomUUID().slice(0, 8)}@gallery.example` : SAMPLE_NUMBER;
    connection = await json<Connection>(
      await request("/gallery/inbox/connections", {
        method: "POST",
        token,
        body: JSON.stringify({ provider: "sample", channel, address }),
      }),
      "connecting the sample account",
    );
  }
  if (Object.keys(secrets).length === 0) return connection;
  return json<Connection>(
    await request(`/gallery/inbox/connections/${connection.id}`, {
      method: "PATCH",
      token,
      body: JSON.stringify({ secrets }),
    }),
    "setting the sample connection's secrets",
  );
}

async function sendEmail(connection: Connection): Promise<void> {
  const path = values.file ?? new URL("email/gmail-enquiry.eml", SAMPLES);
  // A new Message-ID each run, so the inbox takes it as a new mail rather than a redelivery.
  const raw = readFileSync(path, "latin1").replace(
    /^Message-ID:.*$/im,
    `Message-ID: <${randomUUID()}@sample.example>`,
  );
  const from = /^From:.*<([^>]+)>/im.exec(raw)?.[1] ?? "sender@example.com";
  const url = `${origin}/cdn-cgi/handler/email?from=${encodeURIComponent(from)}&to=${encodeURIComponent(connection.inbound_address!)}`;
  const response = await fetch(url, { method: "POST", body: Buffer.from(raw, "latin1") });
  console.log(`mail to ${connection.inbound_address} → ${response.status} ${(await response.text()).trim()}`);
  if (!response.ok) throw new Error("the local email endpoint refused the mail");
}

async function sendWhatsApp(connection: Connection, appSecret: string): Promise<void> {
  const payload = JSON.parse(readFileSync(new URL("whatsapp/text.json", SAMPLES), "utf8"));
  const message = payload.entry[0].changes[0].value.messages[0];
  message.id = `wamid.${randomBytes(24).toString("base64")}`;
  message.timestamp = String(Math.floor(Date.now() / 1000));
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
  const response = await fetch(connection.webhook_url!, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signature },
    body,
  });
  console.log(`WhatsApp webhook → ${response.status} ${(await response.text()).trim()}`);
  if (!response.ok) throw new Error("the WhatsApp connector refused the delivery");
}

async function sendSms(connection: Connection, authToken: string): Promise<void> {
  const form = new URLSearchParams(readFileSync(new URL("twilio/sms.txt", SAMPLES), "utf8").trim());
  const sid = `SM${randomBytes(16).toString("hex")}`;
  for (const name of ["MessageSid", "SmsSid", "SmsMessageSid"]) form.set(name, sid);
  form.set("To", SAMPLE_NUMBER);
  const body = form.toString();
  const signed = [...form].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => k + v);
  const signature = createHmac("sha1", authToken)
    .update(connection.webhook_url! + signed.join(""))
    .digest("base64");
  const response = await fetch(connection.webhook_url!, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
    body,
  });
  console.log(`Twilio webhook → ${response.status} ${(await response.text()).trim()}`);
  if (!response.ok) throw new Error("the SMS connector refused the delivery");
}

interface Thread {
  id: string;
  subject: string | null;
  last_from: string | null;
  last_snippet: string | null;
  triage: {
    intent: string | null;
    urgency: string | null;
    expects_reply: number | null;
    triaged_at: string | null;
  };
}

async function main(): Promise<void> {
  const token = await signIn();
  const secret = randomBytes(24).toString("base64url");
  const secrets: Record<string, string> =
    channel === "whatsapp"
      ? { app_secret: secret, verify_token: `verify-${secret.slice(0, 12)}` }
      : channel === "sms"
        ? { auth_token: secret }
        : {};
  const connection = await sampleConnection(token, secrets);
  const started = Date.now();
  if (channel === "email") await sendEmail(connection);
  else if (channel === "whatsapp") await sendWhatsApp(connection, secret);
  else await sendSms(connection, secret);

  const newest = async () =>
    (
      await json<{ data: Thread[] }>(
        await request(`/gallery/inbox/threads?channel=${channel}&sort=created&limit=1`, { token }),
        "reading the inbox",
      )
    ).data[0];
  let thread = await newest();
  if (!thread) throw new Error("no thread in the inbox");
  console.log(`thread ${thread.id}: ${thread.last_from}: ${thread.subject ?? thread.last_snippet}`);
  // The engine judges the thread again for the new message; its triage changes (triaged_at moves) when the
  // message changes the reading.
  const judgedSince = (t: Thread) =>
    t.triage.triaged_at !== null && Date.parse(t.triage.triaged_at) >= started;
  while (!judgedSince(thread) && Date.now() - started < TRIAGE_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    thread = (await newest()) ?? thread;
  }
  const { triage } = thread;
  const reading = `intent ${triage.intent}, urgency ${triage.urgency}, expects a reply ${triage.expects_reply}`;
  if (judgedSince(thread)) {
    const seconds = ((Date.parse(triage.triaged_at!) - started) / 1000).toFixed(1);
    console.log(`triaged ${seconds} s after delivery: ${reading}`);
  } else if (triage.triaged_at !== null) {
    console.log(`triage unchanged by this message (judged ${triage.triaged_at}): ${reading}`);
  } else {
    console.log(`not triaged after ${TRIAGE_WAIT_MS / 1000} s: is the engine Worker running (npm start)?`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
