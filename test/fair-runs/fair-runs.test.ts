import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { FairRun } from "../../lib/schemas/fair-runs";
import { forgetCachedResponse } from "../artworks/helpers";
import { ISO_MS, memberSession } from "../contact-interactions/helpers";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** Fair-submission runs: GET/POST /gallery/fair-runs, GET/PATCH /gallery/fair-runs/{id}. */

type RunBody = z.infer<typeof FairRun>;

const BASE = "/gallery/fair-runs";

/** A gallery and an editor its runs act for. */
async function setting() {
  const g = await createGallery();
  const member = await createMember(g.id, "editor");
  return { g, member: member.id };
}

async function startRun(
  g: TestGallery,
  userId: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<RunBody> {
  const res = await call("POST", BASE, {
    key: g.key,
    body: { portal_domain: "apply.example-fair.com", user_id: userId, ...body },
    headers,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(FairRun, res);
}

function patch(g: TestGallery, id: string, body: unknown, headers: Record<string, string> = {}) {
  return call("PATCH", `${BASE}/${id}`, { key: g.key, body, headers });
}

async function patchRun(g: TestGallery, id: string, body: Record<string, unknown>): Promise<RunBody> {
  const res = await patch(g, id, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(FairRun, res);
}

async function getRun(g: TestGallery, id: string): Promise<RunBody> {
  const res = await call("GET", `${BASE}/${id}`, { key: g.key });
  expect(res.status).toBe(200);
  return readJson(FairRun, res);
}

/**
 * The run's events straight from the outbox, oldest first. The events of one change share its transaction's
 * time, so fair_run.updated is put before the finishing event it is recorded beside.
 */
async function runEvents(g: TestGallery, id: string) {
  const result = await db().execute<{
    id: string;
    type: string;
    resource_id: string;
    data: Record<string, unknown>;
  }>(
    sql`select id, type, resource_id, data from domain_events where gallery_id = ${g.id} and resource_id = ${id}
      order by created_at, type <> 'fair_run.updated', id`,
  );
  return result.rows;
}

/** A 409 `conflict` and its details. */
async function expectConflict(res: Response): Promise<Record<string, unknown>> {
  const problem = await expectProblem(res, 409, "conflict");
  return problem.details as unknown as Record<string, unknown>;
}

const open = { tool: "open_portal", gated: false };
const fill = { tool: "fill_application", gated: false };
const submit = { tool: "submit_application", gated: true };

describe("POST /gallery/fair-runs", () => {
  it("starts a run for a member: running, at step 0, with an empty log; emits fair_run.created", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member, {
      portal_domain: "Apply.NorthSea-Art-Fair.COM",
      fair_list_id: "list_2025_selection",
    });
    expect(run).toEqual({
      id: expect.stringMatching(/^fair_[0-9a-z]{26}$/),
      user_id: member,
      portal_domain: "apply.northsea-art-fair.com",
      fair_list_id: "list_2025_selection",
      error: null,
      status: "running",
      step_count: 0,
      actions: [],
      created_at: expect.stringMatching(ISO_MS),
      updated_at: run.created_at,
    });
    expect(Object.keys(run)).toEqual(Object.keys(FairRun.shape));
    expect(await runEvents(g, run.id)).toEqual([
      { id: expect.any(String), type: "fair_run.created", resource_id: run.id, data: { object: run } },
    ]);
    expect(await getRun(g, run.id)).toEqual(run);
  });

  it("takes fair_list_id as null or left out, and internationalised portals in their xn-- form", async () => {
    const { g, member } = await setting();
    expect((await startRun(g, member, { fair_list_id: null })).fair_list_id).toBeNull();
    const run = await startRun(g, member, { portal_domain: "xn--kunstmesse-mnchen-3vb.example" });
    expect([run.fair_list_id, run.portal_domain]).toEqual([null, "xn--kunstmesse-mnchen-3vb.example"]);
  });

  it("with a member session, acts for the signed-in member: leaving user_id out or naming oneself, never another", async () => {
    const { g, member } = await setting();
    const editor = await memberSession(g, "editor");
    const body = { portal_domain: "apply.example-fair.com" };
    for (const extra of [{}, { user_id: editor.memberId }]) {
      const res = await call("POST", BASE, { key: editor.token, body: { ...body, ...extra } });
      expect(res.status, await res.clone().text()).toBe(201);
      expect((await readJson(FairRun, res)).user_id).toBe(editor.memberId);
    }
    const res = await call("POST", BASE, { key: editor.token, body: { ...body, user_id: member } });
    const problem = await expectProblem(res, 400, "invalid_request", { field: "user_id", location: "body" });
    expect(problem.details?.[0]?.message).toBe(
      "must be the signed-in member (or left out) with a member session",
    );
    expect((await getPage(g.key, BASE)).data).toHaveLength(2);
  });

  it("with a secret key, user_id is required and must be an active member of this gallery", async () => {
    const { g } = await setting();
    const other = await createGallery();
    const theirs = await createMember(other.id, "editor");
    const disabled = await createMember(g.id, "editor", { disabled: true });
    const body = { portal_domain: "apply.example-fair.com" };
    let res = await call("POST", BASE, { key: g.key, body });
    let problem = await expectProblem(res, 400, "invalid_request", { field: "user_id", location: "body" });
    expect(problem.details?.[0]?.message).toBe("is required with a secret key: the member the run acts for");
    for (const userId of [theirs.id, disabled.id, newId("mem")]) {
      res = await call("POST", BASE, { key: g.key, body: { ...body, user_id: userId } });
      problem = await expectProblem(res, 400, "invalid_request", { field: "user_id", location: "body" });
      expect(problem.details?.[0]?.message).toBe("must be an active member of this gallery");
    }
    expect((await getPage(g.key, BASE)).data).toEqual([]);
    expect(await outboxEvents(g.id)).toEqual([]);
  });

  it.each([
    ["portal_domain", { portal_domain: undefined }],
    ["portal_domain", { portal_domain: "" }],
    ["portal_domain", { portal_domain: "https://apply.example-fair.com" }],
    ["portal_domain", { portal_domain: "apply.example-fair.com/submit" }],
    ["portal_domain", { portal_domain: "apply.example-fair.com:443" }],
    ["portal_domain", { portal_domain: "apply.example-fair.com." }],
    ["portal_domain", { portal_domain: "localhost" }],
    ["portal_domain", { portal_domain: "192.168.10.1" }],
    ["portal_domain", { portal_domain: "-apply.example.com" }],
    ["portal_domain", { portal_domain: "apply-.example.com" }],
    ["portal_domain", { portal_domain: "apply..example.com" }],
    ["portal_domain", { portal_domain: "apply example.com" }],
    ["portal_domain", { portal_domain: "kunstmesse-münchen.example" }],
    ["portal_domain", { portal_domain: `${"a".repeat(64)}.example.com` }],
    ["portal_domain", { portal_domain: `${"abcdefghi.".repeat(25)}example` }],
    ["portal_domain", { portal_domain: 42 }],
    ["fair_list_id", { fair_list_id: "" }],
    ["fair_list_id", { fair_list_id: "x".repeat(201) }],
    ["fair_list_id", { fair_list_id: 7 }],
    ["user_id", { user_id: "con_01jd4xk9v2c7h8m3n5p6q7r8s9" }],
    ["status", { status: "running" }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const { g, member } = await setting();
    const body = { portal_domain: "apply.example-fair.com", user_id: member, ...change };
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
    expect((await getPage(g.key, BASE)).data).toEqual([]);
  });

  it("401 without a credential; 403 without artworks:create, and for a viewer", async () => {
    const { g, member } = await setting();
    const body = { portal_domain: "apply.example-fair.com", user_id: member };
    await expectProblem(await call("POST", BASE, { body }), 401, "unauthenticated");
    const key = await g.keyWith(["artworks:read", "artworks:update"]);
    const res = await call("POST", BASE, { key, body });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "artworks:create",
    ]);
    const viewer = await memberSession(g, "viewer");
    const asViewer = await call("POST", BASE, {
      key: viewer.token,
      body: { portal_domain: body.portal_domain },
    });
    await expectProblem(asViewer, 403, "forbidden");
    expect((await getPage(g.key, BASE)).data).toEqual([]);
  });
});

describe("a run through gated actions", () => {
  it("records progress, pauses for approval, succeeds once approved, and then never changes again", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);

    const progressed = await patchRun(g, run.id, {
      step_count: 2,
      actions: [
        { ...open, at: "2025-03-01T09:00Z" },
        { ...fill, at: "2025-03-01T09:05:30.1234Z" },
      ],
    });
    expect(progressed).toMatchObject({ status: "running", step_count: 2, error: null });
    expect(progressed.actions).toEqual([
      { tool: "open_portal", gated: false, approved: false, at: "2025-03-01T09:00:00.000Z" },
      { tool: "fill_application", gated: false, approved: false, at: "2025-03-01T09:05:30.123Z" },
    ]);
    expect(Object.keys(progressed.actions[0]!)).toEqual(["tool", "gated", "approved", "at"]);

    // The gated submit arrives with the pause; its time is the request's.
    const paused = await patchRun(g, run.id, {
      status: "awaiting_approval",
      step_count: 3,
      actions: [submit],
    });
    expect(paused.status).toBe("awaiting_approval");
    expect(paused.actions[2]).toEqual({ ...submit, approved: false, at: paused.updated_at });

    // Succeeding with the gate unapproved is refused, and nothing changes.
    const refused = await patch(g, run.id, { status: "succeeded", step_count: 4 });
    const details = await expectConflict(refused);
    expect(details).toEqual({ unapproved_positions: [2] });
    expect(await getRun(g, run.id)).toEqual(paused);

    // A member approves the submit; the run goes on and succeeds.
    const approved = await patchRun(g, run.id, { approve: [2], status: "running" });
    expect(approved.actions[2]!.approved).toBe(true);
    expect(approved.actions.slice(0, 2)).toEqual(progressed.actions);
    const done = await patchRun(g, run.id, {
      status: "succeeded",
      step_count: 4,
      actions: [{ tool: "confirm_receipt", gated: false }],
    });
    expect(done).toMatchObject({ status: "succeeded", step_count: 4 });
    expect(done.actions.map((a) => a.tool)).toEqual([
      "open_portal",
      "fill_application",
      "submit_application",
      "confirm_receipt",
    ]);

    const events = await runEvents(g, run.id);
    expect(events.map((e) => e.type)).toEqual([
      "fair_run.created",
      "fair_run.updated",
      "fair_run.updated",
      "fair_run.updated",
      "fair_run.updated",
      "fair_run.succeeded",
    ]);
    expect(events[1]!.data).toEqual({
      object: progressed,
      previous_attributes: { step_count: 0 },
      appended_actions: progressed.actions,
      approved_positions: [],
    });
    expect(events[2]!.data).toEqual({
      object: paused,
      previous_attributes: { status: "running", step_count: 2 },
      appended_actions: [paused.actions[2]],
      approved_positions: [],
    });
    expect(events[3]!.data).toEqual({
      object: approved,
      previous_attributes: { status: "awaiting_approval" },
      appended_actions: [],
      approved_positions: [2],
    });
    expect(events[4]!.data).toMatchObject({
      object: done,
      previous_attributes: { status: "running", step_count: 3 },
      appended_actions: [done.actions[3]],
    });
    expect(events[5]!.data).toEqual({ object: done });

    // Reopening, or any other change to the finished run, is refused naming its state.
    const changes = [
      { status: "running" },
      { status: "awaiting_approval" },
      { status: "failed" },
      { step_count: 5 },
      { error: "late failure" },
      { actions: [open] },
      { status: "succeeded", step_count: 5 },
    ];
    for (const body of changes) {
      const res = await patch(g, run.id, body);
      const problem = await expectProblem(res, 409, "conflict");
      expect(problem.details, JSON.stringify(body)).toEqual({ status: "succeeded" });
      expect(problem.detail).toBe("The fair run has finished (succeeded): a finished run never changes.");
    }
    // Saying what it already holds changes nothing: 200, no event.
    for (const body of [{ status: "succeeded" }, { step_count: 4, error: null }, { approve: [2] }, {}]) {
      const res = await patch(g, run.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(await readJson(FairRun, res)).toEqual(done);
    }
    expect(await getRun(g, run.id)).toEqual(done);
    expect(await runEvents(g, run.id)).toHaveLength(6);
  });

  it("approves and succeeds in one request; an appended gated action may arrive approved", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    await patchRun(g, run.id, { actions: [open, submit, { tool: "pay_fee", gated: true }] });
    const details = await expectConflict(await patch(g, run.id, { approve: [1], status: "succeeded" }));
    expect(details).toEqual({ unapproved_positions: [2] });
    const done = await patchRun(g, run.id, { approve: [2, 1], status: "succeeded" });
    expect(done.actions.map((a) => a.approved)).toEqual([false, true, true]);
    expect((await runEvents(g, run.id)).at(-2)!.data).toMatchObject({ approved_positions: [1, 2] });

    const other = await startRun(g, member);
    const quick = await patchRun(g, other.id, {
      actions: [{ ...submit, approved: true }],
      status: "succeeded",
      step_count: 1,
    });
    expect(quick.actions[0]!.approved).toBe(true);
    expect(quick.status).toBe("succeeded");
  });

  it("awaiting_approval needs a gated action left to approve; running and awaiting_approval follow each other", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    let details = await expectConflict(await patch(g, run.id, { status: "awaiting_approval" }));
    expect(details).toEqual({ status: "running", unapproved_positions: [] });
    await patchRun(g, run.id, { actions: [submit, open] });
    details = await expectConflict(await patch(g, run.id, { status: "awaiting_approval", approve: [0] }));
    expect(details).toEqual({ status: "running", unapproved_positions: [] });
    expect((await patchRun(g, run.id, { status: "awaiting_approval" })).status).toBe("awaiting_approval");
    // Approving the last gate while paused is allowed; the runner then moves on.
    expect((await patchRun(g, run.id, { approve: [0] })).status).toBe("awaiting_approval");
    expect((await patchRun(g, run.id, { status: "running" })).status).toBe("running");
    details = await expectConflict(await patch(g, run.id, { status: "awaiting_approval" }));
    expect(details).toEqual({ status: "running", unapproved_positions: [] });
    // A new gated action appended in the same request is one to approve.
    const paused = await patchRun(g, run.id, { status: "awaiting_approval", actions: [submit] });
    expect(paused.status).toBe("awaiting_approval");
  });

  it("fails with an error, or is cancelled; each finish emits its event beside fair_run.updated", async () => {
    const { g, member } = await setting();
    const failing = await startRun(g, member);
    await patchRun(g, failing.id, { actions: [open, submit], status: "awaiting_approval" });
    // A finished run need not have its gates approved unless it succeeds.
    const failed = await patchRun(g, failing.id, {
      status: "failed",
      error: "Sign-in failed: the portal answered 401.",
    });
    expect(failed).toMatchObject({ status: "failed", error: "Sign-in failed: the portal answered 401." });
    const events = await runEvents(g, failing.id);
    expect(events.slice(-2).map((e) => [e.type, e.data])).toEqual([
      [
        "fair_run.updated",
        {
          object: failed,
          previous_attributes: { status: "awaiting_approval", error: null },
          appended_actions: [],
          approved_positions: [],
        },
      ],
      ["fair_run.failed", { object: failed }],
    ]);
    const problem = await expectProblem(await patch(g, failing.id, { status: "running" }), 409, "conflict");
    expect(problem.details).toEqual({ status: "failed" });
    expect(await expectConflict(await patch(g, failing.id, { error: null }))).toEqual({ status: "failed" });
    expect(await expectConflict(await patch(g, failing.id, { approve: [1] }))).toEqual({ status: "failed" });

    const cancelling = await startRun(g, member);
    const cancelled = await patchRun(g, cancelling.id, { status: "cancelled" });
    expect((await runEvents(g, cancelling.id)).map((e) => e.type)).toEqual([
      "fair_run.created",
      "fair_run.updated",
      "fair_run.cancelled",
    ]);
    expect(cancelled.status).toBe("cancelled");
    expect(await expectConflict(await patch(g, cancelling.id, { status: "succeeded" }))).toEqual({
      status: "cancelled",
    });
  });

  it("records an error on an active run and clears it with null", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const erred = await patchRun(g, run.id, { error: "Upload timed out; retrying." });
    expect(erred).toMatchObject({ status: "running", error: "Upload timed out; retrying." });
    const cleared = await patchRun(g, run.id, { error: null, step_count: 1 });
    expect(cleared.error).toBeNull();
    expect((await runEvents(g, run.id)).at(-1)!.data).toMatchObject({
      previous_attributes: { error: "Upload timed out; retrying.", step_count: 0 },
    });
  });
});

