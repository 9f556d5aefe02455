import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Task } from "../../lib/schemas/tasks";
import { forgetCachedResponse } from "../artworks/helpers";
import { ISO_MS, memberSession, newContact } from "../contact-interactions/helpers";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** A contact's tasks: GET/POST /gallery/contacts/{id}/tasks, PATCH/DELETE …/tasks/{taskId}. */

type TaskBody = z.infer<typeof Task>;

const tasksOf = (contactId: string) => `/gallery/contacts/${contactId}/tasks`;
const taskPath = (contactId: string, taskId: string) => `${tasksOf(contactId)}/${taskId}`;

async function addTask(
  g: TestGallery,
  contactId: string,
  body: Record<string, unknown>,
  opts: { key?: string; headers?: Record<string, string> } = {},
): Promise<TaskBody> {
  const res = await call("POST", tasksOf(contactId), { key: opts.key ?? g.key, body, headers: opts.headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(Task, res);
}

async function patchTask(g: TestGallery, contactId: string, id: string, body: Record<string, unknown>) {
  const res = await call("PATCH", taskPath(contactId, id), { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Task, res);
}

async function listed(g: TestGallery, contactId: string, query: Record<string, string>): Promise<string[]> {
  const pages = await walkPages<TaskBody>(g.key, tasksOf(contactId), query);
  return pages.flatMap((p) => p.data.map((t) => t.id));
}

describe("POST /gallery/contacts/{id}/tasks", () => {
  it("creates a task with every field and emits task.created; created_by is null for a key", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const assignee = await createMember(g.id, "editor");
    const task = await addTask(g, contactId, {
      title: "  Send the catalogue  ",
      notes: "The spring one, with the price list.",
      due_at: "2030-03-01T09:00Z",
      assignee_id: assignee.id,
    });
    expect(task).toEqual({
      id: expect.stringMatching(/^task_[0-9a-z]{26}$/),
      contact_id: contactId,
      title: "Send the catalogue",
      notes: "The spring one, with the price list.",
      due_at: "2030-03-01T09:00:00.000Z",
      done: false,
      completed_at: null,
      assignee_id: assignee.id,
      created_by: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(Object.keys(task)).toEqual(Object.keys(Task.shape));
    expect((await outboxEvents(g.id)).filter((e) => e.type === "task.created")).toEqual([
      { id: expect.any(String), type: "task.created", resource_id: task.id, data: { object: task } },
    ]);
  });

  it("takes a title alone; done: true records it as done now; a session's member is created_by", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const minimal = await addTask(g, contactId, { title: "Call back" });
    expect(minimal).toMatchObject({
      notes: null,
      due_at: null,
      done: false,
      completed_at: null,
      assignee_id: null,
    });
    const done = await addTask(g, contactId, { title: "Already done", done: true });
    expect(done.done).toBe(true);
    expect(done.completed_at).toBe(done.created_at);
    const { memberId, token } = await memberSession(g);
    expect((await addTask(g, contactId, { title: "Mine" }, { key: token })).created_by).toBe(memberId);
  });

  it.each([
    ["title", { title: undefined }],
    ["title", { title: "  " }],
    ["title", { title: "x".repeat(501) }],
    ["notes", { notes: "x".repeat(20_001) }],
    ["due_at", { due_at: "2030-02-29T00:00Z" }],
    ["due_at", { due_at: "2030-03-01T09:00:00+01:00" }],
    ["due_at", { due_at: "2030-03-01" }],
    ["done", { done: "yes" }],
    ["assignee_id", { assignee_id: "someone" }],
    ["assignee_id", { assignee_id: newId("mem") }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const res = await call("POST", tasksOf(contactId), { key: g.key, body: { title: "Valid", ...change } });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect((await getPage(g.key, tasksOf(contactId))).data).toEqual([]);
    expect((await outboxEvents(g.id)).filter((e) => e.type.startsWith("task."))).toEqual([]);
  });

  it("400 naming assignee_id for a member of another gallery", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const contactId = await newContact(g);
    const theirs = await createMember(other.id, "editor");
    const res = await call("POST", tasksOf(contactId), {
      key: g.key,
      body: { title: "Theirs", assignee_id: theirs.id },
    });
    await expectProblem(res, 400, "invalid_request", { field: "assignee_id", location: "body" });
    expect((await getPage(g.key, tasksOf(contactId))).data).toEqual([]);
  });

  it("404 for another gallery's contact; 401 without a key; 403 without contacts:create", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const theirs = await newContact(other);
    for (const id of [theirs, newId("con")]) {
      await expectProblem(
        await call("POST", tasksOf(id), { key: g.key, body: { title: "x" } }),
        404,
        "not_found",
      );
    }
    expect((await getPage(other.key, tasksOf(theirs))).data).toEqual([]);
    const mine = await newContact(g);
    await expectProblem(await call("POST", tasksOf(mine), { body: { title: "x" } }), 401, "unauthenticated");
    const key = await g.keyWith(["contacts:read", "contacts:update", "contacts:delete"]);
    const res = await call("POST", tasksOf(mine), { key, body: { title: "x" } });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "contacts:create",
    ]);
  });

  it("replays a retry with the same Idempotency-Key: one task, one event", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const headers = { "Idempotency-Key": "task-once" };
    const first = await addTask(g, contactId, { title: "Once" }, { headers });
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("POST", tasksOf(contactId), { key: g.key, body: { title: "Once" }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    expect((await getPage(g.key, tasksOf(contactId))).data).toEqual([first]);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "task.created")).toHaveLength(1);
  });
});

