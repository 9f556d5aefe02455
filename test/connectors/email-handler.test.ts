import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { EMAIL_MAX_BYTES } from "../../lib/connectors/email";
import { judgeUntilSettled } from "../helpers/engine-loop";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { type ConnectionBody, connect, getThread, listedThreads, member, THREADS } from "../inbox/helpers";
import becky from "./fixtures/email/becky-iso-2022-jp.eml?raw";
import foxmail from "./fixtures/email/foxmail-gbk.eml?raw";
import gmailAttachments from "./fixtures/email/gmail-attachments.eml?raw";
import gmailEnquiry from "./fixtures/email/gmail-enquiry.eml?raw";
import gmailForward from "./fixtures/email/gmail-forward.eml?raw";
import gmailReply from "./fixtures/email/gmail-reply.eml?raw";
import outlookLatin1 from "./fixtures/email/outlook-de-latin1.eml?raw";
import phoneShiftJis from "./fixtures/email/phone-shift-jis.eml?raw";
import spoof from "./fixtures/email/spoof-dmarc-fail.eml?raw";
import { inboxCounts, receive, routedMail } from "./helpers";

/**
 * The Email connector end to end in workerd: the API Worker's email handler, passing it on to the Email Worker
 * (run beside the tests' Worker, test/auxiliary-workers.ts), given the mail Email Routing routes to
 * a connection's inbound address, the thread and message read back by the member, and the engine's triage.
 */

type Message = Record<string, unknown> & { attachments: Record<string, unknown>[] };

async function messagesOf(token: string, threadId: string): Promise<Message[]> {
  const response = await call("GET", `${THREADS}/${threadId}/messages?limit=50&dir=asc`, { key: token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Message[] }).data;
}