describe("PATCH /gallery/fair-runs/{id}: refusals", () => {
  it("step_count never decreases: 409 naming the current count; the same count is no change", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const at5 = await patchRun(g, run.id, { step_count: 5 });
    const res = await patch(g, run.id, { step_count: 4, actions: [open] });
    const problem = await expectProblem(res, 409, "conflict");
    expect(problem.details).toEqual({ step_count: 5 });
    expect(problem.detail).toBe("step_count never decreases: the run is at step 5, above 4.");
    expect(await getRun(g, run.id)).toEqual(at5);
    const same = await patch(g, run.id, { step_count: 5 });
    expect(await readJson(FairRun, same)).toEqual(at5);
    expect(await runEvents(g, run.id)).toHaveLength(2);
  });

  it("approve names gated actions of the stored log: beyond it or not gated is 400 naming approve", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const empty = await patch(g, run.id, { approve: [0] });
    expect((await expectProblem(empty, 400, "invalid_request")).details).toEqual([
      { location: "body", field: "approve", message: "position 0 is beyond the log, which is empty" },
    ]);
    const single = await patchRun(g, run.id, { actions: [open] });
    const one = await patch(g, run.id, { approve: [3] });
    expect((await expectProblem(one, 400, "invalid_request")).details).toEqual([
      {
        location: "body",
        field: "approve",
        message: "position 3 is beyond the log, which holds 1 action (position 0)",
      },
    ]);
    expect(await getRun(g, run.id)).toEqual(single);
    const before = await patchRun(g, run.id, { actions: [submit] });
    const cases: [unknown, string][] = [
      [[2], "position 2 is beyond the log, which holds 2 actions (positions 0 to 1)"],
      [[1, 7], "position 7 is beyond the log, which holds 2 actions (positions 0 to 1)"],
      [[0], "position 0 is not a gated action: only gated actions are approved"],
    ];
    for (const [approve, message] of cases) {
      const res = await patch(g, run.id, { approve, step_count: 1 });
      const problem = await expectProblem(res, 400, "invalid_request", {
        field: "approve",
        location: "body",
      });
      expect(problem.details).toEqual([{ location: "body", field: "approve", message }]);
    }
    // A position of an action appended in the same request is not in the stored log yet.
    const res = await patch(g, run.id, { actions: [submit], approve: [2] });
    await expectProblem(res, 400, "invalid_request", { field: "approve", location: "body" });
    const malformed: [unknown, string][] = [
      [[], "approve"],
      [[1, 1], "approve"],
      [1, "approve"],
      [[-1], "approve.0"],
      [[0.5], "approve.0"],
      [["1"], "approve.0"],
      [[1, 1000], "approve.1"],
    ];
    for (const [approve, field] of malformed) {
      const bad = await patch(g, run.id, { approve });
      await expectProblem(bad, 400, "invalid_request", { field, location: "body" });
    }
    expect(await getRun(g, run.id)).toEqual(before);
  });

  it.each([
    ["status", { status: "completed" }],
    ["status", { status: null }],
    ["step_count", { step_count: -1 }],
    ["step_count", { step_count: 1.5 }],
    ["step_count", { step_count: 2_147_483_648 }],
    ["step_count", { step_count: "3" }],
    ["error", { error: "" }],
    ["error", { error: "x".repeat(2001) }],
    ["error", { error: 5 }],
    ["actions", { actions: [] }],
    ["actions", { actions: Array.from({ length: 51 }, () => open) }],
    ["actions", { actions: open }],
    ["actions.0.tool", { actions: [{ gated: false }] }],
    ["actions.0.tool", { actions: [{ tool: "", gated: false }] }],
    ["actions.0.tool", { actions: [{ tool: "   ", gated: false }] }],
    ["actions.0.tool", { actions: [{ tool: "t".repeat(101), gated: false }] }],
    ["actions.0.gated", { actions: [{ tool: "open_portal" }] }],
    ["actions.0.gated", { actions: [{ tool: "open_portal", gated: "no" }] }],
    ["actions.1.approved", { actions: [open, { ...submit, approved: null }] }],
    ["actions.0.at", { actions: [{ ...open, at: "2025-02-29T10:00Z" }] }],
    ["actions.0.at", { actions: [{ ...open, at: "2025-03-01T10:00:00+01:00" }] }],
    ["actions.0.no_such_field", { actions: [{ ...open, no_such_field: true }] }],
    ["no_such_field", { actions: [open], no_such_field: 1 }],
    ["no_such_field", { no_such_field: 1 }],
    ["id", { id: "fair_01jd4xk9v2c7h8m3n5p6q7r8s9" }],
    ["portal_domain", { portal_domain: "apply.other-fair.com" }],
  ])("400 naming %s (case %#); nothing changes", async (field, body) => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const res = await patch(g, run.id, body);
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect(await getRun(g, run.id)).toEqual(run);
    expect(await runEvents(g, run.id)).toHaveLength(1);
  });

  it("400 for a body that is missing or not an object", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    await expectProblem(await call("PATCH", `${BASE}/${run.id}`, { key: g.key }), 400, "invalid_request");
    await expectProblem(await patch(g, run.id, [open]), 400, "invalid_request");
    expect(await getRun(g, run.id)).toEqual(run);
  });

  it("the log holds at most 1000 actions: 409 with the limit and the count, nothing appended", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const entry = { tool: "upload_image", gated: false, approved: false, at: "2025-03-01T09:00:00.000Z" };
    await db().execute(
      sql`update fair_runs set actions = ${JSON.stringify(Array.from({ length: 999 }, () => entry))}::jsonb
        where id = ${run.id}`,
    );
    const res = await patch(g, run.id, { actions: [open, fill] });
    const problem = await expectProblem(res, 409, "conflict");
    expect(problem.details).toEqual({ limit: 1000, action_count: 999 });
    expect((await getRun(g, run.id)).actions).toHaveLength(999);
    const full = await patchRun(g, run.id, { actions: [open] });
    expect(full.actions).toHaveLength(1000);
    expect(full.actions[999]!.tool).toBe("open_portal");
  });

  it("a request that changes nothing emits nothing and keeps updated_at", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const changed = await patchRun(g, run.id, { actions: [submit], error: "slow portal" });
    for (const body of [{}, { status: "running" }, { step_count: 0, error: "slow portal" }]) {
      expect(await patchRun(g, run.id, body)).toEqual(changed);
    }
    expect(await runEvents(g, run.id)).toHaveLength(2);
  });
});

