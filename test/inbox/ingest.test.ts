import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { InboxMessage, InboxThread } from "../../lib/schemas/inbox";
import { call, createGallery, db, readJson, type SignedInMember, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  CONNECTIONS,
  type ConnectionBody,
  connect,
  deliver,
  deliverRaw,
  emailConnection,
  eventsOf,
  getThread,
  ISO_MS,
  listedThreads,
  type MessageBody,
  member,
  THREADS,
} from "./helpers";

/** POST /gallery/inbox/connections/{id}/messages: how connectors fill a member's inbox. */

/** A contact of `g` made through the API, its created_at set so "the newest" is known. */
async function contact(
  g: TestGallery,
  body: Record<string, unknown>,
  createdAt: string,
  archived = false,
): Promise<string> {
  const response = await call("POST", "/gallery/contacts", { key: g.key, body });
  expect(response.status, await response.clone().text()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  await db().execute(sql`update contacts set created_at = ${createdAt}::timestamptz where id = ${id}`);
  if (archived) {
    expect((await call("POST", `/gallery/contacts/${id}/archive`, { key: g.key })).status).toBe(200);
  }
  return id;
}

async function messagesOf(token: string, threadId: string, query = "dir=asc"): Promise<MessageBody[]> {
  return (await getPage<MessageBody>(token, `${THREADS}/${threadId}/messages`, query)).data;
}

describe("delivering messages", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let email: ConnectionBody;
  beforeAll(async () => {
    g = await createGallery();
    ada = await member(g);
    email = await emailConnection(ada.token);
  });

  it("an inbound message starts a thread of the connection's member, unread, and emits a content-free event", async () => {
    const response = await deliverRaw(g.key, email.id, {
      provider_thread_id: "gm-thread-1",
      provider_message_id: "<m1@example.com>",
      subject: "The large canvas",
      from: { address: "  Collector@Example.COM ", name: "Ada Collector" },
      to: ["Desk@Gallery.Example", "assistant@gallery.example"],
      body: "Hello,\n\n  is the large canvas\tstill available?  ",
      sent_at: "2025-03-04T09:30Z",
    });
    expect(response.status).toBe(201);
    const message = await readJson(InboxMessage, response);
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-z]{26}$/),
      thread_id: expect.stringMatching(/^thr_[0-9a-z]{26}$/),
      connection_id: email.id,
      direction: "inbound",
      from_address: "collector@example.com",
      from_name: "Ada Collector",
      to_addresses: ["desk@gallery.example", "assistant@gallery.example"],
      body: "Hello,\n\n  is the large canvas\tstill available?  ",
      snippet: "Hello, is the large canvas still available?",
      sent_at: "2025-03-04T09:30:00.000Z",
      read_at: null,
      provider_message_id: "<m1@example.com>",
      reply_to: [],
      authentication: null,
      forwarded_by: null,
      attachments: [],
      created_at: expect.stringMatching(ISO_MS),
    });
    expect(Object.keys(message)).toEqual(Object.keys(InboxMessage.shape));
    const thread = await getThread(ada.token, message.thread_id);
    expect(thread).toEqual({
      id: message.thread_id,
      contact_id: null,
      contact_name: "Ada Collector",
      provider_thread_id: "gm-thread-1",
      subject: "The large canvas",
      last_from: "Ada Collector",
      last_snippet: "Hello, is the large canvas still available?",
      assigned_to: null,
      channel: "email",
      connection_id: email.id,
      last_message_at: "2025-03-04T09:30:00.000Z",
      snooze_until: null,
      unread_count: 1,
      state: "open",
      triage: {
        intent: null,
        intent_probability: null,
        urgency: null,
        urgency_probability: null,
        expects_reply: null,
        escalating: null,
        corrected_intent: null,
        triaged_at: null,
      },
      created_at: message.created_at,
      updated_at: message.created_at,
    });
    expect(Object.keys(thread)).toEqual(Object.keys(InboxThread.shape));
    const events = (await eventsOf(g.id, "inbox_message.received")).filter(
      (e) => e.resource_id === message.id,
    );
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: "inbox_message.received",
        resource_id: message.id,
        data: {
          object: {
            id: message.id,
            thread_id: message.thread_id,
            connection_id: email.id,
            member_id: ada.id,
            channel: "email",
            direction: "inbound",
            contact_id: null,
            sent_at: message.sent_at,
            created_at: message.created_at,
          },
        },
      },
    ]);
    expect(JSON.stringify(events)).not.toMatch(/canvas|collector@|Ada Collector/);
    const [connection] = (await getPage<ConnectionBody>(ada.token, CONNECTIONS)).data.filter(
      (c) => c.id === email.id,
    );
    expect(connection!.last_synced_at).toBe(message.created_at);
  });

  it("a provider thread id joins its thread; the newest message sets last_*, inbound ones count unread, the first subject stays", async () => {
    const conn = await emailConnection(ada.token);
    const at = (minute: number) => `2025-05-01T10:${String(minute).padStart(2, "0")}:00Z`;
    const first = await deliver(g.key, conn.id, {
      provider_thread_id: "t-1",
      subject: "First subject",
      from: { address: "bea@example.com", name: "Bea" },
      body: "first",
      sent_at: at(10),
    });
    const reply = await deliver(ada.token, conn.id, {
      direction: "outbound",
      provider_thread_id: "t-1",
      subject: "Re: First subject",
      from: { address: "desk@gallery.example", name: "Ada at the gallery" },
      to: ["bea@example.com"],
      body: "reply",
      sent_at: at(20),
    });
    expect([reply.thread_id, reply.read_at, reply.direction]).toEqual([first.thread_id, null, "outbound"]);
    let thread = await getThread(ada.token, first.thread_id);
    expect(thread).toMatchObject({
      subject: "First subject",
      last_from: "Ada at the gallery",
      last_snippet: "reply",
      last_message_at: "2025-05-01T10:20:00.000Z",
      unread_count: 1,
    });
    // Delivered late but sent earlier than the newest: counted, but last_* stay.
    const late = await deliver(g.key, conn.id, {
      provider_thread_id: "t-1",
      from: { address: "bea@example.com" },
      body: "late",
      sent_at: at(15),
    });
    expect(late.thread_id).toBe(first.thread_id);
    thread = await getThread(ada.token, first.thread_id);
    expect(thread).toMatchObject({ last_snippet: "reply", last_from: "Ada at the gallery", unread_count: 2 });
    const newest = await deliver(g.key, conn.id, {
      provider_thread_id: "t-1",
      from: { address: "bea@example.com" },
      body: "newest",
      sent_at: at(30),
    });
    thread = await getThread(ada.token, first.thread_id);
    expect(thread).toMatchObject({
      last_snippet: "newest",
      last_from: "bea@example.com",
      last_message_at: "2025-05-01T10:30:00.000Z",
      unread_count: 3,
      updated_at: newest.created_at,
    });
    expect((await messagesOf(ada.token, first.thread_id)).map((m) => m.id)).toEqual([
      first.id,
      late.id,
      reply.id,
      newest.id,
    ]);
    // Another provider thread id, or the same one on another connection, is another thread.
    const other = await deliver(g.key, conn.id, { provider_thread_id: "t-2", sent_at: at(40) });
    const elsewhere = await deliver(g.key, email.id, { provider_thread_id: "t-1", sent_at: at(40) });
    expect(new Set([first.thread_id, other.thread_id, elsewhere.thread_id]).size).toBe(3);
  });

  it("without a provider thread id, each message starts a thread of its own", async () => {
    const conn = await emailConnection(ada.token);
    const a = await deliver(g.key, conn.id, { body: "one" });
    const b = await deliver(g.key, conn.id, { body: "two" });
    expect(a.thread_id).not.toBe(b.thread_id);
    const ids = (await listedThreads(ada.token)).map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([a.thread_id, b.thread_id]));
  });

  it("a provider message id already stored answers 200 with the stored message; nothing changes, nothing is emitted", async () => {
    const conn = await emailConnection(ada.token);
    const stored = await deliver(g.key, conn.id, {
      provider_thread_id: "dup-thread",
      provider_message_id: "wamid.1",
      body: "original",
    });
    const before = await getThread(ada.token, stored.thread_id);
    const eventsBefore = (await eventsOf(g.id, "inbox_message.received")).length;
    for (const change of [{}, { body: "a different text", sent_at: "2025-06-01T00:00:00Z" }]) {
      const again = await deliverRaw(g.key, conn.id, {
        provider_thread_id: "dup-thread",
        provider_message_id: "wamid.1",
        ...change,
      });
      expect(again.status).toBe(200);
      expect(await readJson(InboxMessage, again)).toEqual(stored);
    }
    // Without a provider thread id, a message id stored on any of the connection's threads is the same message.
    const loose = await deliverRaw(ada.token, conn.id, { provider_message_id: "wamid.1" });
    expect(loose.status).toBe(200);
    expect(await readJson(InboxMessage, loose)).toEqual(stored);
    expect(await getThread(ada.token, stored.thread_id)).toEqual(before);
    expect(await messagesOf(ada.token, stored.thread_id)).toEqual([stored]);
    expect((await eventsOf(g.id, "inbox_message.received")).length).toBe(eventsBefore);
    // The same provider message id on another provider thread, or on another connection, is another message.
    const otherThread = await deliver(g.key, conn.id, {
      provider_thread_id: "dup-thread-2",
      provider_message_id: "wamid.1",
    });
    const otherConnection = await deliver(g.key, email.id, {
      provider_thread_id: "dup-thread",
      provider_message_id: "wamid.1",
    });
    expect(new Set([stored.id, otherThread.id, otherConnection.id]).size).toBe(3);
  });

  it("an outbound message is the member's own: not unread, and emitted as inbox_message.sent", async () => {
    const conn = await emailConnection(ada.token);
    const sent = await deliver(ada.token, conn.id, {
      direction: "outbound",
      from: { address: "desk@gallery.example" },
      to: ["Someone@Example.com", "cc@example.com"],
      body: "Our catalogue",
    });
    const thread = await getThread(ada.token, sent.thread_id);
    expect([thread.unread_count, thread.contact_name, thread.last_from]).toEqual([
      0,
      null,
      "desk@gallery.example",
    ]);
    const events = (await eventsOf(g.id, "inbox_message.sent")).filter((e) => e.resource_id === sent.id);
    expect(events.map((e) => (e.data.object as { direction: string }).direction)).toEqual(["outbound"]);
  });

  it("the snippet is the first 200 characters with whitespace collapsed; a body of 100,000 characters is taken", async () => {
    const conn = await emailConnection(ada.token);
    const body = `${"é😀 ".repeat(40)}\n${"x".repeat(100_000 - 121)}`;
    expect(Array.from(body).length).toBeLessThanOrEqual(100_000);
    const message = await deliver(g.key, conn.id, { body: body.slice(0, 100_000) });
    expect(Array.from(message.snippet!)).toHaveLength(200);
    expect(message.snippet!.startsWith("é😀 é😀 ")).toBe(true);
    expect(message.snippet).not.toContain("\n");
  });

  it("concurrent deliveries of one new provider thread make one thread that counts them all", async () => {
    const conn = await emailConnection(ada.token);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        deliverRaw(g.key, conn.id, {
          provider_thread_id: "busy",
          body: `message ${i}`,
          sent_at: `2025-07-01T10:${10 + i}:00Z`,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    const threads = (await listedThreads(ada.token)).filter((t) => t.connection_id === conn.id);
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ unread_count: 12, last_snippet: "message 11" });
  });

  it("concurrent deliveries of one provider message store it once", async () => {
    const conn = await emailConnection(ada.token);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        deliverRaw(g.key, conn.id, { provider_thread_id: "same", provider_message_id: "SM-1" }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
    const [thread] = (await listedThreads(ada.token)).filter((t) => t.connection_id === conn.id);
    expect(thread!.unread_count).toBe(1);
    expect(await messagesOf(ada.token, thread!.id)).toHaveLength(1);
    // A delivery that lost the race is told to retry; the retry answers the stored message.
    expect(
      (await deliverRaw(g.key, conn.id, { provider_thread_id: "same", provider_message_id: "SM-1" })).status,
    ).toBe(200);
  });

  it("replays a delivery retried with its Idempotency-Key", async () => {
    const conn = await emailConnection(ada.token);
    const headers = { "Idempotency-Key": `ingest-${crypto.randomUUID()}` };
    const first = await deliverRaw(g.key, conn.id, { body: "once" }, headers);
    const again = await deliverRaw(g.key, conn.id, { body: "once" }, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    const threads = (await listedThreads(ada.token)).filter((t) => t.connection_id === conn.id);
    expect(threads).toHaveLength(1);
  });
});

