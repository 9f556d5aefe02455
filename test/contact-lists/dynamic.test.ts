import { beforeAll, describe, expect, it } from "vitest";
import { ContactList } from "../../lib/schemas/contact-lists";
import { ContactRecap } from "../../lib/schemas/contact-recap";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";
import { minutesAfterEpoch } from "../helpers/seed";
import {
  createdList,
  insertJudgment,
  listedMembers,
  newContact,
  recordEngagement,
  recordInteraction,
  recordSale,
  shelve,
} from "./crm-rows";

/**
 * Dynamic lists, evaluated live through `GET /gallery/contacts?list_id=`: each saved filter alone and combined,
 * against a small roster whose every contact differs on each filter, and a list following its contacts as they
 * change, are archived and are restored.
 */

async function patchContact(g: TestGallery, id: string, body: Record<string, unknown>) {
  const response = await call("PATCH", `/gallery/contacts/${id}`, { key: g.key, body });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function contactTag(g: TestGallery): Promise<string> {
  const response = await call("POST", "/gallery/tags", {
    key: g.key,
    body: { name: `Segment tag ${crypto.randomUUID()}`, scope: "contact" },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The dynamic lists the recap says the contact matches. */
async function recapDynamicLists(g: TestGallery, contactId: string): Promise<string[]> {
  const response = await call("GET", `/gallery/contacts/${contactId}/recap`, { key: g.key });
  const recap = await readJson(ContactRecap, response);
  expect(response.status).toBe(200);
  return recap.list_memberships.map((m) => m.list_id);
}

describe("dynamic lists", () => {
  let g: TestGallery;
  const c: Record<"a" | "b" | "c" | "d" | "e", string> = { a: "", b: "", c: "", d: "", e: "" };
  let t1: string;
  let t2: string;
  let memberId: string;

  beforeAll(async () => {
    g = await createGallery();
    memberId = (await createMember(g.id, "editor")).id;
    t1 = await contactTag(g);
    t2 = await contactTag(g);
    // a: a collector who engaged lately, buys mid-range, tagged t1, assigned, consented.
    c.a = await newContact(g, {
      name: "Alma Quartz",
      contact_type: "collector",
      lead_status: "active",
      tag_ids: [t1],
      assignee_ids: [memberId],
      email_consent: "granted",
    });
    // b: an institution, engaged earlier, buys small, tagged t2.
    c.b = await newContact(g, {
      name: "Bruno Museum",
      contact_type: "institution",
      lead_status: "engaged",
      tag_ids: [t2],
    });
    // c: press, whose company matches `quartz`, three works for a lot.
    c.c = await newContact(g, {
      name: "Cora Press",
      company: "Quartz Ltd",
      contact_type: "press",
      lead_status: "new",
    });
    // d: like a in every way, then archived: never in a dynamic list.
    c.d = await newContact(g, {
      name: "Dora Quartz",
      contact_type: "collector",
      lead_status: "active",
      tag_ids: [t1, t2],
      assignee_ids: [memberId],
      email_consent: "granted",
    });
    // e: nothing at all.
    c.e = await newContact(g, { name: "Eli Plain" });

    await recordInteraction(g, c.a, minutesAfterEpoch(100));
    await recordInteraction(g, c.b, minutesAfterEpoch(10));
    await recordInteraction(g, c.d, minutesAfterEpoch(100));
    await recordSale(g, c.a, 600_000);
    await recordSale(g, c.b, 100_000);
    await recordSale(g, c.c, 30_000_000, 3);
    await recordSale(g, c.d, 30_000_000, 3);
    await recordEngagement(g, c.a, "room_opened", minutesAfterEpoch(200));
    await recordEngagement(g, c.b, "artwork_viewed", minutesAfterEpoch(50));
    await recordEngagement(g, c.c, "room_opened", minutesAfterEpoch(20));
    await recordEngagement(g, c.d, "room_opened", minutesAfterEpoch(300));
    await shelve(g, c.d, "archive");
  });

  const cases: [string, () => Record<string, unknown>, (keyof typeof c)[]][] = [
    ["q (name or company)", () => ({ q: "QUARTZ" }), ["a", "c"]],
    ["type", () => ({ type: "collector" }), ["a"]],
    ["assigned_to", () => ({ assigned_to: memberId }), ["a"]],
    ["lead_status", () => ({ lead_status: "engaged" }), ["b"]],
    ["tag_id (one)", () => ({ tag_id: t1 }), ["a"]],
    ["tag_id (any of several)", () => ({ tag_id: [t1, t2] }), ["a", "b"]],
    ["has_interaction_since", () => ({ has_interaction_since: minutesAfterEpoch(50) }), ["a"]],
    ["min_total_spend_cents", () => ({ min_total_spend_cents: 500_000 }), ["a", "c"]],
    ["min_works_acquired", () => ({ min_works_acquired: 2 }), ["c"]],
    ["price_band under_5k", () => ({ price_band: "under_5k" }), ["b"]],
    ["price_band 5k_25k", () => ({ price_band: "5k_25k" }), ["a"]],
    ["price_band over_100k", () => ({ price_band: "over_100k" }), ["c"]],
    ["engaged_event", () => ({ engaged_event: "room_opened" }), ["a", "c"]],
    [
      "engaged_event + engaged_since",
      () => ({ engaged_event: "room_opened", engaged_since: minutesAfterEpoch(100) }),
      ["a"],
    ],
    ["engaged_since alone (any kind)", () => ({ engaged_since: "2024-01-01T00:40Z" }), ["a", "b"]],
    ["email_consent", () => ({ email_consent: "granted" }), ["a"]],
    ["type + min_total_spend_cents", () => ({ type: "collector", min_total_spend_cents: 500_000 }), ["a"]],
    ["q + lead_status (nobody)", () => ({ q: "quartz", lead_status: "engaged" }), []],
  ];

  it.each(cases)("keeps the contacts matching %s, never the archived one", async (_, query, expected) => {
    const list = await createdList(g, { title: "Segment", kind: "segment", dynamic_query: query() });
    expect(await listedMembers(g, list.id)).toEqual(expected.map((k) => c[k]).sort());
    // Not even when the roster includes archived contacts.
    expect(await listedMembers(g, list.id, "&archived=include")).toEqual(expected.map((k) => c[k]).sort());
  });

  it("keeps the contacts the engine judged true at or above the floor for described_as", async () => {
    const list = await createdList(g, {
      title: "Described",
      dynamic_query: { described_as: "Collects quartz" },
    });
    await insertJudgment(g, list.id, c.a, true, 0.9);
    await insertJudgment(g, list.id, c.b, true, 0.6);
    await insertJudgment(g, list.id, c.c, true, 0.59);
    await insertJudgment(g, list.id, c.d, true, 0.99);
    await insertJudgment(g, list.id, c.e, false, 0.95);
    expect(await listedMembers(g, list.id)).toEqual([c.a, c.b].sort());
    // Combined with a filter, both hold.
    const narrowed = await call("PATCH", `/gallery/contact-lists/${list.id}`, {
      key: g.key,
      body: { dynamic_query: { described_as: "Collects quartz", type: "institution" } },
    });
    expect((await readJson(ContactList, narrowed)).dynamic_query).toEqual({
      described_as: "Collects quartz",
      type: "institution",
    });
    expect(await listedMembers(g, list.id)).toEqual([c.b]);
  });

  it("follows its contacts as they change, are archived and are restored", async () => {
    const list = await createdList(g, {
      title: "Engaged collectors",
      kind: "pipeline",
      dynamic_query: { type: "collector", lead_status: "engaged" },
    });
    const x = await newContact(g, { name: "Xavier", contact_type: "collector", lead_status: "new" });
    const y = await newContact(g, { name: "Yara", contact_type: "collector", lead_status: "engaged" });
    expect(await listedMembers(g, list.id)).toEqual([y]);
    expect(await recapDynamicLists(g, x)).not.toContain(list.id);

    await patchContact(g, x, { lead_status: "engaged" });
    expect(await listedMembers(g, list.id)).toEqual([x, y].sort());
    expect(await recapDynamicLists(g, x)).toContain(list.id);

    await patchContact(g, y, { contact_type: "advisor" });
    expect(await listedMembers(g, list.id)).toEqual([x]);

    await shelve(g, x, "archive");
    expect(await listedMembers(g, list.id)).toEqual([]);
    expect(await recapDynamicLists(g, x)).not.toContain(list.id);
    await shelve(g, x, "restore");
    expect(await listedMembers(g, list.id)).toEqual([x]);

    // A new query is evaluated at once.
    const response = await call("PATCH", `/gallery/contact-lists/${list.id}`, {
      key: g.key,
      body: { dynamic_query: { type: "advisor" } },
    });
    expect(response.status).toBe(200);
    expect(await listedMembers(g, list.id)).toEqual([y]);
  });

  it("is another gallery's list for nobody here: list_id of another gallery matches no one", async () => {
    const elsewhere = await createGallery();
    const theirs = await createdList(elsewhere, {
      title: "Everyone",
      dynamic_query: { lead_status: "active" },
    });
    expect(await listedMembers(g, theirs.id)).toEqual([]);
  });
});