describe("PATCH /gallery/fair-runs/{id}: retries and concurrency", () => {
  it("replays a retry with the same Idempotency-Key without appending twice; another body is 400", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const headers = { "Idempotency-Key": `fair-${crypto.randomUUID()}` };
    const body = { step_count: 1, actions: [open, submit] };
    const first = await patch(g, run.id, body, headers);
    expect(first.status).toBe(200);
    const firstBody = await readJson(FairRun, first);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await patch(g, run.id, body, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect((await getRun(g, run.id)).actions).toHaveLength(2);
    expect((await runEvents(g, run.id)).map((e) => e.type)).toEqual(["fair_run.created", "fair_run.updated"]);
    const other = await patch(g, run.id, { ...body, step_count: 2 }, headers);
    await expectProblem(other, 400, "idempotency_key_reused");
    expect((await getRun(g, run.id)).actions).toHaveLength(2);
  });

  it("replays the request that finished the run, rather than refusing it as a change to a finished run", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const headers = { "Idempotency-Key": `finish-${crypto.randomUUID()}` };
    const body = { status: "succeeded", actions: [{ tool: "confirm_receipt", gated: false }] };
    const first = await patch(g, run.id, body, headers);
    expect(first.status).toBe(200);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await patch(g, run.id, body, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect((await getRun(g, run.id)).actions).toHaveLength(1);
  });

  it("concurrent appends each land or are refused with a retryable 409: none is lost", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const tools = Array.from({ length: 10 }, (_, i) => `tool_${i}`);
    const results = await Promise.all(
      tools.map((tool) => patch(g, run.id, { actions: [{ tool, gated: false }] })),
    );
    const landed: string[] = [];
    for (const [i, res] of results.entries()) {
      if (res.status === 200) landed.push(tools[i]!);
      else await expectProblem(res, 409, "concurrent_modification");
    }
    expect(landed.length).toBeGreaterThan(0);
    const stored = (await getRun(g, run.id)).actions.map((a) => a.tool);
    expect([...stored].sort()).toEqual([...landed].sort());
    // The refused ones land when retried.
    for (const tool of tools.filter((t) => !landed.includes(t))) {
      await patchRun(g, run.id, { actions: [{ tool, gated: false }] });
    }
    expect((await getRun(g, run.id)).actions.map((a) => a.tool).sort()).toEqual([...tools].sort());
    const appended = (await runEvents(g, run.id))
      .filter((e) => e.type === "fair_run.updated")
      .flatMap((e) => (e.data.appended_actions as { tool: string }[]).map((a) => a.tool));
    expect(appended.sort()).toEqual([...tools].sort());
  });
});

