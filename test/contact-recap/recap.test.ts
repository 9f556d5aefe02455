import { beforeAll, describe, expect, it } from "vitest";
import { ContactRecap } from "../../lib/schemas/contact-recap";
import { createdList, insertJudgment, postedId } from "../contact-lists/crm-rows";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { minutesAfterEpoch } from "../helpers/seed";

/** GET /gallery/contacts/{id}/recap: the whole snapshot, compared field by field with a history built here. */

async function recap(g: TestGallery, contactId: string, key = g.key) {
  const response = await call("GET", `/gallery/contacts/${contactId}/recap`, { key });
  const body = await readJson(ContactRecap, response);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function sent(g: TestGallery, method: string, path: string, body?: Record<string, unknown>) {
  const response = await call(method, path, { key: g.key, body });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
}

describe("GET /gallery/contacts/{id}/recap", () => {
  let g: TestGallery;
  let contactId: string;
  let artworkId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    g = await createGallery();
    const work = () => postedId(g, "/gallery/artworks", { title: "Recap work" });
    artworkId = await work();
    contactId = await postedId(g, "/gallery/contacts", {
      name: "Ada Collector",
      company: "Lovelace Holdings",
      contact_type: "collector",
      lead_status: "engaged",
      collector_profile: { vip: true },
    });
    const base = `/gallery/contacts/${contactId}`;
    // Seven interactions, recorded out of order: first at minute 10, newest at minute 70.
    for (const [minute, type, direction, withArtwork] of [
      [40, "call", "outbound", false],
      [10, "note", null, false],
      [70, "email", "inbound", true],
      [20, "meeting", null, false],
      [60, "visit", "inbound", false],
      [30, "email", "outbound", true],
      [50, "note", null, false],
    ] as const) {
      await postedId(g, `${base}/interactions`, {
        occurred_at: minutesAfterEpoch(minute),
        type,
        direction,
        summary: `At minute ${minute}`,
        ...(withArtwork ? { artwork_id: artworkId } : {}),
      });
    }
    // Tasks: a done one due earliest does not count; undated open ones come after dated ones.
    await postedId(g, `${base}/tasks`, { title: "Done", due_at: minutesAfterEpoch(1), done: true });
    ids.undated = await postedId(g, `${base}/tasks`, { title: "Someday" });
    ids.later = await postedId(g, `${base}/tasks`, { title: "Later", due_at: minutesAfterEpoch(500) });
    ids.soon = await postedId(g, `${base}/tasks`, { title: "Soon", due_at: minutesAfterEpoch(100) });
    // Sales: only completed ones count; a sale of two works counts two.
    const sale = async (amount_cents: number, works: number, status?: string) =>
      postedId(g, "/gallery/sales", {
        contact_id: contactId,
        artwork_ids: await Promise.all(Array.from({ length: works }, work)),
        amount_cents,
        ...(status ? { status } : {}),
      });
    await sale(300_000, 1);
    await sale(900_001, 2);
    await sale(5_000_000, 1, "pending");
    ids.cancelled = await sale(7_000_000, 1);
    await sent(g, "PATCH", `/gallery/sales/${ids.cancelled}`, { status: "cancelled" });
    // Lists, oldest first: a static list it is on, one it is not on, a dynamic list it matches, one it does
    // not, and a described segment that judged it true.
    ids.staticIn = (await createdList(g, { title: "Static in", kind: "pipeline" })).id;
    ids.staticOut = (await createdList(g, { title: "Static out" })).id;
    ids.dynIn = (
      await createdList(g, {
        title: "Engaged collectors",
        kind: "segment",
        dynamic_query: { lead_status: "engaged", type: "collector" },
      })
    ).id;
    ids.dynOut = (
      await createdList(g, { title: "Institutions", kind: "segment", dynamic_query: { type: "institution" } })
    ).id;
    ids.described = (
      await createdList(g, {
        title: "Likes minimalism",
        kind: "mailing",
        dynamic_query: { described_as: "Collects minimalist work" },
      })
    ).id;
    await sent(g, "POST", `/gallery/contact-lists/${ids.staticIn}/members`, { contact_ids: [contactId] });
    await insertJudgment(g, ids.described!, contactId, true, 0.75);
  });

  it("answers the contact's history field by field", async () => {
    const body = await recap(g, contactId);
    const interaction = (minute: number, type: string, direction: string | null, withArtwork: boolean) => ({
      occurred_at: minutesAfterEpoch(minute),
      type,
      direction,
      summary: `At minute ${minute}`,
      artwork_id: withArtwork ? artworkId : null,
    });
    expect(body).toEqual({
      contact_id: contactId,
      name: "Ada Collector",
      company: "Lovelace Holdings",
      contact_type: "collector",
      lead_status: "engaged",
      vip: true,
      spend: {
        total_spend_cents: 1_200_001,
        works_acquired: 3,
        // 1,200,001 / 3 = 400,000.33…, rounded.
        avg_acquisition_cents: 400_000,
      },
      first_interaction_at: minutesAfterEpoch(10),
      last_interaction_at: minutesAfterEpoch(70),
      interaction_count: 7,
      recent_interactions: [
        interaction(70, "email", "inbound", true),
        interaction(60, "visit", "inbound", false),
        interaction(50, "note", null, false),
        interaction(40, "call", "outbound", false),
        interaction(30, "email", "outbound", true),
      ],
      open_task_count: 3,
      next_task: { id: ids.soon, title: "Soon", due_at: minutesAfterEpoch(100) },
      list_memberships: [
        { list_id: ids.described, list_name: "Likes minimalism", kind: "mailing" },
        { list_id: ids.dynIn, list_name: "Engaged collectors", kind: "segment" },
        { list_id: ids.staticIn, list_name: "Static in", kind: "pipeline" },
      ],
    });
  });

  it("follows the contact as it changes: dynamic lists, a judgment below the floor, an archived contact", async () => {
    const other = await postedId(g, "/gallery/contacts", {
      name: "Changing",
      contact_type: "institution",
      lead_status: "new",
    });
    await sent(g, "POST", `/gallery/contact-lists/${ids.staticIn}/members`, { contact_ids: [other] });
    await insertJudgment(g, ids.described!, other, true, 0.59);
    const memberships = async () => (await recap(g, other)).list_memberships.map((m) => m.list_id);
    expect(await memberships()).toEqual([ids.dynOut, ids.staticIn]);
    await sent(g, "PATCH", `/gallery/contacts/${other}`, {
      contact_type: "collector",
      lead_status: "engaged",
    });
    expect(await memberships()).toEqual([ids.dynIn, ids.staticIn]);
    // Archived: no dynamic list holds it; the static membership stays, and the recap still answers.
    await sent(g, "POST", `/gallery/contacts/${other}/archive`);
    expect(await memberships()).toEqual([ids.staticIn]);
    await sent(g, "POST", `/gallery/contacts/${other}/restore`);
    expect(await memberships()).toEqual([ids.dynIn, ids.staticIn]);
  });

  it("answers an empty history: no profile is not a VIP, no purchases have no average, no tasks no next", async () => {
    const id = await postedId(g, "/gallery/contacts", { name: "Newcomer" });
    expect(await recap(g, id)).toEqual({
      contact_id: id,
      name: "Newcomer",
      company: null,
      contact_type: "other",
      lead_status: "new",
      vip: false,
      spend: { total_spend_cents: 0, works_acquired: 0, avg_acquisition_cents: null },
      first_interaction_at: null,
      last_interaction_at: null,
      interaction_count: 0,
      recent_interactions: [],
      open_task_count: 0,
      next_task: null,
      list_memberships: [],
    });
  });

  it("takes the oldest undated task as next when none has a due date, and a non-VIP profile is not a VIP", async () => {
    const id = await postedId(g, "/gallery/contacts", { name: "Undated", collector_profile: { vip: false } });
    const first = await postedId(g, `/gallery/contacts/${id}/tasks`, { title: "First" });
    await postedId(g, `/gallery/contacts/${id}/tasks`, { title: "Second" });
    const body = await recap(g, id);
    expect(body.vip).toBe(false);
    expect(body.open_task_count).toBe(2);
    expect(body.next_task).toEqual({ id: first, title: "First", due_at: null });
  });

  it("refuses without credentials (401), without sales:read (403), and another gallery's contact (404)", async () => {
    await expectProblem(await call("GET", `/gallery/contacts/${contactId}/recap`), 401, "unauthenticated");
    const contactsOnly = await g.keyWith(["contacts:read"]);
    const forbidden = await expectProblem(
      await call("GET", `/gallery/contacts/${contactId}/recap`, { key: contactsOnly }),
      403,
      "forbidden",
    );
    expect(forbidden.details).toMatchObject({ missing_scopes: ["sales:read"] });
    const both = await g.keyWith(["contacts:read", "sales:read"]);
    expect((await recap(g, contactId, both)).contact_id).toBe(contactId);
    const elsewhere = await createGallery();
    await expectProblem(
      await call("GET", `/gallery/contacts/${contactId}/recap`, { key: elsewhere.key }),
      404,
      "not_found",
    );
  });

  it("refuses a malformed contact id: 400 naming the path parameter", async () => {
    await expectProblem(
      await call("GET", "/gallery/contacts/art_01jd4xk9v2c7h8m3n5p6q7r8s9/recap", { key: g.key }),
      400,
      "invalid_request",
      {
        field: "id",
        location: "path",
      },
    );
  });
});