describe("PATCH /gallery/contacts/{id}/tasks/{taskId}", () => {
  it("marks done (completed_at now), keeps completed_at when done again, reopens; events carry previous_attributes", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const task = await addTask(g, contactId, { title: "Follow up" });
    const done = await patchTask(g, contactId, task.id, { done: true });
    expect(done.done).toBe(true);
    expect(done.completed_at).toBe(done.updated_at);
    expect(Date.parse(done.updated_at)).toBeGreaterThan(Date.parse(task.updated_at));

    const still = await patchTask(g, contactId, task.id, { done: true });
    expect(still).toEqual(done);

    const reopened = await patchTask(g, contactId, task.id, { done: false });
    expect([reopened.done, reopened.completed_at]).toEqual([false, null]);

    const updates = (await outboxEvents(g.id)).filter((e) => e.type === "task.updated");
    expect(updates.map((e) => e.data)).toEqual([
      { object: done, previous_attributes: { done: false, completed_at: null } },
      { object: reopened, previous_attributes: { done: true, completed_at: done.completed_at } },
    ]);
  });

  it("changes title, notes, due date and assignee; the same instant spelled otherwise is no change", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const [a, b] = [await createMember(g.id, "editor"), await createMember(g.id, "viewer")];
    const task = await addTask(g, contactId, {
      title: "Draft",
      due_at: "2030-01-01T00:00Z",
      assignee_id: a.id,
    });
    const changed = await patchTask(g, contactId, task.id, {
      title: "Final",
      notes: "Ring first",
      due_at: null,
      assignee_id: b.id,
    });
    expect(changed).toMatchObject({ title: "Final", notes: "Ring first", due_at: null, assignee_id: b.id });
    const redated = await patchTask(g, contactId, task.id, {
      due_at: "2031-06-30T12:00:00.5Z",
      assignee_id: null,
    });
    expect([redated.due_at, redated.assignee_id]).toEqual(["2031-06-30T12:00:00.500Z", null]);
    const same = await patchTask(g, contactId, task.id, {
      due_at: "2031-06-30T12:00:00.500000Z",
      title: "Final",
    });
    expect(same).toEqual(redated);
    const updates = (await outboxEvents(g.id)).filter((e) => e.type === "task.updated");
    expect(updates.map((e) => e.data.previous_attributes)).toEqual([
      { title: "Draft", notes: null, due_at: "2030-01-01T00:00:00.000Z", assignee_id: a.id },
      { due_at: null, assignee_id: b.id },
    ]);
  });

  it.each([
    ["title", { title: "" }],
    ["title", { title: null }],
    ["done", { done: null }],
    ["due_at", { due_at: "2031-13-01T00:00Z" }],
    ["assignee_id", { assignee_id: newId("mem") }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); the task is unchanged", async (field, change) => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const task = await addTask(g, contactId, { title: "Keep" });
    const res = await call("PATCH", taskPath(contactId, task.id), { key: g.key, body: change });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect((await getPage(g.key, tasksOf(contactId))).data).toEqual([task]);
  });

  it("404 for a task of another contact or gallery; 401 without a key; 403 without contacts:update", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const [mine, sibling] = [await newContact(g), await newContact(g, "Sibling")];
    const task = await addTask(g, mine, { title: "Mine" });
    await expectProblem(
      await call("PATCH", taskPath(sibling, task.id), { key: g.key, body: { done: true } }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("PATCH", taskPath(mine, task.id), { key: other.key, body: { done: true } }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("PATCH", taskPath(mine, task.id), { body: { done: true } }),
      401,
      "unauthenticated",
    );
    const key = await g.keyWith(["contacts:read", "contacts:create"]);
    await expectProblem(
      await call("PATCH", taskPath(mine, task.id), { key, body: { done: true } }),
      403,
      "forbidden",
    );
    expect((await getPage(g.key, tasksOf(mine))).data).toEqual([task]);
  });
});