describe("delivering messages: bad input", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let email: ConnectionBody;
  let sms: ConnectionBody;
  beforeAll(async () => {
    g = await createGallery();
    ada = await member(g);
    email = await emailConnection(ada.token);
    sms = await connect(ada.token, { channel: "sms", address: "+1 212 555 0101", provider: "twilio" });
  });

  it.each([
    ["from.address", "email", { from: { address: "not an email" } }],
    ["from.address", "email", { from: { address: "+1 415 555 0100" } }],
    ["to.1", "email", { to: ["desk@gallery.example", "nope"] }],
    ["from.address", "sms", { from: { address: "collector@example.com" }, to: ["+12125550101"] }],
    ["to.0", "sms", { from: { address: "+44 20 7946 0958" }, to: ["212-555-0101"] }],
    ["from.address", "email", { from: { address: "" } }],
    ["from.address", "email", { from: {} }],
    ["from.nickname", "email", { from: { address: "a@example.com", nickname: "A" } }],
    ["from", "email", { from: undefined }],
    ["to", "email", { to: [] }],
    ["to", "email", { to: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) }],
    ["to", "email", { to: "desk@gallery.example" }],
    ["direction", "email", { direction: "sideways" }],
    ["body", "email", { body: "x".repeat(100_001) }],
    ["body", "email", { body: "a\u0000b" }],
    ["body", "email", { body: undefined }],
    ["sent_at", "email", { sent_at: "2025-03-04T09:30:00+01:00" }],
    ["sent_at", "email", { sent_at: "2025-02-29T09:30:00Z" }],
    ["sent_at", "email", { sent_at: undefined }],
    ["provider_thread_id", "email", { provider_thread_id: "" }],
    ["provider_message_id", "email", { provider_message_id: "a\nb" }],
    ["subject", "email", { subject: 42 }],
    ["thread_id", "email", { thread_id: "thr_01jd4xk9v2c7h8m3n5p6q7r8s9" }],
  ])("400 naming %s (%s, case %#); nothing is stored", async (field, channel, change) => {
    const connection = channel === "email" ? email : sms;
    const response = await deliverRaw(g.key, connection.id, change as never);
    await expectProblem(response, 400, "invalid_request", { field, location: "body" });
    expect(await listedThreads(ada.token)).toEqual([]);
  });

  it("every address that is not one is named", async () => {
    const response = await deliverRaw(g.key, email.id, {
      from: { address: "x" },
      to: ["desk@gallery.example", "y", "z@example.com", "w"],
    });
    const problem = await expectProblem(response, 400, "invalid_request");
    expect(problem.details!.map((d) => d.field)).toEqual(["from.address", "to.1", "to.3"]);
  });
});

