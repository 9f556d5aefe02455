import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Contact } from "../../lib/schemas/contacts";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import {
  BASE,
  type ContactBody,
  createdContact,
  eventsOfType,
  fetchedContact,
  ISO_MS,
  insertList,
  listedIdSet,
} from "./helpers";

/** POST /gallery/contacts/{id}/archive and /restore: the reversible archive shelf. */

async function shelve(g: TestGallery, id: string, action: "archive" | "restore", headers = {}) {
  const response = await call("POST", `${BASE}/${id}/${action}`, { key: g.key, headers });
  const body = await readJson(Contact, response);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { response, body };
}

async function eventCount(g: TestGallery, type: string, id: string): Promise<number> {
  return (await eventsOfType(g.id, type)).filter((e) => e.resource_id === id).length;
}

describe("the archive shelf", () => {
  let g: TestGallery;
  let ada: ContactBody;
  let bea: ContactBody;
  let staticList: string;
  let dynamicList: string;
  beforeAll(async () => {
    g = await createGallery();
    ada = await createdContact(g, { name: "Ada", email: "ada@example.com", contact_type: "collector" });
    bea = await createdContact(g, { name: "Bea", contact_type: "collector" });
    await createdContact(g, { name: "Cyd", contact_type: "press" });
    staticList = await insertList(g.id, { members: [ada.id, bea.id] });
    dynamicList = await insertList(g.id, { dynamicQuery: { type: "collector" } });
  });

  it("archives: the roster and dynamic lists drop the contact, it is still read by id; restore brings it back", async () => {
    const everyone = await listedIdSet(g, "");
    expect(await listedIdSet(g, `list_id=${dynamicList}`)).toEqual([ada.id, bea.id].sort());

    const { body: archived } = await shelve(g, ada.id, "archive");
    expect(archived).toEqual({
      ...ada,
      archived_at: expect.stringMatching(ISO_MS),
      updated_at: archived.archived_at,
    });
    expect(await fetchedContact(g, ada.id)).toEqual(archived);
    expect(await listedIdSet(g, "")).toEqual(everyone.filter((id) => id !== ada.id));
    expect(await listedIdSet(g, "archived=only")).toEqual([ada.id]);
    expect(await listedIdSet(g, "archived=true")).toEqual([ada.id]);
    expect(await listedIdSet(g, "archived=include")).toEqual(everyone);
    expect(await listedIdSet(g, "archived=false")).toEqual(everyone.filter((id) => id !== ada.id));
    expect(await listedIdSet(g, `list_id=${dynamicList}`)).toEqual([bea.id]);
    expect(await listedIdSet(g, `list_id=${dynamicList}&archived=include`)).toEqual([bea.id]);
    // A static list keeps its member; the default roster hides it, archived=include shows it.
    expect(await listedIdSet(g, `list_id=${staticList}`)).toEqual([bea.id]);
    expect(await listedIdSet(g, `list_id=${staticList}&archived=include`)).toEqual([ada.id, bea.id].sort());
    const [event] = (await eventsOfType(g.id, "contact.archived")).filter((e) => e.resource_id === ada.id);
    expect(event?.data).toEqual({ object: archived });

    const { body: restored } = await shelve(g, ada.id, "restore");
    expect(restored).toEqual({ ...ada, updated_at: expect.stringMatching(ISO_MS) });
    expect(Date.parse(restored.updated_at)).toBeGreaterThan(Date.parse(archived.updated_at));
    expect(await listedIdSet(g, "")).toEqual(everyone);
    expect(await listedIdSet(g, "archived=only")).toEqual([]);
    expect(await listedIdSet(g, `list_id=${dynamicList}`)).toEqual([ada.id, bea.id].sort());
    const [restoredEvent] = (await eventsOfType(g.id, "contact.restored")).filter(
      (e) => e.resource_id === ada.id,
    );
    expect(restoredEvent?.data).toEqual({ object: restored });
  });

  it("makes repeat calls harmless: the same contact, no change, no event", async () => {
    const contact = await createdContact(g, { name: "Repeat" });
    const { body: first } = await shelve(g, contact.id, "archive");
    const { body: second } = await shelve(g, contact.id, "archive");
    expect(second).toEqual(first);
    expect(await eventCount(g, "contact.archived", contact.id)).toBe(1);
    const { body: restored } = await shelve(g, contact.id, "restore");
    const { body: again } = await shelve(g, contact.id, "restore");
    expect(again).toEqual(restored);
    expect(await eventCount(g, "contact.restored", contact.id)).toBe(1);
    // Restoring a contact that was never archived changes nothing either.
    const fresh = await createdContact(g, { name: "Never shelved" });
    expect((await shelve(g, fresh.id, "restore")).body).toEqual(fresh);
    expect(await eventCount(g, "contact.restored", fresh.id)).toBe(0);
  });

  it("frees the email while archived; restore is 409 naming the contact that took it meanwhile", async () => {
    const first = await createdContact(g, { name: "First", email: "shared@example.com" });
    await shelve(g, first.id, "archive");
    const second = await createdContact(g, { name: "Second", email: "Shared@Example.com" });
    const problem = await expectProblem(
      await call("POST", `${BASE}/${first.id}/restore`, { key: g.key }),
      409,
      "conflict",
    );
    expect(problem.details).toEqual({ existing_id: second.id });
    expect((await fetchedContact(g, first.id)).archived_at).not.toBeNull();
    // Once the email is free again, the restore goes through.
    await call("PATCH", `${BASE}/${second.id}`, { key: g.key, body: { email: "second@example.com" } });
    expect((await shelve(g, first.id, "restore")).body).toMatchObject({
      archived_at: null,
      email: "shared@example.com",
    });
  });

  it("replays a retried archive with the same Idempotency-Key", async () => {
    const contact = await createdContact(g, { name: "Keyed" });
    const headers = { "Idempotency-Key": `archive-${crypto.randomUUID()}` };
    const { response: first } = await shelve(g, contact.id, "archive", headers);
    const { response: again } = await shelve(g, contact.id, "archive", headers);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
  });

  it.each([
    "archive",
    "restore",
  ] as const)("%s: 404 for another gallery's contact, 401 without a credential, 403 without contacts:update", async (action) => {
    const theirs = await createdContact(await createGallery(), { name: "Theirs" });
    await expectProblem(
      await call("POST", `${BASE}/${theirs.id}/${action}`, { key: g.key }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("POST", `${BASE}/${newId("con")}/${action}`, { key: g.key }),
      404,
      "not_found",
    );
    const mine = await createdContact(g, { name: "Mine" });
    await expectProblem(await call("POST", `${BASE}/${mine.id}/${action}`), 401);
    const key = await g.keyWith(["contacts:read", "contacts:create", "contacts:delete", "sales:read"]);
    await expectProblem(await call("POST", `${BASE}/${mine.id}/${action}`, { key }), 403, "forbidden");
    expect(await fetchedContact(g, mine.id)).toEqual(mine);
  });
});
