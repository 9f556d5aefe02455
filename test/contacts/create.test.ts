import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Contact } from "../../lib/schemas/contacts";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";
import { expectProblem } from "../helpers/problem";
import {
  BASE,
  createdContact,
  eventsOfType,
  fetchedContact,
  fetchedSegmentation,
  ISO_MS,
  insertTag,
} from "./helpers";

/** POST /gallery/contacts and GET /gallery/contacts/{id}. */

describe("POST /gallery/contacts", () => {
  let g: TestGallery;
  let member: string;
  let tagA: string;
  let tagB: string;
  beforeAll(async () => {
    g = await createGallery();
    member = (await createMember(g.id, "editor")).id;
    tagA = await insertTag(g.id);
    tagB = await insertTag(g.id);
  });

  it("creates a contact with every field, reads it back, and emits contact.created", async () => {
    const second = (await createMember(g.id, "viewer")).id;
    const body = await createdContact(g, {
      name: "  Ada Lovelace ",
      company: "Analytical Engines Ltd",
      email: "  Ada.Lovelace@Example.COM ",
      phone: "+44 20 7946 0000",
      notes: "Met at the Frieze preview.",
      form_of_address: "Countess",
      contact_type: "collector",
      lead_status: "engaged",
      do_not_email: true,
      email_consent: "granted",
      save_state: "saved",
      assignee_ids: [second, member],
      tag_ids: [tagA, tagB],
      custom_fields: { budget: 250000, mediums: ["oil", "ink"], vip_since: null },
      collector_profile: {
        collecting_focus: "Victorian watercolours",
        budget_band: "25k-100k",
        wishlist_notes: "A Turner study",
        preferred_contact_method: "email",
        vip: true,
        tax_exempt: false,
      },
      institution_profile: { institution_kind: "foundation", tax_exempt: true },
      metadata: { crm_source: "fair" },
    });
    expect(body).toEqual({
      id: expect.stringMatching(/^con_[0-9a-z]{26}$/),
      name: "Ada Lovelace",
      company: "Analytical Engines Ltd",
      email: "ada.lovelace@example.com",
      phone: "+44 20 7946 0000",
      notes: "Met at the Frieze preview.",
      form_of_address: "Countess",
      contact_type: "collector",
      assignee_ids: [second, member],
      last_interaction_at: null,
      last_interaction_type: null,
      lead_status: "engaged",
      do_not_email: true,
      archived_at: null,
      save_state: "saved",
      custom_fields: { budget: 250000, mediums: ["oil", "ink"], vip_since: null },
      collector_profile: {
        collecting_focus: "Victorian watercolours",
        budget_band: "25k-100k",
        wishlist_notes: "A Turner study",
        preferred_contact_method: "email",
        vip: true,
        tax_exempt: false,
        created_at: body.created_at,
        updated_at: body.created_at,
      },
      institution_profile: {
        institution_kind: "foundation",
        acquisition_process: null,
        primary_contact_name: null,
        tax_exempt: true,
        created_at: body.created_at,
        updated_at: body.created_at,
      },
      metadata: { crm_source: "fair" },
      created_at: expect.stringMatching(ISO_MS),
      updated_at: body.created_at,
    });
    expect(await fetchedContact(g, body.id)).toEqual(body);
    const events = await eventsOfType(g.id, "contact.created");
    expect(events.find((e) => e.resource_id === body.id)?.data).toEqual({ object: body });
    expect(await fetchedSegmentation(g, body.id)).toEqual({
      contact_id: body.id,
      tag_ids: [tagA, tagB].sort(),
      email_consent: "granted",
      total_spend_cents: 0,
      works_acquired: 0,
      avg_acquisition_cents: null,
      price_band: null,
      currency: "USD",
      last_engaged_at: null,
    });
  });

  it("fills the defaults for a contact with only a name", async () => {
    const body = await createdContact(g, { name: "Walk-in" });
    expect(body).toMatchObject({
      email: null,
      company: null,
      contact_type: "other",
      lead_status: "new",
      do_not_email: false,
      save_state: "new",
      assignee_ids: [],
      custom_fields: {},
      metadata: {},
      collector_profile: null,
      institution_profile: null,
    });
    expect(await fetchedSegmentation(g, body.id)).toMatchObject({ email_consent: "pending", tag_ids: [] });
  });

  it.each([
    "collector",
    "institution",
    "consignor",
    "lender",
    "advisor",
    "press",
    "other",
  ])("accepts contact_type %s", async (contact_type) => {
    expect(await createdContact(g, { name: "Typed", contact_type })).toMatchObject({ contact_type });
  });

  it.each([
    "new",
    "active",
    "engaged",
    "dormant",
    "closed",
  ])("accepts lead_status %s", async (lead_status) => {
    expect(await createdContact(g, { name: "Lead", lead_status })).toMatchObject({ lead_status });
  });

  it("keeps one unarchived contact per email: case and space variants are the same email (409 naming it)", async () => {
    const first = await createdContact(g, { name: "Grace", email: "grace@navy.example" });
    for (const variant of ["GRACE@navy.example", "  grace@Navy.Example  "]) {
      const problem = await expectProblem(
        await call("POST", BASE, { key: g.key, body: { name: "Grace again", email: variant } }),
        409,
        "conflict",
      );
      expect(problem.details).toEqual({ existing_id: first.id });
      expect(problem.detail).toContain(first.id);
    }
    // Without an email, any number of contacts.
    await createdContact(g, { name: "No email", email: null });
    await createdContact(g, { name: "No email" });
    // Another gallery's contacts do not count.
    const elsewhere = await createGallery();
    expect(await createdContact(elsewhere, { name: "Grace", email: "GRACE@navy.example" })).toMatchObject({
      email: "grace@navy.example",
    });
  });

  it("answers the same 409 when two creates race for one email", async () => {
    const g2 = await createGallery();
    const responses = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        call("POST", BASE, { key: g2.key, body: { name: `Racer ${n}`, email: "race@example.com" } }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const winner = (await responses.find((r) => r.status === 201)!.json()) as { id: string };
    for (const response of responses.filter((r) => r.status === 409)) {
      const problem = await expectProblem(response, 409, "conflict");
      expect(problem.details).toEqual({ existing_id: winner.id });
    }
  });

  it("refuses assignees that are not members of the gallery: 400 naming assignee_ids[]", async () => {
    const stranger = (await createMember((await createGallery()).id, "editor")).id;
    for (const ids of [[stranger], [member, newId("mem")]]) {
      await expectProblem(
        await call("POST", BASE, { key: g.key, body: { name: "Assigned", assignee_ids: ids } }),
        400,
        "invalid_request",
        { field: "assignee_ids[]", location: "body" },
      );
    }
  });

  it("refuses tags that are not the gallery's contact tags: 400 naming tag_ids[]", async () => {
    const artworkTag = await insertTag(g.id, "artwork");
    const theirTag = await insertTag((await createGallery()).id);
    for (const ids of [[artworkTag], [tagA, theirTag], [newId("tag")]]) {
      await expectProblem(
        await call("POST", BASE, { key: g.key, body: { name: "Tagged", tag_ids: ids } }),
        400,
        "invalid_request",
        { field: "tag_ids[]", location: "body" },
      );
    }
    const count = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from contacts where gallery_id = ${g.id} and name = 'Tagged'`,
    );
    expect(count.rows[0]!.n).toBe(0);
  });

  it.each([
    ["a missing name", { email: "x@example.com" }, "name"],
    ["a blank name", { name: "   " }, "name"],
    ["a name over 200 characters", { name: "n".repeat(201) }, "name"],
    ["an invalid email", { name: "x", email: "not-an-email" }, "email"],
    ["an unknown contact_type", { name: "x", contact_type: "painter" }, "contact_type"],
    ["an unknown lead_status", { name: "x", lead_status: "hot" }, "lead_status"],
    ["an unknown email_consent", { name: "x", email_consent: "maybe" }, "email_consent"],
    ["an unknown save_state", { name: "x", save_state: "published" }, "save_state"],
    ["a non-boolean do_not_email", { name: "x", do_not_email: "yes" }, "do_not_email"],
    ["a malformed assignee id", { name: "x", assignee_ids: ["someone"] }, "assignee_ids.0"],
    [
      "an assignee twice",
      { name: "x", assignee_ids: ["mem_01jd4xk9v2c7h8m3n5p6q7r8s9", "mem_01jd4xk9v2c7h8m3n5p6q7r8s9"] },
      "assignee_ids",
    ],
    [
      "a tag twice",
      { name: "x", tag_ids: ["tag_01jd4xk9v2c7h8m3n5p6q7r8s9", "tag_01jd4xk9v2c7h8m3n5p6q7r8s9"] },
      "tag_ids",
    ],
    [
      "custom_fields with 51 keys",
      { name: "x", custom_fields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
      "custom_fields",
    ],
    ["a metadata value that is not a string", { name: "x", metadata: { a: 1 } }, "metadata.a"],
    [
      "an unknown collector_profile field",
      { name: "x", collector_profile: { favourite: "oil" } },
      "collector_profile.favourite",
    ],
    ["a non-boolean vip", { name: "x", collector_profile: { vip: "yes" } }, "collector_profile.vip"],
    ["an unknown field", { name: "x", spend: 10 }, "spend"],
    ["a spend field, which sales keep", { name: "x", total_spend_cents: 10 }, "total_spend_cents"],
  ])("refuses %s: 400 naming the field", async (_, body, field) => {
    await expectProblem(await call("POST", BASE, { key: g.key, body }), 400, "invalid_request", {
      field,
      location: "body",
    });
  });

  it("replays a retried create with the same Idempotency-Key: one contact, one event", async () => {
    const g2 = await createGallery();
    const headers = { "Idempotency-Key": `create-${crypto.randomUUID()}` };
    const body = { name: "Once", email: "once@example.com" };
    const first = await call("POST", BASE, { key: g2.key, body, headers });
    const again = await call("POST", BASE, { key: g2.key, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect(await eventsOfType(g2.id, "contact.created")).toHaveLength(1);
    await expectProblem(
      await call("POST", BASE, { key: g2.key, body: { ...body, name: "Twice" }, headers }),
      400,
      "idempotency_key_reused",
    );
  });

  it("answers 401 without a credential and 403 without contacts:create", async () => {
    await expectProblem(await call("POST", BASE, { body: { name: "x" } }), 401);
    const readOnly = await g.keyWith(["contacts:read", "sales:read", "contacts:update"]);
    await expectProblem(await call("POST", BASE, { key: readOnly, body: { name: "x" } }), 403, "forbidden");
    const creator = await g.keyWith(["contacts:create"]);
    const response = await call("POST", BASE, { key: creator, body: { name: "By a narrow key" } });
    expect(response.status).toBe(201);
  });
});

describe("GET /gallery/contacts/{id}", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("needs contacts:read and sales:read (a contact carries its spend)", async () => {
    const contact = await createdContact(g, { name: "Scoped" });
    const path = `${BASE}/${contact.id}`;
    await expectProblem(await call("GET", path), 401);
    await expectProblem(
      await call("GET", path, { key: await g.keyWith(["contacts:read"]) }),
      403,
      "forbidden",
    );
    await expectProblem(await call("GET", path, { key: await g.keyWith(["sales:read"]) }), 403, "forbidden");
    const both = await g.keyWith(["contacts:read", "sales:read"]);
    expect(await readJson(Contact, await call("GET", path, { key: both }))).toEqual(contact);
  });

  it("answers 404 for another gallery's contact or an unknown id, 400 for a malformed one", async () => {
    const theirs = await createdContact(await createGallery(), { name: "Theirs" });
    await expectProblem(await call("GET", `${BASE}/${theirs.id}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${newId("con")}`, { key: g.key }), 404, "not_found");
    await expectProblem(
      await call("GET", `${BASE}/art_01jd4xk9v2c7h8m3n5p6q7r8s9`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "id",
        location: "path",
      },
    );
  });
});
