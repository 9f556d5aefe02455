import { beforeAll, describe, expect, it } from "vitest";
import { policyHeader, RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import { InboxMessage } from "../../lib/schemas/inbox";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { type ConnectionBody, connect, listedThreads, member, THREADS } from "../inbox/helpers";
import image from "./fixtures/whatsapp/image.json?raw";
import reply from "./fixtures/whatsapp/reply.json?raw";
import statusDelivered from "./fixtures/whatsapp/status-delivered.json?raw";
import text from "./fixtures/whatsapp/text.json?raw";
import twoContacts from "./fixtures/whatsapp/two-contacts.json?raw";
import {
  APP_SECRET,
  inboxCounts,
  metaSignature,
  postWhatsApp,
  VERIFY_TOKEN,
  whatsappConnection,
} from "./helpers";

/** GET and POST /connectors/whatsapp/{connection_id}: the WhatsApp Business Cloud API webhook, end to end. */

describe("the WhatsApp webhook", () => {
  let g: TestGallery;
  let token: string;
  let connection: ConnectionBody;
  let contactId: string;

  beforeAll(async () => {
    g = await createGallery();
    token = (await member(g)).token;
    connection = await whatsappConnection(token);
    const created = await call("POST", "/gallery/contacts", {
      key: g.key,
      body: { name: "Sheena Nelson", phone: "+1 650-555-1234" },
    });
    expect(created.status).toBe(201);
    contactId = ((await created.json()) as { id: string }).id;
  });

  it("shows its URL and the names of its secrets, never their values", () => {
    expect(connection.webhook_url).toBe(`https://api.test/v1/connectors/whatsapp/${connection.id}`);
    expect(connection.inbound_address).toBeNull();
    expect(connection.secrets).toEqual(["app_secret", "verify_token"]);
    expect(JSON.stringify(connection)).not.toContain(APP_SECRET);
  });

  it("answers Meta's verification handshake only with the connection's verify token", async () => {
    const path = `/connectors/whatsapp/${connection.id}`;
    const ok = await call(
      "GET",
      `${path}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe("1158201444");
    await expectProblem(
      await call("GET", `${path}?hub.mode=subscribe&hub.verify_token=wrong-token&hub.challenge=1`),
      401,
      "unauthenticated",
    );
    await expectProblem(
      await call("GET", `${path}?hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`),
      401,
      "unauthenticated",
    );
  });

  it("stores a signed text message in the member's inbox, matched to the contact by phone", async () => {
    const before = await inboxCounts(g);
    const response = await postWhatsApp(connection.id, text);
    expect(response.status, await response.clone().text()).toBe(200);
    // Counted against the connection, not a key.
    expect(response.headers.get("ratelimit-policy")).toBe(policyHeader(RATE_LIMIT_POLICIES.connector));
    const result = (await response.json()) as { received: number; stored: number; message_ids: string[] };
    expect(result).toMatchObject({ received: 1, stored: 1, already_stored: 0, statuses: 0 });
    const threads = await listedThreads(token, { channel: "whatsapp" });
    const thread = threads.find((t) => t.provider_thread_id === "+16505551234")!;
    expect(thread).toMatchObject({
      contact_id: contactId,
      contact_name: "Sheena Nelson",
      connection_id: connection.id,
      unread_count: 1,
      last_snippet: "Is the large blue canvas from the spring show still available?",
      last_message_at: "2025-06-08T20:59:43.000Z",
    });
    const messages = await call("GET", `${THREADS}/${thread.id}/messages`, { key: token });
    const [message] = ((await messages.json()) as { data: Record<string, unknown>[] }).data;
    expect(message).toMatchObject({
      id: result.message_ids[0],
      direction: "inbound",
      from_address: "+16505551234",
      from_name: "Sheena Nelson",
      to_addresses: ["+15550783881"],
      provider_message_id: "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=",
      attachments: [],
      authentication: null,
    });
    const after = await inboxCounts(g);
    expect(after.messages - before.messages).toBe(1);
    expect(after.events - before.events).toBe(1);
  });

  it("stores nothing new when Meta delivers the same message again", async () => {
    const before = await inboxCounts(g);
    const response = await postWhatsApp(connection.id, text);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: 1, stored: 0, already_stored: 1 });
    expect(await inboxCounts(g)).toEqual(before);
  });

  it("refuses, storing nothing, a delivery that is unsigned, signed with another secret, or altered", async () => {
    const before = await inboxCounts(g);
    await expectProblem(await postWhatsApp(connection.id, image, null), 401, "unauthenticated");
    const wrong = await postWhatsApp(connection.id, image, await metaSignature(image, "another-app-secret"));
    const problem = await expectProblem(wrong, 401, "unauthenticated");
    expect(problem.detail).toContain("X-Hub-Signature-256");
    // Counted by client address, not against the connection: the caller is not proved to be Meta.
    expect(wrong.headers.get("ratelimit-policy")).toBe(policyHeader(RATE_LIMIT_POLICIES.client_ip));
    const signature = await metaSignature(image);
    const altered = image.replace("16505551234", "16505551235");
    await expectProblem(await postWhatsApp(connection.id, altered, signature), 401, "unauthenticated");
    await expectProblem(await postWhatsApp(connection.id, image, "sha256=abc"), 401, "unauthenticated");
    expect(await inboxCounts(g)).toEqual(before);
  });

  it("records media by id and type, never its bytes, and threads a reply in the sender's conversation", async () => {
    expect((await postWhatsApp(connection.id, image)).status).toBe(200);
    const replied = await postWhatsApp(connection.id, reply);
    expect(replied.status).toBe(200);
    const threads = (await listedThreads(token, { channel: "whatsapp" })).filter(
      (t) => t.provider_thread_id === "+16505551234",
    );
    expect(threads).toHaveLength(1);
    const page = await call("GET", `${THREADS}/${threads[0]!.id}/messages?limit=10&dir=asc`, { key: token });
    const messages = ((await page.json()) as { data: Record<string, unknown>[] }).data;
    const withImage = messages.find((m) => (m.attachments as unknown[]).length > 0)!;
    expect(withImage.attachments).toEqual([
      expect.objectContaining({
        content_type: "image/jpeg",
        download_url: null,
        provider_url: null,
        provider_media_id: expect.stringMatching(/^\d+$/),
      }),
    ]);
    const answer = messages.find((m) => (m.reply_to as string[]).length > 0)!;
    expect(answer.reply_to).toEqual([expect.stringMatching(/^wamid\./)]);
  });

  it("stores each message of a delivery with several, each in its sender's conversation", async () => {
    const fresh = await whatsappConnection(token);
    const response = await postWhatsApp(fresh.id, twoContacts);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: 2, stored: 2 });
    const threads = (await listedThreads(token, { channel: "whatsapp" })).filter(
      (t) => t.connection_id === fresh.id,
    );
    expect(threads).toHaveLength(2);
  });

  it("counts status callbacks and stores no message for them", async () => {
    const before = await inboxCounts(g);
    const response = await postWhatsApp(connection.id, statusDelivered);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: 0, stored: 0, statuses: 1 });
    expect(await inboxCounts(g)).toEqual(before);
  });

  it("answers a signed payload that is not a WhatsApp delivery with 400, and malformed JSON too", async () => {
    const before = await inboxCounts(g);
    const notWhatsApp = JSON.stringify({ object: "page", entry: "nope" });
    await expectProblem(await postWhatsApp(connection.id, notWhatsApp), 400, "invalid_request");
    await expectProblem(await postWhatsApp(connection.id, '{"object": "whatsapp_business_account",'), 400);
    expect(await inboxCounts(g)).toEqual(before);
  });

  it("is 404 for an unknown connection, another channel's, and refuses every delivery until secrets are set", async () => {
    await expectProblem(await postWhatsApp(crypto.randomUUID(), text), 404, "not_found");
    await expectProblem(await postWhatsApp("not-a-uuid", text), 404, "not_found");
    const sms = await connect(token, { channel: "sms", address: "+442079460001", provider: "twilio" });
    await expectProblem(await postWhatsApp(sms.id, text), 404, "not_found");
    const bare = await connect(token, { channel: "whatsapp", address: "+442079460002", provider: "meta" });
    expect(bare.secrets).toEqual([]);
    const refused = await expectProblem(await postWhatsApp(bare.id, text), 401, "unauthenticated");
    expect(refused.detail).toContain("app_secret");
  });

  it("reads the stored message as the member's, and never another gallery's", async () => {
    const other = await createGallery();
    const otherToken = (await member(other)).token;
    const threads = await listedThreads(otherToken);
    expect(threads).toEqual([]);
    const mine = (await listedThreads(token, { channel: "whatsapp" }))[0]!;
    await expectProblem(await call("GET", `${THREADS}/${mine.id}`, { key: otherToken }), 404, "not_found");
    const page = await call("GET", `${THREADS}/${mine.id}/messages`, { key: token });
    const [first] = ((await page.json()) as { data: unknown[] }).data;
    expect(InboxMessage.safeParse(first).success).toBe(true);
  });
});
