import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { call, createGallery, type SignedInMember, type TestGallery } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  connect,
  deliver,
  emailConnection,
  expectMemberPrivate,
  getThread,
  insertConnection,
  listedThreads,
  type MessageBody,
  markThread,
  member,
  patchThread,
  setThreadColumns,
  THREADS,
  type ThreadBody,
  threadPage,
} from "./helpers";

/**
 * GET /gallery/inbox/threads (filters, sorts, priority), GET /gallery/inbox/threads/{id} and its messages: a
 * member's own inbox over a fixed set of threads whose every filterable field is known. Each expected set is
 * computed here from the threads as read one by one, independently of the list's SQL.
 */

const minutes = (n: number) => new Date(Date.UTC(2025, 3, 1, 9, 0) + n * 60_000).toISOString();
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const URGENCY_RANK: Record<string, number> = { now: 0, today: 1, this_week: 2, later: 3 };

/** Descending with nulls last, for the priority comparator. */
function desc(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return b - a;
}

/** The priority order, as the spec states it: expects a reply, urgency, intent belief, then recency. */
function byPriority(a: ThreadBody, b: ThreadBody): number {
  const rank = (t: ThreadBody) => (t.triage.urgency === null ? null : -URGENCY_RANK[t.triage.urgency]!);
  return (
    desc(a.triage.expects_reply, b.triage.expects_reply) ||
    desc(rank(a), rank(b)) ||
    desc(a.triage.intent_probability, b.triage.intent_probability) ||
    (a.last_message_at === b.last_message_at ? 0 : a.last_message_at < b.last_message_at ? 1 : -1) ||
    (a.id < b.id ? 1 : -1)
  );
}

function byKeyDesc(key: "last_message_at" | "created_at") {
  return (a: ThreadBody, b: ThreadBody) =>
    a[key] === b[key] ? (a.id < b.id ? 1 : -1) : a[key] < b[key] ? 1 : -1;
}

type Filter = Record<string, string>;

/** The filters as predicates over a thread as the API shows it. */
function matches(t: ThreadBody, f: Filter): boolean {
  if (f.state && t.state !== f.state) return false;
  if (f.channel && t.channel !== f.channel) return false;
  if (f.assigned_to && t.assigned_to !== f.assigned_to) return false;
  if (f.contact_id && t.contact_id !== f.contact_id) return false;
  if (f.unread === "true" && t.unread_count === 0) return false;
  if (f.unread === "false" && t.unread_count > 0) return false;
  if (f.q) {
    const q = f.q.toLowerCase();
    const fields = [t.subject, t.contact_name, t.last_from, t.last_snippet];
    if (!fields.some((v) => v?.toLowerCase().includes(q))) return false;
  }
  return true;
}

