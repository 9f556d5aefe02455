import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { call, createGallery, db, type SignedInMember, type TestGallery } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  type ConnectionBody,
  deliver,
  emailConnection,
  eventsOf,
  getThread,
  ISO_MS,
  type MessageBody,
  markThread,
  member,
  setThreadColumns,
  THREADS,
} from "./helpers";

/** POST /gallery/inbox/threads/{id}/read: read or unread, and the unread_count it recomputes. */

describe("marking a thread read and unread", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let bea: SignedInMember;
  let conn: ConnectionBody;

  beforeAll(async () => {
    g = await createGallery();
    [ada, bea] = [await member(g), await member(g)];
    conn = await emailConnection(ada.token);
  });

  /** A thread with `inbound` messages from a collector and one outbound reply. */
  async function conversation(inbound: number): Promise<string> {
    const thread = `conversation-${crypto.randomUUID()}`;
    let id = "";
    for (let i = 0; i < inbound; i++) {
      id = (await deliver(g.key, conn.id, { provider_thread_id: thread, body: `ask ${i}` })).thread_id;
    }
    await deliver(ada.token, conn.id, {
      direction: "outbound",
      provider_thread_id: thread,
      from: { address: "desk@gallery.example" },
      to: ["collector@example.com"],
    });
    return id;
  }

  async function messages(id: string): Promise<MessageBody[]> {
    return (await getPage<MessageBody>(ada.token, `${THREADS}/${id}/messages`, "dir=asc")).data;
  }

  const marks = async (id: string) =>
    (await eventsOf(g.id, "inbox_thread.marked_read"))
      .concat(await eventsOf(g.id, "inbox_thread.marked_unread"))
      .filter((e) => e.resource_id === id);

  it("read (no body) marks every inbound message read and unread_count 0; unread marks them all unread again", async () => {
    const id = await conversation(3);
    expect((await getThread(ada.token, id)).unread_count).toBe(3);

    const { thread: read } = await markThread(ada.token, id);
    expect(read.unread_count).toBe(0);
    const afterRead = await messages(id);
    const inbound = afterRead.filter((m) => m.direction === "inbound");
    expect(inbound).toHaveLength(3);
    expect(inbound.every((m) => ISO_MS.test(m.read_at ?? ""))).toBe(true);
    expect(new Set(inbound.map((m) => m.read_at)).size).toBe(1);
    expect(afterRead.find((m) => m.direction === "outbound")!.read_at).toBeNull();
    expect(await getThread(ada.token, id)).toEqual(read);

    const { thread: unread } = await markThread(ada.token, id, { read: false });
    expect(unread.unread_count).toBe(3);
    expect((await messages(id)).map((m) => m.read_at)).toEqual([null, null, null, null]);

    const { thread: again } = await markThread(ada.token, id, { read: true });
    expect(again.unread_count).toBe(0);

    const events = await marks(id);
    expect(events.map((e) => [e.type, (e.data.object as { unread_count: number }).unread_count])).toEqual([
      ["inbox_thread.marked_read", 0],
      ["inbox_thread.marked_read", 0],
      ["inbox_thread.marked_unread", 3],
    ]);
    // The bodies ("ask 0", …) and the recipient must not leak; "ask" as a word, since random ids may hold it.
    expect(JSON.stringify(events)).not.toMatch(/\bask \d|collector@/);
  });

  it("a call that changes nothing emits nothing and answers the thread", async () => {
    const id = await conversation(1);
    await markThread(ada.token, id, {});
    const before = await getThread(ada.token, id);
    const { thread } = await markThread(ada.token, id, {});
    expect(thread).toEqual(before);
    await markThread(ada.token, id, { read: false });
    const unread = await getThread(ada.token, id);
    expect((await markThread(ada.token, id, { read: false })).thread).toEqual(unread);
    expect((await marks(id)).map((e) => e.type)).toEqual([
      "inbox_thread.marked_read",
      "inbox_thread.marked_unread",
    ]);
  });

  it("unread_count follows deliveries between marks; read keeps earlier read_at; unread clears every one", async () => {
    const id = await conversation(2);
    await markThread(ada.token, id);
    const readAt = (await messages(id)).filter((m) => m.direction === "inbound").map((m) => m.read_at);
    const thread = (await getThread(ada.token, id)).provider_thread_id!;
    await deliver(g.key, conn.id, { provider_thread_id: thread, body: "one more" });
    expect((await getThread(ada.token, id)).unread_count).toBe(1);
    await markThread(ada.token, id);
    const inbound = (await messages(id)).filter((m) => m.direction === "inbound");
    expect(inbound.slice(0, 2).map((m) => m.read_at)).toEqual(readAt);
    expect(inbound[2]!.read_at).not.toBeNull();
    expect((await markThread(ada.token, id, { read: false })).thread.unread_count).toBe(3);
  });

  it("a count that drifted from the messages is repaired by the next mark", async () => {
    const id = await conversation(2);
    await setThreadColumns(id, { unread_count: 7 });
    expect((await markThread(ada.token, id, { read: false })).thread.unread_count).toBe(2);
    await setThreadColumns(id, { unread_count: 5 });
    expect((await markThread(ada.token, id)).thread.unread_count).toBe(0);
  });

  it("replays a mark retried with its Idempotency-Key, even after the thread changed; the key with another body is refused", async () => {
    const id = await conversation(2);
    const headers = { "Idempotency-Key": `read-${crypto.randomUUID()}` };
    const first = await markThread(ada.token, id, { read: true }, headers);
    const firstText = await first.response.clone().text();
    await markThread(ada.token, id, { read: false });
    const again = await markThread(ada.token, id, { read: true }, headers);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.response.text()).toBe(firstText);
    expect((await getThread(ada.token, id)).unread_count).toBe(2);
    const other = await call("POST", `${THREADS}/${id}/read`, {
      key: ada.token,
      body: { read: false },
      headers,
    });
    await expectProblem(other, 400, "idempotency_key_reused");
  });

  it.each([
    ["read", { read: "yes" }],
    ["read", { read: null }],
    ["unread", { unread: true }],
  ])("400 naming %s (case %#); nothing changes", async (field, body) => {
    const id = await conversation(1);
    const response = await call("POST", `${THREADS}/${id}/read`, { key: ada.token, body });
    await expectProblem(response, 400, "invalid_request", { field, location: "body" });
    expect((await getThread(ada.token, id)).unread_count).toBe(1);
  });

  it("another member's thread is 404, and keeps its unread messages", async () => {
    const id = await conversation(1);
    await expectProblem(await call("POST", `${THREADS}/${id}/read`, { key: bea.token }), 404, "not_found");
    await expectProblem(await call("POST", `${THREADS}/${newId("thr")}/read`, { key: ada.token }), 404);
    expect((await getThread(ada.token, id)).unread_count).toBe(1);
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from inbox_messages where thread_id = ${id} and read_at is not null`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