describe("delivering messages: who may", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let bea: SignedInMember;
  let adas: ConnectionBody;
  beforeAll(async () => {
    g = await createGallery();
    [ada, bea] = [await member(g), await member(g)];
    adas = await emailConnection(ada.token);
  });

  it("a secret key delivers to any connection of its gallery; the owner's session to its own", async () => {
    expect((await deliverRaw(g.key, adas.id)).status).toBe(201);
    expect((await deliverRaw(ada.token, adas.id)).status).toBe(201);
    expect(await listedThreads(ada.token)).toHaveLength(2);
  });

  it("another member's session gets 404, as for an unknown connection; nothing is stored", async () => {
    const before = await listedThreads(ada.token);
    await expectProblem(await deliverRaw(bea.token, adas.id), 404, "not_found");
    await expectProblem(await deliverRaw(bea.token, crypto.randomUUID()), 404, "not_found");
    await expectProblem(await deliverRaw(g.key, crypto.randomUUID()), 404, "not_found");
    expect(await listedThreads(ada.token)).toEqual(before);
    expect(await listedThreads(bea.token)).toEqual([]);
  });

  it("another gallery's key gets 404", async () => {
    const other = await createGallery();
    await expectProblem(await deliverRaw(other.key, adas.id), 404, "not_found");
  });

  it("a key without inbox:create, and a viewer's session, are refused", async () => {
    const key = await g.keyWith(["inbox:read"]);
    const refused = await expectProblem(await deliverRaw(key, adas.id), 403, "forbidden");
    expect(refused.details).toHaveProperty("missing_scopes", ["inbox:create"]);
    const viewer = await member(g, "viewer");
    await expectProblem(await deliverRaw(viewer.token, adas.id), 403, "forbidden");
  });
});