describe("DELETE /gallery/contacts/{id}/tasks/{taskId}", () => {
  it("deletes, emits task.deleted with the last state, replays a retry, then answers 404", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const task = await addTask(g, contactId, { title: "Gone soon" });
    const headers = { "Idempotency-Key": "task-delete" };
    const res = await call("DELETE", taskPath(contactId, task.id), { key: g.key, headers });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: task.id, deleted: true });
    const again = await call("DELETE", taskPath(contactId, task.id), { key: g.key, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    await expectProblem(await call("DELETE", taskPath(contactId, task.id), { key: g.key }), 404, "not_found");
    expect((await getPage(g.key, tasksOf(contactId))).data).toEqual([]);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "task.deleted")).toEqual([
      { id: expect.any(String), type: "task.deleted", resource_id: task.id, data: { object: task } },
    ]);
  });

  it("404 for another contact's task and another gallery's; 403 without contacts:delete", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const [mine, sibling] = [await newContact(g), await newContact(g, "Sibling")];
    const task = await addTask(g, mine, { title: "Stays" });
    await expectProblem(await call("DELETE", taskPath(sibling, task.id), { key: g.key }), 404, "not_found");
    await expectProblem(await call("DELETE", taskPath(mine, task.id), { key: other.key }), 404, "not_found");
    const key = await g.keyWith(["contacts:read", "contacts:update"]);
    await expectProblem(await call("DELETE", taskPath(mine, task.id), { key }), 403, "forbidden");
    expect((await getPage(g.key, tasksOf(mine))).data).toEqual([task]);
  });
});

describe("GET /gallery/contacts/{id}/tasks", () => {
  it("sorts newest first by default; sort=due puts tasks without a due date last in both directions", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const due = [
      "2030-05-01T00:00Z",
      null,
      "2030-01-01T00:00Z",
      null,
      "2030-03-01T00:00Z",
      "0001-01-01T00:00Z",
    ];
    const made: TaskBody[] = [];
    for (const [i, due_at] of due.entries())
      made.push(await addTask(g, contactId, { title: `#${i}`, due_at }));
    const ids = made.map((t) => t.id);
    const [may, none1, jan, none2, mar, ancient] = ids as [string, string, string, string, string, string];

    expect(await listed(g, contactId, { limit: "4" })).toEqual([...ids].reverse());
    expect(await listed(g, contactId, { sort: "created", dir: "asc", limit: "4" })).toEqual(ids);
    expect(await listed(g, contactId, { sort: "due", dir: "asc", limit: "2" })).toEqual([
      ancient,
      jan,
      mar,
      may,
      none1,
      none2,
    ]);
    expect(await listed(g, contactId, { sort: "due", limit: "2" })).toEqual([
      may,
      mar,
      jan,
      ancient,
      none2,
      none1,
    ]);
    for (const limit of ["1", "3", "5"]) {
      expect(await listed(g, contactId, { sort: "due", dir: "asc", limit })).toEqual([
        ancient,
        jan,
        mar,
        may,
        none1,
        none2,
      ]);
    }
  });

  it("done=false keeps the open tasks, done=true the done ones", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const open = await addTask(g, contactId, { title: "Open" });
    const closed = await addTask(g, contactId, { title: "Closed", done: true });
    expect(await listed(g, contactId, { done: "false" })).toEqual([open.id]);
    expect(await listed(g, contactId, { done: "true" })).toEqual([closed.id]);
    await expectProblem(
      await call("GET", `${tasksOf(contactId)}?done=yes`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "done",
      },
    );
    await expectProblem(
      await call("GET", `${tasksOf(contactId)}?sort=title`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "sort",
      },
    );
  });

  it("lists only this contact's tasks; 404 for another gallery's contact; 401; 403 without contacts:read", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const [mine, sibling] = [await newContact(g), await newContact(g, "Sibling")];
    const task = await addTask(g, mine, { title: "Mine" });
    await addTask(g, sibling, { title: "Theirs" });
    expect(await getPage(g.key, tasksOf(mine))).toEqual({ data: [task], next_cursor: null });
    await expectProblem(await call("GET", tasksOf(mine), { key: other.key }), 404, "not_found");
    await expectProblem(await call("GET", tasksOf(mine)), 401, "unauthenticated");
    await expectProblem(
      await call("GET", tasksOf(mine), { key: await g.keyWith(["contacts:create"]) }),
      403,
      "forbidden",
    );
    const viewer = await memberSession(g, "viewer");
    expect((await getPage(viewer.token, tasksOf(mine))).data).toEqual([task]);
  });
});
