import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { InboxThread } from "../../lib/schemas/inbox";
import { call, createGallery, readJson, type SignedInMember, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import {
  type ConnectionBody,
  deliver,
  emailConnection,
  eventsOf,
  getThread,
  member,
  patchThread,
  setThreadColumns,
  THREADS,
  type ThreadBody,
} from "./helpers";

/** PATCH /gallery/inbox/threads/{id}: state and snooze, assignment, triage. */

const fromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

const NO_TRIAGE = {
  intent: null,
  intent_probability: null,
  urgency: null,
  urgency_probability: null,
  expects_reply: null,
  escalating: null,
  corrected_intent: null,
  triaged_at: null,
};

describe("updating a thread", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let bea: SignedInMember;
  let conn: ConnectionBody;
  const newThread = async () => (await deliver(g.key, conn.id, { subject: "Hello" })).thread_id;
  const updates = async (id: string) =>
    (await eventsOf(g.id, "inbox_thread.updated")).filter((e) => e.resource_id === id);

  beforeAll(async () => {
    g = await createGallery();
    [ada, bea] = [await member(g), await member(g)];
    conn = await emailConnection(ada.token);
  });

  it("marks a thread done: the event carries the state change and no content", async () => {
    const id = await newThread();
    const before = await getThread(ada.token, id);
    const after = await patchThread(ada.token, id, { state: "done" });
    expect(after).toEqual({ ...before, state: "done", updated_at: expect.any(String) });
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(await updates(id)).toEqual([
      {
        id: expect.any(String),
        type: "inbox_thread.updated",
        resource_id: id,
        data: {
          object: {
            id,
            member_id: ada.id,
            connection_id: conn.id,
            channel: "email",
            contact_id: null,
            assigned_to: null,
            state: "done",
            snooze_until: null,
            unread_count: 1,
            last_message_at: before.last_message_at,
            triage: NO_TRIAGE,
            created_at: before.created_at,
            updated_at: after.updated_at,
          },
          previous_attributes: { state: "open" },
        },
      },
    ]);
    // Open again; done again: each is a change.
    await patchThread(ada.token, id, { state: "open" });
    expect((await updates(id)).map((e) => e.data.previous_attributes)).toEqual([
      { state: "open" },
      { state: "done" },
    ]);
  });

  it("snoozes until a time ahead, moves the snooze, and opening clears it", async () => {
    const id = await newThread();
    const until = fromNow(60);
    const snoozed = await patchThread(ada.token, id, { state: "snoozed", snooze_until: until });
    expect([snoozed.state, snoozed.snooze_until]).toEqual(["snoozed", until]);
    const later = fromNow(120).replace(/\.\d{3}Z$/, "Z");
    const moved = await patchThread(ada.token, id, { snooze_until: later });
    expect(moved.snooze_until).toBe(new Date(later).toISOString());
    const opened = await patchThread(ada.token, id, { state: "open" });
    expect([opened.state, opened.snooze_until]).toEqual(["open", null]);
    expect((await updates(id)).map((e) => e.data.previous_attributes)).toEqual([
      { state: "open", snooze_until: null },
      { snooze_until: until },
      { state: "snoozed", snooze_until: moved.snooze_until },
    ]);
  });

  it("a snooze that has passed reads open, with no job; it is then not snoozed for the rules", async () => {
    const id = await newThread();
    await patchThread(ada.token, id, { state: "snoozed", snooze_until: fromNow(60) });
    await setThreadColumns(id, { snooze_until: new Date(Date.now() - 1000).toISOString() });
    const woke = await getThread(ada.token, id);
    expect([woke.state, woke.snooze_until]).toEqual(["open", null]);
    const eventsBefore = (await updates(id)).length;
    // Already open: nothing changes, nothing is emitted.
    expect(await patchThread(ada.token, id, { state: "open" })).toEqual(woke);
    expect((await updates(id)).length).toBe(eventsBefore);
    const alone = await call("PATCH", `${THREADS}/${id}`, {
      key: ada.token,
      body: { snooze_until: fromNow(60) },
    });
    await expectProblem(alone, 400, "invalid_request", { field: "snooze_until", location: "body" });
    const again = await patchThread(ada.token, id, { state: "snoozed", snooze_until: fromNow(30) });
    expect(again.state).toBe("snoozed");
    expect((await updates(id)).at(-1)!.data.previous_attributes).toEqual({
      state: "open",
      snooze_until: null,
    });
  });

  it.each([
    ["snooze_until", { state: "snoozed" }],
    ["snooze_until", { state: "snoozed", snooze_until: "2020-01-01T00:00:00Z" }],
    ["snooze_until", { state: "done", snooze_until: "2999-01-01T00:00:00Z" }],
    ["snooze_until", { state: "open", snooze_until: "2999-01-01T00:00:00Z" }],
    ["snooze_until", { snooze_until: "2999-01-01T00:00:00Z" }],
    ["snooze_until", { state: "snoozed", snooze_until: "2999-01-01T00:00:00+01:00" }],
    ["snooze_until", { state: "snoozed", snooze_until: null }],
    ["state", { state: "archived" }],
    ["state", { state: null }],
    ["assigned_to", { assigned_to: "ada" }],
    ["assigned_to", { assigned_to: newId("mem") }],
    ["triage.intent", { triage: { intent: "gossip" } }],
    ["triage.intent", { triage: { intent: null } }],
    ["triage.urgency", { triage: { urgency: "none" } }],
    ["triage.intent_probability", { triage: { intent_probability: 1.5 } }],
    ["triage.urgency_probability", { triage: { urgency_probability: -0.1 } }],
    ["triage.expects_reply", { triage: { expects_reply: "0.5" } }],
    ["triage.escalating", { triage: { escalating: null } }],
    ["triage.corrected_intent", { triage: { corrected_intent: "gossip" } }],
    ["triage.triaged_at", { triage: { triaged_at: "2025-01-01T00:00:00Z" } }],
    ["triage", { triage: null }],
    ["unread_count", { unread_count: 0 }],
    ["subject", { subject: "Renamed" }],
  ])("400 naming %s (case %#); the thread is unchanged", async (field, body) => {
    const id = await newThread();
    const before = await getThread(ada.token, id);
    const response = await call("PATCH", `${THREADS}/${id}`, { key: ada.token, body });
    await expectProblem(response, 400, "invalid_request", { field, location: "body" });
    expect(await getThread(ada.token, id)).toEqual(before);
    expect(await updates(id)).toEqual([]);
  });

  it("a body-less PATCH is a 400; an empty one changes nothing and emits nothing", async () => {
    const id = await newThread();
    await expectProblem(await call("PATCH", `${THREADS}/${id}`, { key: ada.token }), 400, "invalid_request");
    const before = await getThread(ada.token, id);
    expect(await patchThread(ada.token, id, {})).toEqual(before);
    expect(await updates(id)).toEqual([]);
  });

  it("assigns to a member of the gallery and unassigns; another gallery's member is a 400", async () => {
    const id = await newThread();
    expect((await patchThread(ada.token, id, { assigned_to: bea.id })).assigned_to).toBe(bea.id);
    expect((await patchThread(ada.token, id, { assigned_to: ada.id })).assigned_to).toBe(ada.id);
    expect((await patchThread(ada.token, id, { assigned_to: null })).assigned_to).toBeNull();
    const stranger = await member(await createGallery());
    const response = await call("PATCH", `${THREADS}/${id}`, {
      key: ada.token,
      body: { assigned_to: stranger.id },
    });
    await expectProblem(response, 400, "invalid_request", { field: "assigned_to", location: "body" });
    expect((await updates(id)).map((e) => e.data.previous_attributes)).toEqual([
      { assigned_to: null },
      { assigned_to: bea.id },
      { assigned_to: ada.id },
    ]);
  });

  it("stores triage: engine fields set triaged_at, the member's corrected_intent is kept until sent", async () => {
    const id = await newThread();
    const engine = {
      intent: "price_request",
      intent_probability: 0.82,
      urgency: "today",
      urgency_probability: 0.7,
      expects_reply: 0.93,
      escalating: 0.02,
    };
    const triaged = await patchThread(ada.token, id, { triage: engine });
    expect(triaged.triage).toEqual({ ...engine, corrected_intent: null, triaged_at: triaged.updated_at });

    const corrected = await patchThread(ada.token, id, { triage: { corrected_intent: "purchase_inquiry" } });
    expect(corrected.triage).toEqual({ ...triaged.triage, corrected_intent: "purchase_inquiry" });

    const reread = await patchThread(ada.token, id, { triage: { intent: "availability", escalating: 0.4 } });
    expect(reread.triage).toEqual({
      ...engine,
      intent: "availability",
      escalating: 0.4,
      corrected_intent: "purchase_inquiry",
      triaged_at: reread.updated_at,
    });

    // The same reading again changes nothing: no event, triaged_at stays.
    const count = (await updates(id)).length;
    expect(
      await patchThread(ada.token, id, { triage: { intent: "availability", urgency: "today" } }),
    ).toEqual(reread);
    expect((await updates(id)).length).toBe(count);

    const cleared = await patchThread(ada.token, id, { triage: { corrected_intent: null } });
    expect(cleared.triage).toEqual({ ...reread.triage, corrected_intent: null });

    expect((await updates(id)).map((e) => e.data.previous_attributes)).toEqual([
      {
        triage: {
          intent: null,
          intent_probability: null,
          urgency: null,
          urgency_probability: null,
          expects_reply: null,
          escalating: null,
          triaged_at: null,
        },
      },
      { triage: { corrected_intent: null } },
      { triage: { intent: "price_request", escalating: 0.02, triaged_at: triaged.updated_at } },
      { triage: { corrected_intent: "purchase_inquiry" } },
    ]);
  });

  it("changes several things at once, with one event", async () => {
    const id = await newThread();
    const until = fromNow(90);
    const after = await patchThread(ada.token, id, {
      state: "snoozed",
      snooze_until: until,
      assigned_to: bea.id,
      triage: { urgency: "later" },
    });
    expect(after).toMatchObject({ state: "snoozed", snooze_until: until, assigned_to: bea.id });
    expect(after.triage).toMatchObject({ urgency: "later", triaged_at: after.updated_at });
    expect((await updates(id)).map((e) => e.data.previous_attributes)).toEqual([
      { state: "open", snooze_until: null, assigned_to: null, triage: { urgency: null, triaged_at: null } },
    ]);
  });

  it("replays a PATCH retried with its Idempotency-Key; the key with another body is refused", async () => {
    const id = await newThread();
    const headers = { "Idempotency-Key": `patch-${crypto.randomUUID()}` };
    const first = await call("PATCH", `${THREADS}/${id}`, {
      key: ada.token,
      body: { state: "done" },
      headers,
    });
    const again = await call("PATCH", `${THREADS}/${id}`, {
      key: ada.token,
      body: { state: "done" },
      headers,
    });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    const other = await call("PATCH", `${THREADS}/${id}`, {
      key: ada.token,
      body: { state: "open" },
      headers,
    });
    await expectProblem(other, 400, "idempotency_key_reused");
    expect((await getThread(ada.token, id)).state).toBe("done");
    // Without a key, the same PATCH again changes nothing and emits nothing.
    const plain = await call("PATCH", `${THREADS}/${id}`, { key: ada.token, body: { state: "done" } });
    expect((await readJson(InboxThread, plain)).state).toBe("done");
    expect(await updates(id)).toHaveLength(1);
  });

  it("another member's thread is 404, and stays as it was", async () => {
    const id = await newThread();
    const before = await getThread(ada.token, id);
    const response = await call("PATCH", `${THREADS}/${id}`, { key: bea.token, body: { state: "done" } });
    await expectProblem(response, 404, "not_found");
    await expectProblem(
      await call("PATCH", `${THREADS}/${newId("thr")}`, { key: ada.token, body: { state: "done" } }),
      404,
      "not_found",
    );
    expect(await getThread(ada.token, id)).toEqual(before satisfies ThreadBody);
  });
});