describe("security", () => {
  it("reads need artworks:read, PATCH artworks:update; a viewer reads but cannot update", async () => {
    const { g, member } = await setting();
    const run = await startRun(g, member);
    const reader = await g.keyWith(["artworks:read"]);
    expect((await call("GET", `${BASE}/${run.id}`, { key: reader })).status).toBe(200);
    expect((await call("GET", BASE, { key: reader })).status).toBe(200);
    const res = await call("PATCH", `${BASE}/${run.id}`, { key: reader, body: { step_count: 1 } });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "artworks:update",
    ]);
    const noRead = await g.keyWith(["artworks:update", "contacts:read"]);
    await expectProblem(await call("GET", `${BASE}/${run.id}`, { key: noRead }), 403, "forbidden");
    await expectProblem(await call("GET", BASE, { key: noRead }), 403, "forbidden");
    const viewer = await memberSession(g, "viewer");
    expect((await call("GET", `${BASE}/${run.id}`, { key: viewer.token })).status).toBe(200);
    const asViewer = await call("PATCH", `${BASE}/${run.id}`, { key: viewer.token, body: { step_count: 1 } });
    await expectProblem(asViewer, 403, "forbidden");
    await expectProblem(await call("PATCH", `${BASE}/${run.id}`, { body: { step_count: 1 } }), 401);
    expect(await getRun(g, run.id)).toEqual(run);
  });

  it("another gallery's run is not found, and is left unchanged", async () => {
    const { g, member } = await setting();
    const other = await createGallery();
    const run = await startRun(g, member);
    await expectProblem(await call("GET", `${BASE}/${run.id}`, { key: other.key }), 404, "not_found");
    const res = await call("PATCH", `${BASE}/${run.id}`, { key: other.key, body: { status: "cancelled" } });
    await expectProblem(res, 404, "not_found");
    expect((await getPage(other.key, BASE)).data).toEqual([]);
    expect(await getRun(g, run.id)).toEqual(run);
  });

  it("an editor's session drives a run through the same rules", async () => {
    const { g } = await setting();
    const editor = await memberSession(g, "editor");
    const send = (method: string, path: string, body: Record<string, unknown>) =>
      call(method, path, { key: editor.token, body });
    const run = await readJson(FairRun, await send("POST", BASE, { portal_domain: "apply.example.com" }));
    const path = `${BASE}/${run.id}`;
    expect((await send("PATCH", path, { actions: [submit], status: "awaiting_approval" })).status).toBe(200);
    const early = await send("PATCH", path, { approve: [0], status: "succeeded", actions: [submit] });
    expect(await expectConflict(early)).toEqual({ unapproved_positions: [1] });
    const done = await send("PATCH", path, { approve: [0], status: "succeeded", step_count: 1 });
    expect((await readJson(FairRun, done)).status).toBe("succeeded");
    expect(await expectConflict(await send("PATCH", path, { status: "running" }))).toEqual({
      status: "succeeded",
    });
  });
});