describe("the inbox list", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let bea: SignedInMember;
  let buyer: string;
  let caller: string;
  /** Ada's threads, as GET /gallery/inbox/threads/{id} shows each one after the setup. */
  let threads: ThreadBody[];
  /** Bea's, which Ada must never see. */
  let beas: string[];

  beforeAll(async () => {
    g = await createGallery();
    [ada, bea] = [await member(g), await member(g)];
    const contact = async (body: Record<string, unknown>) => {
      const response = await call("POST", "/gallery/contacts", { key: g.key, body });
      return ((await response.json()) as { id: string }).id;
    };
    buyer = await contact({ name: "Blue Buyer", email: "buyer@example.com" });
    caller = await contact({ name: "Phone Caller", phone: "+1 (646) 555-0199" });
    const email = await emailConnection(ada.token);
    const whatsapp = await connect(ada.token, { channel: "whatsapp", address: "+12125550102" });
    const sms = await connect(ada.token, { channel: "sms", address: "+12125550103" });
    const inbound = (
      connection: { id: string; address: string },
      n: number,
      from: string,
      more: Record<string, unknown> = {},
    ) =>
      deliver(g.key, connection.id, {
        from: { address: from },
        to: [connection.address],
        sent_at: minutes(n),
        ...more,
      });

    const made: MessageBody[] = [];
    // 0: the buyer asks a price, assigned to Ada, triaged.
    made.push(await inbound(email, 10, "buyer@example.com", { subject: "Price of the blue painting" }));
    // 1: Ada's own message out, then done.
    made.push(
      await deliver(ada.token, email.id, {
        direction: "outbound",
        from: { address: "desk@gallery.example", name: "Ada" },
        to: ["friend@example.com"],
        subject: "Catalogue",
        body: "The catalogue, as promised.",
        sent_at: minutes(20),
      }),
    );
    // 2: the caller on WhatsApp, snoozed for an hour.
    made.push(
      await inbound(whatsapp, 30, "+1 646 555 0199", { body: "Call me back about 50% of the deposit" }),
    );
    // 3: a stranger by SMS, snoozed, and the snooze already over.
    made.push(await inbound(sms, 40, "+44 7700 900123", { body: "courier_outside with the crate" }));
    // 4: a shipper's quote, read, assigned to Bea.
    made.push(
      await inbound(email, 50, "quotes@shipper.example", {
        subject: "Shipping quote",
        from: { address: "quotes@shipper.example", name: "Shipper Co" },
      }),
    );
    // 5: the caller again, urgent.
    made.push(await inbound(whatsapp, 60, "+16465550199", { body: "Are you open now?" }));
    // 6: the buyer, later, a sure intent but little expected.
    made.push(await inbound(email, 70, "buyer@example.com", { subject: "Thank you" }));
    // 7: an SMS triaged for urgency only.
    made.push(await inbound(sms, 80, "+33 6 12 34 56 78", { body: "Bonjour" }));
    // 8: untriaged, the most recent.
    made.push(await inbound(email, 90, "press@review.example", { subject: "Image request" }));
    const ids = made.map((m) => m.thread_id);

    await patchThread(ada.token, ids[0]!, {
      assigned_to: ada.id,
      triage: { expects_reply: 0.9, urgency: "today", intent_probability: 0.8, intent: "price_request" },
    });
    await patchThread(ada.token, ids[1]!, { state: "done" });
    await patchThread(ada.token, ids[2]!, { state: "snoozed", snooze_until: inAnHour() });
    await patchThread(ada.token, ids[3]!, { state: "snoozed", snooze_until: inAnHour() });
    await setThreadColumns(ids[3]!, { snooze_until: new Date(Date.now() - 60_000).toISOString() });
    await markThread(ada.token, ids[4]!);
    await patchThread(ada.token, ids[4]!, {
      assigned_to: bea.id,
      triage: { expects_reply: 0.9, urgency: "today" },
    });
    await patchThread(ada.token, ids[5]!, {
      triage: { expects_reply: 0.9, urgency: "now", intent_probability: 0.5, intent: "availability" },
    });
    await patchThread(ada.token, ids[6]!, {
      triage: { expects_reply: 0.2, urgency: "later", intent_probability: 0.99, intent: "other" },
    });
    await patchThread(ada.token, ids[7]!, { triage: { urgency: "now" } });

    threads = [];
    for (const id of ids) threads.push(await getThread(ada.token, id));

    const beaEmail = await emailConnection(bea.token);
    beas = [
      (await deliver(g.key, beaEmail.id, { from: { address: "buyer@example.com" }, subject: "blue" }))
        .thread_id,
      (await deliver(g.key, beaEmail.id, { from: { address: "other@example.com" } })).thread_id,
    ];
    await patchThread(bea.token, beas[0]!, { assigned_to: ada.id });
  });

  it("the setup reads as intended: an expired snooze is open, contacts matched, counts kept", () => {
    expect(threads.map((t) => t.state)).toEqual([
      "open",
      "done",
      "snoozed",
      "open",
      "open",
      "open",
      "open",
      "open",
      "open",
    ]);
    expect(threads[3]!.snooze_until).toBeNull();
    expect(threads[2]!.snooze_until).not.toBeNull();
    expect(threads.map((t) => t.contact_id)).toEqual([
      buyer,
      null,
      caller,
      null,
      null,
      caller,
      buyer,
      null,
      null,
    ]);
    expect(threads.map((t) => t.unread_count)).toEqual([1, 0, 1, 1, 0, 1, 1, 1, 1]);
    expect(threads.map((t) => t.channel)).toEqual([
      "email",
      "email",
      "whatsapp",
      "sms",
      "email",
      "whatsapp",
      "email",
      "sms",
      "email",
    ]);
  });

  it("lists the member's own threads, most recent activity first, across pages", async () => {
    const listed = await listedThreads(ada.token);
    expect(listed).toEqual([...threads].sort(byKeyDesc("last_message_at")));
    expect(listed.map((t) => t.id)).not.toEqual(expect.arrayContaining([beas[0]]));
    const beaListed = (await listedThreads(bea.token)).map((t) => t.id);
    expect(beaListed.sort()).toEqual([...beas].sort());
  });

  it("sorts by created and by last message, in both directions", async () => {
    for (const [sort, key] of [
      ["created", "created_at"],
      ["last_message", "last_message_at"],
    ] as const) {
      const expected = [...threads].sort(byKeyDesc(key)).map((t) => t.id);
      expect((await listedThreads(ada.token, { sort })).map((t) => t.id)).toEqual(expected);
      expect((await listedThreads(ada.token, { sort, dir: "asc" })).map((t) => t.id)).toEqual(
        [...expected].reverse(),
      );
    }
  });

  const single: Filter[] = [
    { state: "open" },
    { state: "snoozed" },
    { state: "done" },
    { channel: "email" },
    { channel: "whatsapp" },
    { channel: "sms" },
    { unread: "true" },
    { unread: "false" },
    { q: "blue" },
    { q: "SHIPPER" },
    { q: "phone caller" },
    { q: "50%" },
    { q: "courier_" },
    { q: "_" },
    { q: "catalogue, as" },
    { q: "painting blue buyer" },
    { q: "x".repeat(200) },
  ];

  it.each(single.map((f) => [new URLSearchParams(f).toString(), f]))("filter %s", async (_, f) => {
    const expected = threads.filter((t) => matches(t, f)).sort(byKeyDesc("last_message_at"));
    expect((await listedThreads(ada.token, f)).map((t) => t.id)).toEqual(expected.map((t) => t.id));
  });

  it("filters by assignee and contact (ids only known at run time), and finds nothing for others'", async () => {
    const filters: Filter[] = [
      { assigned_to: ada.id },
      { assigned_to: bea.id },
      { assigned_to: newId("mem") },
      { contact_id: buyer },
      { contact_id: caller },
      { contact_id: newId("con") },
    ];
    for (const f of filters) {
      const expected = threads.filter((t) => matches(t, f)).map((t) => t.id);
      expect((await listedThreads(ada.token, f)).map((t) => t.id).sort()).toEqual(expected.sort());
    }
    expect((await listedThreads(ada.token, { assigned_to: ada.id })).map((t) => t.id)).toEqual([
      threads[0]!.id,
    ]);
  });

  it("combines filters", async () => {
    const combos: Filter[] = [
      { state: "open", channel: "email" },
      { unread: "true", channel: "whatsapp" },
      { contact_id: caller, state: "open" },
      { contact_id: buyer, unread: "true", q: "thank" },
      { assigned_to: bea.id, state: "open", unread: "false" },
      { state: "open", channel: "sms", unread: "true", q: "crate" },
      { state: "done", unread: "true" },
    ];
    let nonEmpty = 0;
    for (const f of combos) {
      const expected = threads.filter((t) => matches(t, f)).sort(byKeyDesc("last_message_at"));
      if (expected.length > 0) nonEmpty++;
      expect((await listedThreads(ada.token, f)).map((t) => t.id)).toEqual(expected.map((t) => t.id));
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(5);
  });

  it("priority=true orders by triage in one page of `limit`, with no cursor", async () => {
    const expected = [...threads].sort(byPriority).map((t) => t.id);
    // Sanity: the order differs from recency, and the untriaged threads come last.
    expect(expected).not.toEqual([...threads].sort(byKeyDesc("last_message_at")).map((t) => t.id));
    expect(expected.slice(0, 3)).toEqual([threads[5]!.id, threads[0]!.id, threads[4]!.id]);
    const page = await threadPage(ada.token, "priority=true");
    expect(page.data.map((t) => t.id)).toEqual(expected);
    expect(page.next_cursor).toBeNull();
    const limited = await threadPage(ada.token, "priority=true&limit=4");
    expect(limited.data.map((t) => t.id)).toEqual(expected.slice(0, 4));
    expect(limited.next_cursor).toBeNull();
    const filtered = await threadPage(ada.token, "priority=true&state=open&channel=email");
    expect(filtered.data.map((t) => t.id)).toEqual(
      [...threads]
        .filter((t) => matches(t, { state: "open", channel: "email" }))
        .sort(byPriority)
        .map((t) => t.id),
    );
    const off = await threadPage(ada.token, "priority=false&sort=created&limit=100");
    expect(off.data.map((t) => t.id)).toEqual([...threads].sort(byKeyDesc("created_at")).map((t) => t.id));
  });

  it.each([
    ["cursor", "priority=true&cursor=abc"],
    ["sort", "priority=true&sort=created"],
    ["dir", "priority=true&dir=asc"],
    ["priority", "priority=yes"],
    ["q", "q="],
    ["q", `q=${"x".repeat(201)}`],
    ["state", "state=archived"],
    ["channel", "channel=fax"],
    ["assigned_to", "assigned_to=someone"],
    ["contact_id", "contact_id=art_01jd4xk9v2c7h8m3n5p6q7r8s9"],
    ["unread", "unread=1"],
    ["sort", "sort=priority"],
    ["limit", "limit=0"],
  ])("400 naming %s (%s)", async (field, query) => {
    await expectProblem(
      await call("GET", `${THREADS}?${query}`, { key: ada.token }),
      400,
      "invalid_request",
      {
        field,
      },
    );
  });

  it("retrieves a thread and its messages; another member's is 404", async () => {
    expect(await getThread(ada.token, threads[0]!.id)).toEqual(threads[0]);
    const messages = await getPage<MessageBody>(ada.token, `${THREADS}/${threads[0]!.id}/messages`);
    expect(messages.data.map((m) => m.thread_id)).toEqual([threads[0]!.id]);
    for (const path of [
      `${THREADS}/${beas[0]}`,
      `${THREADS}/${beas[0]}/messages`,
      `${THREADS}/${newId("thr")}`,
    ]) {
      await expectProblem(await call("GET", path, { key: ada.token }), 404, "not_found");
    }
    await expectProblem(
      await call("GET", `${THREADS}/${threads[0]!.id}`, { key: bea.token }),
      404,
      "not_found",
    );
  });

  it("a secret key is refused with the member-private sentence on every thread operation", async () => {
    const id = threads[0]!.id;
    await expectMemberPrivate(await call("GET", THREADS, { key: g.key }));
    await expectMemberPrivate(await call("GET", `${THREADS}?priority=true`, { key: g.key }));
    await expectMemberPrivate(await call("GET", `${THREADS}/${id}`, { key: g.key }));
    await expectMemberPrivate(await call("GET", `${THREADS}/${id}/messages`, { key: g.key }));
    await expectMemberPrivate(
      await call("PATCH", `${THREADS}/${id}`, { key: g.key, body: { state: "done" } }),
    );
    await expectMemberPrivate(await call("POST", `${THREADS}/${id}/read`, { key: g.key }));
    expect(await getThread(ada.token, id)).toEqual(threads[0]);
  });

  it("another gallery's member sees an empty inbox and 404s", async () => {
    const stranger = await member(await createGallery());
    expect((await threadPage(stranger.token, "")).data).toEqual([]);
    expect((await threadPage(stranger.token, "priority=true")).data).toEqual([]);
    await expectProblem(await call("GET", `${THREADS}/${threads[0]!.id}`, { key: stranger.token }), 404);
  });
});

