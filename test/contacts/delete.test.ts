import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { call, createGallery, db, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import {
  BASE,
  createdContact,
  eventsOfType,
  fetchedContact,
  fetchedSegmentation,
  insertEngagement,
  insertInteraction,
  insertJudgment,
  insertList,
  insertSale,
  rowsNaming,
} from "./helpers";

/** DELETE /gallery/contacts/{id}: erasure of the person; sales stay without a contact. */

describe("DELETE /gallery/contacts/{id}", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("erases the contact and what was recorded about it, keeps its sales with no contact, and emits contact.deleted", async () => {
    const contact = await createdContact(g, {
      name: "To erase",
      email: "erase@example.com",
      collector_profile: { vip: true },
      institution_profile: { tax_exempt: true },
    });
    const kept = await createdContact(g, { name: "Kept" });
    const saleId = await insertSale(g.id, contact.id, 1_500_000);
    await insertInteraction(g.id, contact.id, "2024-03-01T00:00:00.000Z");
    await insertEngagement(g.id, contact.id, "room_opened", "2024-03-02T00:00:00.000Z");
    await insertJudgment(g.id, `segment:${newId("list")}`, contact.id, true, 0.9);
    const listId = await insertList(g.id, { members: [contact.id, kept.id] });
    await db().execute(sql`insert into tasks (id, gallery_id, contact_id, title)
      values (${newId("task")}, ${g.id}, ${contact.id}, 'Call back')`);
    await db().execute(sql`insert into private_notes (id, gallery_id, contact_id, body)
      values (${newId("note")}, ${g.id}, ${contact.id}, 'Confidential')`);
    const last = await fetchedContact(g, contact.id);
    expect((await fetchedSegmentation(g, contact.id)).total_spend_cents).toBe(1_500_000);

    const response = await call("DELETE", `${BASE}/${contact.id}`, { key: g.key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: contact.id, deleted: true });
    await expectProblem(await call("GET", `${BASE}/${contact.id}`, { key: g.key }), 404, "not_found");

    for (const table of [
      "interactions",
      "engagement_events",
      "contact_engagement",
      "tasks",
      "private_notes",
      "collector_profiles",
      "institution_profiles",
      "contact_list_memberships",
      "rubric_judgments",
      "sales",
    ]) {
      expect(await rowsNaming(table, contact.id), table).toBe(0);
    }
    const sale = await db().execute<{ contact_id: string | null }>(
      sql`select contact_id from sales where id = ${saleId}`,
    );
    expect(sale.rows).toEqual([{ contact_id: null }]);
    const members = await db().execute<{ contact_id: string }>(
      sql`select contact_id from contact_list_memberships where list_id = ${listId}`,
    );
    expect(members.rows).toEqual([{ contact_id: kept.id }]);

    const events = await eventsOfType(g.id, "contact.deleted");
    expect(events.find((e) => e.resource_id === contact.id)?.data).toEqual({ object: last });
    // Its email is free again.
    expect(await createdContact(g, { name: "New owner", email: "erase@example.com" })).toMatchObject({
      email: "erase@example.com",
    });
  });

  it("replays a retried delete with the same key; without one, a second delete is 404", async () => {
    const contact = await createdContact(g, { name: "Twice" });
    const headers = { "Idempotency-Key": `delete-${crypto.randomUUID()}` };
    const first = await call("DELETE", `${BASE}/${contact.id}`, { key: g.key, headers });
    const again = await call("DELETE", `${BASE}/${contact.id}`, { key: g.key, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual({ id: contact.id, deleted: true });
    await expectProblem(await call("DELETE", `${BASE}/${contact.id}`, { key: g.key }), 404, "not_found");
    expect(
      (await eventsOfType(g.id, "contact.deleted")).filter((e) => e.resource_id === contact.id),
    ).toHaveLength(1);
  });

  it("answers 404 for another gallery's contact, 401 without a credential and 403 without contacts:delete", async () => {
    const theirs = await createdContact(await createGallery(), { name: "Theirs" });
    await expectProblem(await call("DELETE", `${BASE}/${theirs.id}`, { key: g.key }), 404, "not_found");
    const mine = await createdContact(g, { name: "Mine" });
    await expectProblem(await call("DELETE", `${BASE}/${mine.id}`), 401);
    const key = await g.keyWith(["contacts:read", "contacts:update", "sales:read"]);
    await expectProblem(await call("DELETE", `${BASE}/${mine.id}`, { key }), 403, "forbidden");
    expect(await fetchedContact(g, mine.id)).toEqual(mine);
  });
});
