import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DeleteResult } from "../../lib/schemas/artworks";
import { ContactList } from "../../lib/schemas/contact-lists";
import { call, createGallery, db, json, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { createdList, insertJudgment, listedMembers, newContact, shelve } from "./crm-rows";

/** Contact lists: create, read, list, update, delete, and static membership. */

const BASE = "/gallery/contact-lists";
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ListPage = pageOf(ContactList);

async function create(g: TestGallery, body: Record<string, unknown>) {
  const response = await call("POST", BASE, { key: g.key, body });
  const list = await readJson(ContactList, response);
  expect(response.status, JSON.stringify(list)).toBe(201);
  return list;
}

async function get(g: TestGallery, id: string) {
  const response = await call("GET", `${BASE}/${id}`, { key: g.key });
  const list = await readJson(ContactList, response);
  expect(response.status, JSON.stringify(list)).toBe(200);
  return list;
}

async function write(
  g: TestGallery,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await call(method, path, { key: g.key, body, headers });
  const list = await readJson(ContactList, response);
  expect(response.status, JSON.stringify(list)).toBe(200);
  return list;
}

async function events(galleryId: string, type: string) {
  const result = await db().execute<{
    resource_id: string;
    resource_type: string;
    data: Record<string, unknown>;
  }>(
    sql`select resource_id, resource_type, data from domain_events where gallery_id = ${galleryId} and type = ${type}
      order by created_at, id`,
  );
  return result.rows;
}

describe("POST /gallery/contact-lists", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("creates a static list with the defaults and emits contact_list.created", async () => {
    const list = await create(g, { title: "  Spring opening  " });
    expect(list).toEqual({
      id: expect.stringMatching(/^list_[0-9a-z]{26}$/),
      title: "Spring opening",
      description: null,
      kind: "pipeline",
      is_dynamic: false,
      dynamic_query: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: list.created_at,
    });
    expect(await get(g, list.id)).toEqual(list);
    const event = (await events(g.id, "contact_list.created")).find((e) => e.resource_id === list.id);
    expect(event).toEqual({ resource_id: list.id, resource_type: "contact_list", data: { object: list } });
  });

  it("creates a dynamic list from a dynamic_query (is_dynamic follows it), keeping a single tag_id as a list", async () => {
    const tagId = "tag_01jd4xk9v2c7h8m3n5p6q7r8s9";
    const list = await create(g, {
      title: "VIP mailing",
      kind: "mailing",
      description: "Collectors who engaged lately",
      dynamic_query: {
        type: "collector",
        tag_id: tagId,
        engaged_since: "2024-02-29T00:00Z",
        described_as: " Likes ink ",
      },
    });
    expect(list).toMatchObject({
      kind: "mailing",
      description: "Collectors who engaged lately",
      is_dynamic: true,
      // Timestamps are kept in the API's output form.
      dynamic_query: {
        type: "collector",
        tag_id: [tagId],
        engaged_since: "2024-02-29T00:00:00.000Z",
        described_as: "Likes ink",
      },
    });
    const explicit = await create(g, {
      title: "Explicit",
      is_dynamic: true,
      dynamic_query: { lead_status: "new" },
    });
    expect(explicit).toMatchObject({
      is_dynamic: true,
      dynamic_query: { lead_status: "new" },
      kind: "pipeline",
    });
  });

  it.each([
    ["a missing title", { kind: "segment" }, "title"],
    ["a blank title", { title: "  " }, "title"],
    ["a title over 200 characters", { title: "t".repeat(201) }, "title"],
    ["a description over 2,000 characters", { title: "x", description: "d".repeat(2001) }, "description"],
    ["an unknown kind", { title: "x", kind: "newsletter" }, "kind"],
    ["an unknown field", { title: "x", owner: "me" }, "owner"],
    ["a dynamic list without a query", { title: "x", is_dynamic: true }, "dynamic_query"],
    [
      "a static list with a query",
      { title: "x", is_dynamic: false, dynamic_query: { type: "press" } },
      "dynamic_query",
    ],
    ["an empty query", { title: "x", dynamic_query: {} }, "dynamic_query"],
    [
      "an unknown query field",
      { title: "x", dynamic_query: { type: "press", colour: "red" } },
      "dynamic_query.colour",
    ],
    ["an unknown type", { title: "x", dynamic_query: { type: "painter" } }, "dynamic_query.type"],
    [
      "an unknown lead_status",
      { title: "x", dynamic_query: { lead_status: "hot" } },
      "dynamic_query.lead_status",
    ],
    [
      "an unknown price_band",
      { title: "x", dynamic_query: { price_band: "cheap" } },
      "dynamic_query.price_band",
    ],
    [
      "an unknown engaged_event",
      { title: "x", dynamic_query: { engaged_event: "sneezed" } },
      "dynamic_query.engaged_event",
    ],
    [
      "an unknown email_consent",
      { title: "x", dynamic_query: { email_consent: "maybe" } },
      "dynamic_query.email_consent",
    ],
    [
      "a date that does not exist",
      { title: "x", dynamic_query: { has_interaction_since: "2023-02-29T00:00Z" } },
      "dynamic_query.has_interaction_since",
    ],
    [
      "an offset timestamp",
      { title: "x", dynamic_query: { engaged_since: "2024-01-01T00:00:00+01:00" } },
      "dynamic_query.engaged_since",
    ],
    [
      "a date without a time",
      { title: "x", dynamic_query: { engaged_since: "2024-01-01" } },
      "dynamic_query.engaged_since",
    ],
    [
      "a spend beyond 2^53 - 1",
      { title: "x", dynamic_query: { min_total_spend_cents: 9007199254740992 } },
      "dynamic_query.min_total_spend_cents",
    ],
    [
      "a negative works count",
      { title: "x", dynamic_query: { min_works_acquired: -1 } },
      "dynamic_query.min_works_acquired",
    ],
    [
      "a tag id of another kind",
      { title: "x", dynamic_query: { tag_id: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" } },
      "dynamic_query.tag_id",
    ],
    [
      "a member id of another kind",
      { title: "x", dynamic_query: { assigned_to: "con_01jd4xk9v2c7h8m3n5p6q7r8s9" } },
      "dynamic_query.assigned_to",
    ],
    ["a q over 200 characters", { title: "x", dynamic_query: { q: "q".repeat(201) } }, "dynamic_query.q"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
  });

  it("accepts the largest spend, and keeps a finer fraction as the next millisecond", async () => {
    const list = await create(g, {
      title: "Edges",
      dynamic_query: {
        min_total_spend_cents: 9007199254740991,
        has_interaction_since: "2024-02-29T23:59:59.1231Z",
        engaged_since: "2024-12-31T23:59:59.9999Z",
      },
    });
    expect(list.dynamic_query).toEqual({
      min_total_spend_cents: 9007199254740991,
      has_interaction_since: "2024-02-29T23:59:59.124Z",
      engaged_since: "2025-01-01T00:00:00.000Z",
    });
    const exact = await create(g, {
      title: "Exact",
      dynamic_query: { engaged_since: "2024-02-29T23:59:59.120000Z" },
    });
    expect(exact.dynamic_query).toEqual({ engaged_since: "2024-02-29T23:59:59.120Z" });
  });

  it("refuses without contacts:create (403) and without a credential (401)", async () => {
    const reader = await g.keyWith(["contacts:read"]);
    await expectProblem(await call("POST", BASE, { key: reader, body: { title: "x" } }), 403, "forbidden");
    await expectProblem(await call("POST", BASE, { body: { title: "x" } }), 401, "unauthenticated");
  });
});

describe("GET /gallery/contact-lists", () => {
  let g: TestGallery;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    g = await createGallery();
    ids.a = (await createdList(g, { title: "A", kind: "pipeline" })).id;
    ids.b = (await createdList(g, { title: "B", kind: "segment", dynamic_query: { type: "press" } })).id;
    ids.c = (await createdList(g, { title: "C", kind: "mailing" })).id;
    ids.d = (await createdList(g, { title: "D", kind: "segment" })).id;
    await createdList(await createGallery(), { title: "Elsewhere" });
  });

  it("lists newest first and pages with a cursor", async () => {
    const first = await readJson(ListPage, await call("GET", `${BASE}?limit=3`, { key: g.key }));
    expect(first.data.map((l) => l.id)).toEqual([ids.d, ids.c, ids.b]);
    const next = await readJson(
      ListPage,
      await call("GET", `${BASE}?limit=3&cursor=${encodeURIComponent(first.next_cursor!)}`, { key: g.key }),
    );
    expect(next).toEqual({ data: [expect.objectContaining({ id: ids.a })], next_cursor: null });
    const asc = await readJson(ListPage, await call("GET", `${BASE}?dir=asc`, { key: g.key }));
    expect(asc.data.map((l) => l.id)).toEqual([ids.a, ids.b, ids.c, ids.d]);
  });

  it("filters by kind and by is_dynamic, together", async () => {
    const ids_ = async (qs: string) =>
      (await readJson(ListPage, await call("GET", `${BASE}?${qs}`, { key: g.key }))).data.map((l) => l.id);
    expect(await ids_("kind=segment")).toEqual([ids.d, ids.b]);
    expect(await ids_("is_dynamic=true")).toEqual([ids.b]);
    expect(await ids_("is_dynamic=false")).toEqual([ids.d, ids.c, ids.a]);
    expect(await ids_("kind=segment&is_dynamic=false")).toEqual([ids.d]);
    expect(await ids_("kind=pipeline&is_dynamic=true")).toEqual([]);
  });

  it.each([
    ["kind=newsletter", "kind"],
    ["is_dynamic=yes", "is_dynamic"],
    ["limit=0", "limit"],
    ["sort=title", "sort"],
    ["colour=red", "colour"],
  ])("refuses %s: 400 naming the parameter", async (qs, field) => {
    await expectProblem(await call("GET", `${BASE}?${qs}`, { key: g.key }), 400, "invalid_request", {
      field,
    });
  });

  it("refuses without contacts:read (403)", async () => {
    const other = await g.keyWith(["sales:read"]);
    await expectProblem(await call("GET", BASE, { key: other }), 403, "forbidden");
  });
});

describe("PATCH /gallery/contact-lists/{id}", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("changes title, kind and description, with previous_attributes; a patch that changes nothing emits nothing", async () => {
    const list = await create(g, { title: "Pipeline", description: "First" });
    const updated = await write(g, "PATCH", `${BASE}/${list.id}`, {
      title: "Acquisitions",
      kind: "segment",
      description: null,
    });
    expect(updated).toEqual({
      ...list,
      title: "Acquisitions",
      kind: "segment",
      description: null,
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(updated.updated_at > list.updated_at).toBe(true);
    const [event] = (await events(g.id, "contact_list.updated")).filter((e) => e.resource_id === list.id);
    expect(event?.data).toEqual({
      object: updated,
      previous_attributes: { title: "Pipeline", kind: "pipeline", description: "First" },
    });
    expect(await write(g, "PATCH", `${BASE}/${list.id}`, { title: "Acquisitions" })).toEqual(updated);
    expect(
      (await events(g.id, "contact_list.updated")).filter((e) => e.resource_id === list.id),
    ).toHaveLength(1);
  });

  it("replaces a dynamic list's query as a whole, and a new described_as drops the former judgments", async () => {
    const list = await create(g, {
      title: "Seg",
      dynamic_query: { type: "collector", described_as: "Likes ink" },
    });
    const contactId = await newContact(g, { contact_type: "collector" });
    await insertJudgment(g, list.id, contactId, true, 0.9);
    const judgments = async () =>
      (
        await db().execute<{ n: number }>(
          sql`select count(*)::int as n from rubric_judgments where rubric_key = ${`segment:${list.id}`}`,
        )
      ).rows[0]!.n;
    // Same description, other filters: the judgments stand.
    const kept = await write(g, "PATCH", `${BASE}/${list.id}`, {
      dynamic_query: { lead_status: "active", described_as: "Likes ink" },
    });
    expect(kept.dynamic_query).toEqual({ lead_status: "active", described_as: "Likes ink" });
    expect(await judgments()).toBe(1);
    const [event] = (await events(g.id, "contact_list.updated")).filter((e) => e.resource_id === list.id);
    expect(event?.data.previous_attributes).toEqual({
      dynamic_query: { type: "collector", described_as: "Likes ink" },
    });
    const changed = await write(g, "PATCH", `${BASE}/${list.id}`, {
      dynamic_query: { described_as: "Likes oil" },
    });
    expect(changed.dynamic_query).toEqual({ described_as: "Likes oil" });
    expect(await judgments()).toBe(0);
  });

  it("refuses a dynamic_query for a static list (409 naming the state) and is_dynamic in any patch (400)", async () => {
    const list = await create(g, { title: "Static" });
    const problem = await expectProblem(
      await call("PATCH", `${BASE}/${list.id}`, { key: g.key, body: { dynamic_query: { type: "press" } } }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ is_dynamic: false });
    await expectProblem(
      await call("PATCH", `${BASE}/${list.id}`, { key: g.key, body: { is_dynamic: true } }),
      400,
      "invalid_request",
      { field: "is_dynamic", location: "body" },
    );
    expect(await get(g, list.id)).toEqual(list);
  });

  it.each([
    ["a blank title", { title: " " }, "title"],
    ["an unknown kind", { kind: "newsletter" }, "kind"],
    ["an unknown query field", { dynamic_query: { described: "x" } }, "dynamic_query.described"],
    ["a null query", { dynamic_query: null }, "dynamic_query"],
    ["an unknown field", { members: [] }, "members"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    const list = await create(g, { title: "Dyn", dynamic_query: { type: "press" } });
    await expectProblem(
      await call("PATCH", `${BASE}/${list.id}`, { key: g.key, body }),
      400,
      "invalid_request",
      {
        field,
        location: "body",
      },
    );
  });

  it("replays a retried patch with the same Idempotency-Key", async () => {
    const list = await create(g, { title: "Retry" });
    const headers = { "idempotency-key": `patch-${crypto.randomUUID()}` };
    const first = await write(g, "PATCH", `${BASE}/${list.id}`, { title: "Retried" }, headers);
    const again = await call("PATCH", `${BASE}/${list.id}`, {
      key: g.key,
      body: { title: "Retried" },
      headers,
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual(first);
    const other = await call("PATCH", `${BASE}/${list.id}`, {
      key: g.key,
      body: { title: "Other" },
      headers,
    });
    await expectProblem(other, 400, "idempotency_key_reused");
  });

  it("refuses without contacts:update (403)", async () => {
    const list = await create(g, { title: "Scoped" });
    const creator = await g.keyWith(["contacts:read", "contacts:create"]);
    await expectProblem(
      await call("PATCH", `${BASE}/${list.id}`, { key: creator, body: { title: "x" } }),
      403,
    );
  });
});

describe("DELETE /gallery/contact-lists/{id}", () => {
  it("deletes the list with its memberships and judgments, leaves the contacts, and emits contact_list.deleted", async () => {
    const g = await createGallery();
    const list = await create(g, { title: "Going" });
    const contactId = await newContact(g);
    await write(g, "POST", `${BASE}/${list.id}/members`, { contact_ids: [contactId] });
    const last = await get(g, list.id);
    const headers = { "idempotency-key": `delete-${crypto.randomUUID()}` };
    const response = await call("DELETE", `${BASE}/${list.id}`, { key: g.key, headers });
    expect(response.status).toBe(200);
    expect(await readJson(DeleteResult, response)).toEqual({ id: list.id, deleted: true });
    await expectProblem(await call("GET", `${BASE}/${list.id}`, { key: g.key }), 404, "not_found");
    const replay = await call("DELETE", `${BASE}/${list.id}`, { key: g.key, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await expectProblem(await call("DELETE", `${BASE}/${list.id}`, { key: g.key }), 404, "not_found");
    expect((await events(g.id, "contact_list.deleted")).map((e) => e.data)).toEqual([{ object: last }]);
    const left = await db().execute<{ n: number }>(
      sql`select (select count(*) from contact_list_memberships where list_id = ${list.id})::int
        + (select count(*) from contacts where id = ${contactId} and archived_at is null)::int * 10 as n`,
    );
    expect(left.rows[0]!.n).toBe(10);
  });

  it("deletes a dynamic list's segment judgments", async () => {
    const g = await createGallery();
    const list = await create(g, { title: "Segment", dynamic_query: { described_as: "Buys prints" } });
    await insertJudgment(g, list.id, await newContact(g), true, 0.9);
    expect((await call("DELETE", `${BASE}/${list.id}`, { key: g.key })).status).toBe(200);
    const left = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from rubric_judgments where rubric_key = ${`segment:${list.id}`}`,
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it("refuses without contacts:delete (403)", async () => {
    const g = await createGallery();
    const list = await create(g, { title: "Kept" });
    const updater = await g.keyWith(["contacts:read", "contacts:update"]);
    await expectProblem(await call("DELETE", `${BASE}/${list.id}`, { key: updater }), 403, "forbidden");
    expect(await get(g, list.id)).toEqual(list);
  });
});

describe("static membership", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("adds contacts, keeps members already there, and records who joined", async () => {
    const list = await create(g, { title: "Members" });
    const [a, b, c] = [await newContact(g), await newContact(g), await newContact(g)];
    const afterAdd = await write(g, "POST", `${BASE}/${list.id}/members`, { contact_ids: [a, b] });
    expect(afterAdd).toEqual({ ...list, updated_at: expect.stringMatching(ISO_MS) });
    expect(afterAdd.updated_at > list.updated_at).toBe(true);
    expect(await listedMembers(g, list.id)).toEqual([a, b].sort());
    const again = await write(g, "POST", `${BASE}/${list.id}/members`, { contact_ids: [b, c, a] });
    expect(again.updated_at > afterAdd.updated_at).toBe(true);
    // Nothing new: the list as it is, no event.
    expect(await write(g, "POST", `${BASE}/${list.id}/members`, { contact_ids: [c] })).toEqual(again);
    const added = (await events(g.id, "contact_list.members_added")).filter((e) => e.resource_id === list.id);
    expect(added.map((e) => e.data)).toEqual([
      { object: { list: afterAdd, contact_ids: [a, b] } },
      { object: { list: again, contact_ids: [c] } },
    ]);
    expect(await listedMembers(g, list.id)).toEqual([a, b, c].sort());
  });

  it("removes a member, leaves a non-member's removal harmless, and lists only unarchived members by default", async () => {
    const list = await create(g, { title: "Removals" });
    const [a, b, archived] = [await newContact(g), await newContact(g), await newContact(g)];
    const added = await write(g, "POST", `${BASE}/${list.id}/members`, { contact_ids: [a, b, archived] });
    await shelve(g, archived, "archive");
    expect(await listedMembers(g, list.id)).toEqual([a, b].sort());
    const removed = await write(g, "DELETE", `${BASE}/${list.id}/members/${a}`);
    expect(removed.updated_at > added.updated_at).toBe(true);
    expect(await listedMembers(g, list.id)).toEqual([b]);
    // The archived member is still on the list, shown when the roster includes archived contacts.
    expect(await listedMembers(g, list.id, "&archived=include")).toEqual([archived, b].sort());
    expect(await write(g, "DELETE", `${BASE}/${list.id}/members/${a}`)).toEqual(removed);
    const outsider = await newContact(g);
    expect(await write(g, "DELETE", `${BASE}/${list.id}/members/${outsider}`)).toEqual(removed);
    const events_ = (await events(g.id, "contact_list.member_removed")).filter(
      (e) => e.resource_id === list.id,
    );
    expect(events_.map((e) => e.data)).toEqual([{ object: { list: removed, contact_ids: [a] } }]);
  });

  it("replays a retried add with the same Idempotency-Key, after the members already joined", async () => {
    const list = await create(g, { title: "Retried adds" });
    const a = await newContact(g);
    const headers = { "idempotency-key": `add-${crypto.randomUUID()}` };
    const first = await write(g, "POST", `${BASE}/${list.id}/members`, { contact_ids: [a] }, headers);
    const again = await call("POST", `${BASE}/${list.id}/members`, {
      key: g.key,
      body: { contact_ids: [a] },
      headers,
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual(first);
    expect(
      (await events(g.id, "contact_list.members_added")).filter((e) => e.resource_id === list.id),
    ).toHaveLength(1);
  });

  it("refuses member edits on a dynamic list: 409 naming the state", async () => {
    const list = await create(g, { title: "Dynamic", dynamic_query: { type: "press" } });
    const a = await newContact(g, { contact_type: "press" });
    const add = await expectProblem(
      await call("POST", `${BASE}/${list.id}/members`, { key: g.key, body: { contact_ids: [a] } }),
      409,
      "conflict",
    );
    expect(add.details).toEqual({ is_dynamic: true });
    const remove = await expectProblem(
      await call("DELETE", `${BASE}/${list.id}/members/${a}`, { key: g.key }),
      409,
      "conflict",
    );
    expect(remove.details).toEqual({ is_dynamic: true });
  });

  it("refuses contacts that are not the gallery's: 400 naming the index in contact_ids", async () => {
    const list = await create(g, { title: "Strict" });
    const ours = await newContact(g);
    const theirs = await newContact(await createGallery());
    const missing = "con_01jd4xk9v2c7h8m3n5p6q7r8s9";
    await expectProblem(
      await call("POST", `${BASE}/${list.id}/members`, { key: g.key, body: { contact_ids: [ours, theirs] } }),
      400,
      "invalid_request",
      { field: "contact_ids.1", location: "body" },
    );
    await expectProblem(
      await call("POST", `${BASE}/${list.id}/members`, {
        key: g.key,
        body: { contact_ids: [missing, ours] },
      }),
      400,
      "invalid_request",
      { field: "contact_ids.0", location: "body" },
    );
    expect(await get(g, list.id)).toEqual(list);
    expect(await listedMembers(g, list.id)).toEqual([]);
  });

  it.each([
    ["no contacts", { contact_ids: [] }, "contact_ids"],
    [
      "more than 100 contacts",
      { contact_ids: Array.from({ length: 101 }, (_, i) => `con_${String(i).padStart(26, "0")}`) },
      "contact_ids",
    ],
    [
      "a contact twice",
      { contact_ids: ["con_01jd4xk9v2c7h8m3n5p6q7r8s9", "con_01jd4xk9v2c7h8m3n5p6q7r8s9"] },
      "contact_ids",
    ],
    ["an id of another kind", { contact_ids: ["art_01jd4xk9v2c7h8m3n5p6q7r8s9"] }, "contact_ids.0"],
    ["a missing contact_ids", {}, "contact_ids"],
    ["an unknown field", { contact_ids: ["con_01jd4xk9v2c7h8m3n5p6q7r8s9"], position: 1 }, "position"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    const list = await create(g, { title: "Bad input" });
    await expectProblem(
      await call("POST", `${BASE}/${list.id}/members`, { key: g.key, body }),
      400,
      "invalid_request",
      {
        field,
        location: "body",
      },
    );
  });

  it("refuses removing another gallery's contact (404) and needs contacts:update (403)", async () => {
    const list = await create(g, { title: "Guarded" });
    const theirs = await newContact(await createGallery());
    await expectProblem(
      await call("DELETE", `${BASE}/${list.id}/members/${theirs}`, { key: g.key }),
      404,
      "not_found",
    );
    const ours = await newContact(g);
    const creator = await g.keyWith(["contacts:read", "contacts:create"]);
    await expectProblem(
      await call("POST", `${BASE}/${list.id}/members`, { key: creator, body: { contact_ids: [ours] } }),
      403,
      "forbidden",
    );
    await expectProblem(
      await call("DELETE", `${BASE}/${list.id}/members/${ours}`, { key: creator }),
      403,
      "forbidden",
    );
  });
});

describe("another gallery's list", () => {
  it("is 404 to every operation, and stays as it was", async () => {
    const g = await createGallery();
    const elsewhere = await createGallery();
    const theirs = await create(elsewhere, { title: "Theirs" });
    const ours = await newContact(g);
    const path = `${BASE}/${theirs.id}`;
    await expectProblem(await call("GET", path, { key: g.key }), 404, "not_found");
    await expectProblem(await call("PATCH", path, { key: g.key, body: { title: "Mine" } }), 404, "not_found");
    await expectProblem(await call("DELETE", path, { key: g.key }), 404, "not_found");
    await expectProblem(
      await call("POST", `${path}/members`, { key: g.key, body: { contact_ids: [ours] } }),
      404,
      "not_found",
    );
    await expectProblem(await call("DELETE", `${path}/members/${ours}`, { key: g.key }), 404, "not_found");
    expect(await get(elsewhere, theirs.id)).toEqual(theirs);
    const listed = await readJson(ListPage, await call("GET", BASE, { key: g.key }));
    expect(listed.data).toEqual([]);
  });
});