describe("a thread's messages", () => {
  it("lists them by sent_at, newest first by default, across pages", async () => {
    const g = await createGallery();
    const ada = await member(g);
    const conn = await emailConnection(ada.token);
    const sent = [35, 5, 20, 50, 10];
    const made: MessageBody[] = [];
    for (const n of sent) {
      made.push(await deliver(g.key, conn.id, { provider_thread_id: "conversation", sent_at: minutes(n) }));
    }
    const threadId = made[0]!.thread_id;
    const byTime = [...made].sort((a, b) => (a.sent_at < b.sent_at ? 1 : -1)).map((m) => m.id);
    const first = await getPage<MessageBody>(ada.token, `${THREADS}/${threadId}/messages`, "limit=2");
    const rest: string[] = [];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await getPage<MessageBody>(
        ada.token,
        `${THREADS}/${threadId}/messages`,
        `limit=2&cursor=${cursor}`,
      );
      rest.push(...page.data.map((m) => m.id));
      cursor = page.next_cursor;
    }
    expect([...first.data.map((m) => m.id), ...rest]).toEqual(byTime);
    const asc = await getPage<MessageBody>(ada.token, `${THREADS}/${threadId}/messages`, "dir=asc");
    expect(asc.data.map((m) => m.id)).toEqual([...byTime].reverse());
  });
});

describe("a viewer's inbox", () => {
  it("a viewer reads its own threads but cannot change them (inbox:update and inbox:create are write scopes)", async () => {
    const g = await createGallery();
    const viewer = await member(g, "viewer");
    const connectionId = await insertConnection(g.id, viewer.id, "viewer@gallery.example");
    const message = await deliver(g.key, connectionId, { subject: "For the viewer" });
    const listed = await listedThreads(viewer.token);
    expect(listed.map((t) => t.id)).toEqual([message.thread_id]);
    expect((await threadPage(viewer.token, "priority=true")).data).toHaveLength(1);
    const patch = await call("PATCH", `${THREADS}/${message.thread_id}`, {
      key: viewer.token,
      body: { state: "done" },
    });
    expect((await expectProblem(patch, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "inbox:update",
    ]);
    const read = await call("POST", `${THREADS}/${message.thread_id}/read`, { key: viewer.token });
    expect((await expectProblem(read, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "inbox:create",
    ]);
    expect(await getThread(viewer.token, message.thread_id)).toEqual(listed[0]);
  });
});
