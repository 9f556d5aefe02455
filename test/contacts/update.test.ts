import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Contact } from "../../lib/schemas/contacts";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";
import { expectProblem } from "../helpers/problem";
import {
  BASE,
  type ContactBody,
  createdContact,
  eventsOfType,
  fetchedContact,
  fetchedSegmentation,
  insertTag,
} from "./helpers";

/** PATCH /gallery/contacts/{id}. */

async function patched(g: TestGallery, id: string, body: Record<string, unknown>): Promise<ContactBody> {
  const response = await call("PATCH", `${BASE}/${id}`, { key: g.key, body });
  const json = await readJson(Contact, response);
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function lastUpdate(g: TestGallery, id: string) {
  const events = (await eventsOfType(g.id, "contact.updated")).filter((e) => e.resource_id === id);
  return { count: events.length, data: events[events.length - 1]?.data };
}

describe("PATCH /gallery/contacts/{id}", () => {
  let g: TestGallery;
  let m1: string;
  let m2: string;
  let t1: string;
  let t2: string;
  let t3: string;
  beforeAll(async () => {
    g = await createGallery();
    m1 = (await createMember(g.id, "editor")).id;
    m2 = (await createMember(g.id, "editor")).id;
    [t1, t2, t3] = [await insertTag(g.id), await insertTag(g.id), await insertTag(g.id)];
  });

  it("changes only the fields sent and emits contact.updated with their former values", async () => {
    const before = await createdContact(g, {
      name: "Grace Hopper",
      company: "US Navy",
      lead_status: "new",
      custom_fields: { rank: "commodore" },
    });
    const after = await patched(g, before.id, {
      lead_status: "active",
      company: null,
      phone: "+1 555 0100",
      custom_fields: { rank: "rear admiral" },
      metadata: { source: "import" },
    });
    expect(after).toEqual({
      ...before,
      lead_status: "active",
      company: null,
      phone: "+1 555 0100",
      custom_fields: { rank: "rear admiral" },
      metadata: { source: "import" },
      updated_at: expect.any(String),
    });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(await fetchedContact(g, before.id)).toEqual(after);
    expect((await lastUpdate(g, before.id)).data).toEqual({
      object: after,
      previous_attributes: {
        lead_status: "new",
        company: "US Navy",
        phone: null,
        custom_fields: { rank: "commodore" },
        metadata: {},
      },
    });
  });

  it("writes and records nothing for a patch that changes nothing", async () => {
    const before = await createdContact(g, {
      name: "Same",
      email: "same@example.com",
      assignee_ids: [m1, m2],
      tag_ids: [t1, t2],
      email_consent: "granted",
      collector_profile: { vip: true, budget_band: "5k" },
    });
    const after = await patched(g, before.id, {
      name: "Same",
      email: "  SAME@Example.com",
      assignee_ids: [m1, m2],
      tag_ids: [t2, t1],
      email_consent: "granted",
      collector_profile: { vip: true },
    });
    expect(after).toEqual(before);
    expect((await lastUpdate(g, before.id)).count).toBe(0);
    expect(await patched(g, before.id, {})).toEqual(before);
  });

  it("replaces assignees in the order sent and tags as a set", async () => {
    const before = await createdContact(g, { name: "Assigned", assignee_ids: [m1], tag_ids: [t1, t2] });
    const reordered = await patched(g, before.id, { assignee_ids: [m2, m1] });
    expect(reordered.assignee_ids).toEqual([m2, m1]);
    expect((await lastUpdate(g, before.id)).data).toMatchObject({
      previous_attributes: { assignee_ids: [m1] },
    });
    const retagged = await patched(g, before.id, { tag_ids: [t3, t2] });
    // Kept tags keep their place; new ones come after.
    expect((await fetchedSegmentation(g, before.id)).tag_ids).toEqual([t2, t3]);
    expect(Date.parse(retagged.updated_at)).toBeGreaterThan(Date.parse(reordered.updated_at));
    // The Contact does not show its tags: the event names the updated_at they moved, not the tags.
    expect((await lastUpdate(g, before.id)).data).toEqual({
      object: retagged,
      previous_attributes: { updated_at: reordered.updated_at },
    });
    const cleared = await patched(g, before.id, { assignee_ids: [], tag_ids: [] });
    expect(cleared.assignee_ids).toEqual([]);
    expect((await fetchedSegmentation(g, before.id)).tag_ids).toEqual([]);
    expect((await lastUpdate(g, before.id)).data).toMatchObject({
      previous_attributes: { assignee_ids: [m2, m1], updated_at: retagged.updated_at },
    });
  });

  it("changes email consent, read back from the segmentation, and records the change", async () => {
    const before = await createdContact(g, { name: "Consenting" });
    expect((await fetchedSegmentation(g, before.id)).email_consent).toBe("pending");
    const after = await patched(g, before.id, { email_consent: "granted" });
    expect((await fetchedSegmentation(g, before.id)).email_consent).toBe("granted");
    expect(await lastUpdate(g, before.id)).toEqual({
      count: 1,
      data: { object: after, previous_attributes: { updated_at: before.updated_at } },
    });
    expect(await patched(g, before.id, { email_consent: "granted" })).toEqual(after);
    expect((await lastUpdate(g, before.id)).count).toBe(1);
  });

  it("merges a profile into the stored one, creates it when absent, and removes it with null", async () => {
    const before = await createdContact(g, { name: "Collector" });
    const created = await patched(g, before.id, { collector_profile: { collecting_focus: "Ceramics" } });
    expect(created.collector_profile).toEqual({
      collecting_focus: "Ceramics",
      budget_band: null,
      wishlist_notes: null,
      preferred_contact_method: null,
      vip: false,
      tax_exempt: false,
      created_at: created.updated_at,
      updated_at: created.updated_at,
    });
    expect((await lastUpdate(g, before.id)).data).toMatchObject({
      previous_attributes: { collector_profile: null },
    });
    const merged = await patched(g, before.id, {
      collector_profile: { vip: true, wishlist_notes: "A Lucie Rie bowl" },
    });
    expect(merged.collector_profile).toEqual({
      ...created.collector_profile,
      vip: true,
      wishlist_notes: "A Lucie Rie bowl",
      updated_at: merged.updated_at,
    });
    expect((await lastUpdate(g, before.id)).data).toMatchObject({
      previous_attributes: { collector_profile: created.collector_profile },
    });
    const institution = await patched(g, before.id, {
      institution_profile: { primary_contact_name: "Registrar" },
    });
    expect(institution.institution_profile).toMatchObject({
      primary_contact_name: "Registrar",
      tax_exempt: false,
    });
    expect(institution.collector_profile).toEqual(merged.collector_profile);
    const removed = await patched(g, before.id, { collector_profile: null });
    expect(removed.collector_profile).toBeNull();
    expect(removed.institution_profile).toEqual(institution.institution_profile);
    // Removing what is not there is no change.
    const events = (await lastUpdate(g, before.id)).count;
    await patched(g, before.id, { collector_profile: null });
    expect((await lastUpdate(g, before.id)).count).toBe(events);
  });

  it("refuses an email another unarchived contact has (409 naming it), and takes one an archived contact had", async () => {
    const holder = await createdContact(g, { name: "Holder", email: "taken@example.com" });
    const mover = await createdContact(g, { name: "Mover", email: "mover@example.com" });
    const problem = await expectProblem(
      await call("PATCH", `${BASE}/${mover.id}`, { key: g.key, body: { email: " Taken@Example.com" } }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ existing_id: holder.id });
    expect((await fetchedContact(g, mover.id)).email).toBe("mover@example.com");
    expect((await call("POST", `${BASE}/${holder.id}/archive`, { key: g.key })).status).toBe(200);
    expect(await patched(g, mover.id, { email: "taken@example.com" })).toMatchObject({
      email: "taken@example.com",
    });
    // An archived contact's email is not checked until it is restored.
    const archived = await createdContact(g, { name: "Shelved", email: "shelved@example.com" });
    expect((await call("POST", `${BASE}/${archived.id}/archive`, { key: g.key })).status).toBe(200);
    expect(await patched(g, archived.id, { email: "TAKEN@example.com" })).toMatchObject({
      email: "taken@example.com",
    });
  });

  it("refuses assignees and tags that are not the gallery's: 400 naming the field, nothing changed", async () => {
    const contact = await createdContact(g, { name: "Refs", assignee_ids: [m1], tag_ids: [t1] });
    const stranger = (await createMember((await createGallery()).id, "editor")).id;
    await expectProblem(
      await call("PATCH", `${BASE}/${contact.id}`, {
        key: g.key,
        body: { name: "Changed", assignee_ids: [stranger] },
      }),
      400,
      "invalid_request",
      { field: "assignee_ids[]", location: "body" },
    );
    await expectProblem(
      await call("PATCH", `${BASE}/${contact.id}`, {
        key: g.key,
        body: { tag_ids: [await insertTag(g.id, "show")] },
      }),
      400,
      "invalid_request",
      { field: "tag_ids[]", location: "body" },
    );
    expect(await fetchedContact(g, contact.id)).toEqual(contact);
  });

  it.each([
    ["a null name", { name: null }, "name"],
    ["an empty name", { name: "" }, "name"],
    ["an invalid email", { email: "someone at example" }, "email"],
    ["an unknown contact_type", { contact_type: "buyer" }, "contact_type"],
    ["an unknown lead_status", { lead_status: "won" }, "lead_status"],
    ["an unknown field", { archived_at: null }, "archived_at"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    const contact = await createdContact(g, { name: "Valid" });
    await expectProblem(
      await call("PATCH", `${BASE}/${contact.id}`, { key: g.key, body }),
      400,
      "invalid_request",
      {
        field,
        location: "body",
      },
    );
  });

  it("replays a retried patch with the same Idempotency-Key", async () => {
    const contact = await createdContact(g, { name: "Retry" });
    const headers = { "Idempotency-Key": `patch-${crypto.randomUUID()}` };
    const first = await call("PATCH", `${BASE}/${contact.id}`, {
      key: g.key,
      body: { notes: "First" },
      headers,
    });
    const again = await call("PATCH", `${BASE}/${contact.id}`, {
      key: g.key,
      body: { notes: "First" },
      headers,
    });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect((await lastUpdate(g, contact.id)).count).toBe(1);
  });

  it("answers 404 for another gallery's contact, 401 without a credential and 403 without contacts:update", async () => {
    const theirs = await createdContact(await createGallery(), { name: "Theirs" });
    await expectProblem(
      await call("PATCH", `${BASE}/${theirs.id}`, { key: g.key, body: { name: "Mine now" } }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("PATCH", `${BASE}/${newId("con")}`, { key: g.key, body: { name: "Nobody" } }),
      404,
      "not_found",
    );
    const mine = await createdContact(g, { name: "Mine" });
    await expectProblem(await call("PATCH", `${BASE}/${mine.id}`, { body: { name: "x" } }), 401);
    const key = await g.keyWith(["contacts:read", "contacts:create", "contacts:delete", "sales:read"]);
    await expectProblem(
      await call("PATCH", `${BASE}/${mine.id}`, { key, body: { name: "x" } }),
      403,
      "forbidden",
    );
  });
});