describe("the email handler", () => {
  let g: TestGallery;
  let token: string;
  let desk: ConnectionBody;
  let contactId: string;

  beforeAll(async () => {
    g = await createGallery();
    token = (await member(g)).token;
    desk = await connect(token, {
      channel: "email",
      address: "desk@gallery.example",
      provider: "cloudflare",
    });
    const created = await call("POST", "/gallery/contacts", {
      key: g.key,
      body: { name: "Sophie Marchetti", email: "Sophie.Marchetti@gmail.com" },
    });
    contactId = ((await created.json()) as { id: string }).id;
  });

  it("stores a routed mail in the member's inbox, matched to the contact, and the engine triages it", async () => {
    const { rejected } = await receive(gmailEnquiry, desk.inbound_address!, "sophie.marchetti@gmail.com");
    expect(rejected).toEqual([]);
    const [thread] = await listedThreads(token, { channel: "email" });
    expect(thread).toMatchObject({
      connection_id: desk.id,
      contact_id: contactId,
      contact_name: "Sophie Marchetti",
      provider_thread_id: "CAH7mL0q3Yd5x0u1Rk2fJm0d9Zc8VJXb0uQq8u1mT4s6hY7p2Lw@mail.gmail.com",
      unread_count: 1,
    });
    expect(thread!.subject).toMatch(/^Enquiry about “Harbour at Dusk”/);
    const [message] = await messagesOf(token, thread!.id);
    expect(message).toMatchObject({
      direction: "inbound",
      from_address: "sophie.marchetti@gmail.com",
      from_name: "Sophie Marchetti",
      authentication: { spf: "pass", dkim: "pass", dmarc: "pass", failed: false },
      forwarded_by: null,
    });
    await judgeUntilSettled(g);
    const triaged = await getThread(token, thread!.id);
    expect(triaged.triage.triaged_at).not.toBeNull();
    expect(["availability", "price_request", "purchase_inquiry"]).toContain(triaged.triage.intent);
  });

  it("stores nothing new when the same mail is delivered again", async () => {
    const before = await inboxCounts(g);
    const { rejected } = await receive(gmailEnquiry, desk.inbound_address!);
    expect(rejected).toEqual([]);
    expect(await inboxCounts(g)).toEqual(before);
  });

  it("threads a reply by its References into the conversation it answers", async () => {
    await receive(gmailReply, desk.inbound_address!);
    const threads = (await listedThreads(token, { channel: "email" })).filter((t) =>
      t.subject?.includes("Harbour at Dusk"),
    );
    expect(threads).toHaveLength(1);
    const messages = await messagesOf(token, threads[0]!.id);
    expect(messages).toHaveLength(2);
    expect(messages[1]!.reply_to).toContain(
      "CAH7mL0q3Yd5x0u1Rk2fJm0d9Zc8VJXb0uQq8u1mT4s6hY7p2Lw@mail.gmail.com",
    );
    expect(threads[0]!.unread_count).toBe(2);
  });

  it.each([
    ["ISO-2022-JP (Becky!)", becky, "作品「夜の港」についてのお問い合わせ", "山田 太郎"],
    ["Shift_JIS (a Japanese phone)", phoneShiftJis, "【ご質問】版画の額装について", "髙橋 花子"],
    ["GBK (Foxmail)", foxmail, "询价：水墨画《秋山图》", "王喆"],
    ["ISO-8859-1 (Outlook, German)", outlookLatin1, "Anfrage zum Gemälde »Spätsommer«", "Dr. Klaus Becker"],
  ])("decodes mail in %s: subject, sender and text", async (_, raw, subject, name) => {
    await receive(raw, desk.inbound_address!);
    const thread = (await listedThreads(token, { channel: "email" })).find((t) => t.subject === subject);
    expect(thread, subject).toBeDefined();
    expect(thread!.last_from).toBe(name);
    const [message] = await messagesOf(token, thread!.id);
    expect(message!.body).not.toMatch(/\uFFFD/);
    expect(String(message!.snippet).length).toBeGreaterThan(10);
  });

  it("stores attachments in R2, lists them on the message, and serves them to the member only", async () => {
    await receive(gmailAttachments, desk.inbound_address!);
    const thread = (await listedThreads(token, { channel: "email" })).find(
      (t) => t.subject === "Frame damaged on delivery",
    )!;
    const [message] = await messagesOf(token, thread.id);
    expect(message!.body).not.toContain("JVBERi0"); // the PDF's base64 is not inlined
    const pdf = message!.attachments.find((a) => a.content_type === "application/pdf")!;
    expect(pdf).toMatchObject({ filename: "Condition report – frame.pdf", disposition: "attachment" });
    expect(pdf.download_url).toBe(
      `https://api.test/v1/gallery/inbox/messages/${message!.id}/attachments/${pdf.id}`,
    );
    expect(message!.attachments.map((a) => a.disposition)).toContain("inline");
    const path = `/gallery/inbox/messages/${message!.id}/attachments/${pdf.id}`;
    const download = await call("GET", path, { key: token });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toContain(
      "filename*=UTF-8''Condition%20report%20%E2%80%93%20frame.pdf",
    );
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBe(pdf.size);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const stranger = (await member(g)).token;
    await expectProblem(await call("GET", path, { key: stranger }), 404, "not_found");
    await expectProblem(await call("GET", path, { key: g.key }), 403, "forbidden");
  });

  it("recovers the client as the sender of a mail a member forwarded", async () => {
    const own = await connect(token, {
      channel: "email",
      address: "mira.okafor@gallery.example",
      provider: "google",
    });
    await receive(gmailForward, own.inbound_address!, "mira.okafor@gallery.example");
    const [thread] = (await listedThreads(token, { channel: "email" })).filter(
      (t) => t.connection_id === own.id,
    );
    expect(thread).toMatchObject({ subject: "Anfrage: Radierung „Nordlicht“", last_from: "Hans Weber" });
    const [message] = await messagesOf(token, thread!.id);
    expect(message).toMatchObject({
      direction: "inbound",
      from_address: "hans.weber@weber-sammlung.de",
      forwarded_by: "mira.okafor@gallery.example",
    });
  });

  it("keeps mail that failed authentication, marked, and the engine reads it as likely spam", async () => {
    await receive(spoof, desk.inbound_address!);
    const thread = (await listedThreads(token, { channel: "email" })).find(
      (t) => t.subject === "Change of bank details",
    )!;
    const [message] = await messagesOf(token, thread.id);
    expect(message!.authentication).toMatchObject({ dmarc: "fail", failed: true });
    await judgeUntilSettled(g);
    const why = await call("GET", `${THREADS}/${thread.id}/triage`, { key: token });
    const explained = (await why.json()) as { triage: { signals: string[]; intent: string } };
    expect(explained.triage.signals.join(" ")).toContain("failed authentication");
    expect(explained.triage.intent).toBe("spam");
  });

  it("rejects, storing nothing, mail to an unknown address and mail over the size bound", async () => {
    const before = await inboxCounts(g);
    const unknown = await receive(gmailEnquiry, `in+${"0".repeat(32)}@inbox.gallery.example`);
    expect(unknown.rejected).toEqual([expect.stringMatching(/^550 5\.1\.1/)]);
    const malformed = await receive(gmailEnquiry, "desk@gallery.example");
    expect(malformed.rejected).toEqual([expect.stringMatching(/^550 5\.1\.1/)]);
    const { message, rejected } = routedMail(gmailAttachments, "a@example.com", desk.inbound_address!);
    Object.defineProperty(message, "rawSize", { value: EMAIL_MAX_BYTES + 1 });
    const { default: worker } = await import("../../functions/api");
    await worker.email!(message, env);
    expect(rejected).toEqual([expect.stringMatching(/^552 5\.3\.4/)]);
    expect(await inboxCounts(g)).toEqual(before);
  });
});