describe("the thread's contact", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let email: ConnectionBody;
  let sms: ConnectionBody;
  let whatsapp: ConnectionBody;
  beforeAll(async () => {
    g = await createGallery();
    ada = await member(g);
    email = await emailConnection(ada.token);
    sms = await connect(ada.token, { channel: "sms", address: "+1 212 555 0101", provider: "twilio" });
    whatsapp = await connect(ada.token, {
      channel: "whatsapp",
      address: "+1 212 555 0102",
      provider: "twilio",
    });
  });

  it("matches by email in any spelling; an unarchived contact before a newer archived one", async () => {
    // An email belongs to one unarchived contact: the archived one is made (and archived) first.
    await contact(g, { name: "Ada Archived", email: "ada@example.com" }, "2024-06-01T00:00:00Z", true);
    const current = await contact(
      g,
      { name: "Ada Current", email: "Ada@Example.com" },
      "2024-01-01T00:00:00Z",
    );
    const message = await deliver(g.key, email.id, {
      from: { address: "  ADA@example.COM", name: "A. Lovelace" },
    });
    const thread = await getThread(ada.token, message.thread_id);
    expect([thread.contact_id, thread.contact_name]).toEqual([current, "Ada Current"]);
    const event = (await eventsOf(g.id, "inbox_message.received")).find((e) => e.resource_id === message.id);
    expect((event!.data.object as { contact_id: string }).contact_id).toBe(current);
  });

  it("matches an archived contact when no other has the address", async () => {
    const archived = await contact(
      g,
      { name: "Only Archived", email: "gone@example.com" },
      "2024-01-01T00:00:00Z",
      true,
    );
    const message = await deliver(g.key, email.id, { from: { address: "Gone@Example.com" } });
    expect((await getThread(ada.token, message.thread_id)).contact_id).toBe(archived);
  });

  it("matches by phone in E.164, whatever the spellings on either side; the newest unarchived contact wins", async () => {
    await contact(g, { name: "Older", phone: "+44 (0)20 7946 0958" }, "2024-01-01T00:00:00Z");
    const newer = await contact(g, { name: "Newer", phone: "0044 20-7946-0958" }, "2024-03-01T00:00:00Z");
    await contact(g, { name: "Newest archived", phone: "+442079460958" }, "2024-09-01T00:00:00Z", true);
    await contact(g, { name: "National spelling", phone: "020 7946 0958" }, "2025-01-01T00:00:00Z");
    for (const [connection, from] of [
      [sms, "+44.20.7946.0958"],
      [whatsapp, "+442079460958"],
    ] as const) {
      const message = await deliver(g.key, connection.id, {
        from: { address: from },
        to: [connection.address],
      });
      expect(message.from_address).toBe("+442079460958");
      const thread = await getThread(ada.token, message.thread_id);
      expect([thread.contact_id, thread.contact_name, thread.channel]).toEqual([
        newer,
        "Newer",
        connection.channel,
      ]);
    }
  });

  it("an outbound message's counterpart is its first recipient", async () => {
    const bea = await contact(g, { name: "Bea", email: "bea@example.com" }, "2024-01-01T00:00:00Z");
    const message = await deliver(ada.token, email.id, {
      direction: "outbound",
      from: { address: "desk@gallery.example", name: "Ada" },
      to: ["BEA@example.com", "ada@example.com"],
    });
    const thread = await getThread(ada.token, message.thread_id);
    expect([thread.contact_id, thread.contact_name, thread.last_from]).toEqual([bea, "Bea", "Ada"]);
  });

  it("no contact: the counterpart's display name; a contact added later is linked by the next message", async () => {
    const first = await deliver(g.key, email.id, {
      provider_thread_id: "later-contact",
      from: { address: "newcomer@example.com", name: "New Comer" },
    });
    expect(await getThread(ada.token, first.thread_id)).toMatchObject({
      contact_id: null,
      contact_name: "New Comer",
    });
    const created = await contact(
      g,
      { name: "Newcomer Contact", email: "newcomer@example.com" },
      "2025-01-01T00:00:00Z",
    );
    await deliver(ada.token, email.id, {
      direction: "outbound",
      provider_thread_id: "later-contact",
      from: { address: "desk@gallery.example" },
      to: ["someone-else@example.com"],
    });
    expect(await getThread(ada.token, first.thread_id)).toMatchObject({
      contact_id: created,
      contact_name: "Newcomer Contact",
    });
    const byContact = await walkPages(ada.token, THREADS, { contact_id: created });
    expect(byContact.flatMap((p) => p.data).map((t) => (t as { id: string }).id)).toEqual([first.thread_id]);
  });
});
