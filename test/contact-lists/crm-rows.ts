import { rubricJudgments } from "../../db/schema";
import { call, db, type TestGallery } from "../helpers/gallery";
import { insertRow } from "../helpers/seed";

/**
 * The CRM history the list and recap suites build, through the API; only the engine's judgments (which no
 * endpoint writes) are stored directly.
 */

/** A contact made through the API (a name is made up unless given). */
export async function newContact(g: TestGallery, body: Record<string, unknown> = {}): Promise<string> {
  const response = await call("POST", "/gallery/contacts", {
    key: g.key,
    body: { name: `Contact ${crypto.randomUUID()}`, ...body },
  });
  const json = (await response.json()) as { id: string };
  if (response.status !== 201) throw new Error(`create contact: ${response.status} ${JSON.stringify(json)}`);
  return json.id;
}

/** Archives or restores a contact through the API. */
export async function shelve(g: TestGallery, id: string, action: "archive" | "restore"): Promise<void> {
  const response = await call("POST", `/gallery/contacts/${id}/${action}`, { key: g.key });
  if (response.status !== 200)
    throw new Error(`${action} contact: ${response.status} ${await response.text()}`);
}

/** POSTs `body` to `path`, failing unless 201; answers the new id. */
export async function postedId(g: TestGallery, path: string, body: Record<string, unknown>): Promise<string> {
  const response = await call("POST", path, { key: g.key, body });
  const json = (await response.json()) as { id: string };
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.id;
}

export function recordInteraction(g: TestGallery, contactId: string, occurredAt: string): Promise<string> {
  return postedId(g, `/gallery/contacts/${contactId}/interactions`, {
    summary: "Spoke about the spring show",
    occurred_at: occurredAt,
  });
}

export function recordEngagement(g: TestGallery, contactId: string, kind: string, occurredAt: string) {
  return postedId(g, `/gallery/contacts/${contactId}/engagements`, { kind, occurred_at: occurredAt });
}

/** A completed sale of `works` new artworks to the contact, for `amountCents` in the gallery's currency. */
export async function recordSale(g: TestGallery, contactId: string, amountCents: number, works = 1) {
  const artworkIds: string[] = [];
  for (let i = 0; i < works; i++)
    artworkIds.push(await postedId(g, "/gallery/artworks", { title: "Sold work" }));
  return postedId(g, "/gallery/sales", {
    contact_id: contactId,
    artwork_ids: artworkIds,
    amount_cents: amountCents,
  });
}

/** A judgment as the engine stores it, under the rubric key `segment:<list id>` of a list's `described_as`. */
export async function insertJudgment(
  g: TestGallery,
  listId: string,
  contactId: string,
  verdict: boolean,
  probability: number,
): Promise<void> {
  await db().execute(
    insertRow(rubricJudgments, {
      gallery_id: g.id,
      rubric_key: `segment:${listId}`,
      contact_id: contactId,
      verdict,
      probability,
      model: "test",
      judged_at: "2024-05-01T00:00:00.000Z",
    }),
  );
}

/** Creates a list through the API, failing unless 201. */
export async function createdList(g: TestGallery, body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await call("POST", "/gallery/contact-lists", { key: g.key, body });
  const json = (await response.json()) as { id: string };
  if (response.status !== 201) throw new Error(`create list: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Every member of a list as `GET /gallery/contacts?list_id=` lists it (default roster), sorted by id. */
export async function listedMembers(g: TestGallery, listId: string, extra = ""): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams({ list_id: listId, limit: "100" });
    if (cursor) qs.set("cursor", cursor);
    const response = await call("GET", `/gallery/contacts?${qs}${extra}`, { key: g.key });
    const page = (await response.json()) as { data: { id: string }[]; next_cursor: string | null };
    if (response.status !== 200) throw new Error(`list members: ${response.status} ${JSON.stringify(page)}`);
    ids.push(...page.data.map((c) => c.id));
    cursor = page.next_cursor;
  } while (cursor);
  return ids.sort();
}