describe("GET /gallery/fair-runs", () => {
  it("lists newest first; filters by status and user_id; sorts by update; pages with a cursor", async () => {
    const { g, member } = await setting();
    const second = (await createMember(g.id, "editor")).id;
    const a = await startRun(g, member, { portal_domain: "a.example.com" });
    const b = await startRun(g, second, { portal_domain: "b.example.com" });
    const c = await startRun(g, member, { portal_domain: "c.example.com" });
    const cancelled = await patchRun(g, a.id, { status: "cancelled" });
    const paused = await patchRun(g, b.id, { actions: [submit], status: "awaiting_approval" });

    expect((await getPage<RunBody>(g.key, BASE)).data).toEqual([c, paused, cancelled]);
    expect((await getPage<RunBody>(g.key, BASE, "dir=asc")).data.map((r) => r.id)).toEqual([
      a.id,
      b.id,
      c.id,
    ]);
    expect((await getPage<RunBody>(g.key, BASE, "sort=updated")).data.map((r) => r.id)).toEqual([
      b.id,
      a.id,
      c.id,
    ]);
    expect((await getPage<RunBody>(g.key, BASE, "status=cancelled")).data).toEqual([cancelled]);
    expect((await getPage<RunBody>(g.key, BASE, "status=running")).data).toEqual([c]);
    expect((await getPage<RunBody>(g.key, BASE, "status=succeeded")).data).toEqual([]);
    expect((await getPage<RunBody>(g.key, BASE, `user_id=${member}`)).data).toEqual([c, cancelled]);
    expect((await getPage<RunBody>(g.key, BASE, `user_id=${member}&status=running`)).data).toEqual([c]);

    const pages = await walkPages<RunBody>(g.key, BASE, { limit: "1" });
    expect(pages.flatMap((p) => p.data.map((r) => r.id))).toEqual([c.id, b.id, a.id]);
  });

  it.each([
    ["status", "status=completed"],
    ["user_id", "user_id=con_01jd4xk9v2c7h8m3n5p6q7r8s9"],
    ["sort", "sort=status"],
    ["limit", "limit=101"],
    ["portal_domain", "portal_domain=a.example.com"],
  ])("400 naming %s", async (field, query) => {
    const { g } = await setting();
    await expectProblem(await call("GET", `${BASE}?${query}`, { key: g.key }), 400, "invalid_request", {
      field,
    });
  });
});
