import { beforeAll, describe, expect, it } from "vitest";
import { Contact } from "../../lib/schemas/contacts";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { allListed, BASE, type ContactBody, createdContact } from "./helpers";

/** GET /gallery/contacts: sorts, cursor paging, bad input and who may list. */

function order(contacts: ContactBody[], key: (c: ContactBody) => string, dir: "asc" | "desc") {
  const sorted = [...contacts].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    if (ka !== kb) return ka < kb ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  return (dir === "asc" ? sorted : sorted.reverse()).map((c) => c.id);
}

/** Walks every page of `query` with a small limit, checking each page's size. */
async function walkIds(g: TestGallery, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const qs = new URLSearchParams(query);
    qs.set("limit", String(limit));
    if (cursor) qs.set("cursor", cursor);
    const page = await readJson(pageOf(Contact), await call("GET", `${BASE}?${qs}`, { key: g.key }));
    expect(page.data.length).toBeLessThanOrEqual(limit);
    if (page.next_cursor) expect(page.data.length).toBe(limit);
    ids.push(...page.data.map((c) => c.id));
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < 100);
  return ids;
}

describe("GET /gallery/contacts sorts and pages", () => {
  let g: TestGallery;
  let contacts: ContactBody[];
  beforeAll(async () => {
    g = await createGallery();
    contacts = [];
    // Duplicate names: the id breaks ties, so no page skips or repeats one.
    for (const name of ["Mara", "Bruno", "Mara", "Ahmed", "Zoe", "Mara", "Bruno", "Li"]) {
      contacts.push(await createdContact(g, { name }));
    }
    const touched = await call("PATCH", `${BASE}/${contacts[0]!.id}`, {
      key: g.key,
      body: { lead_status: "active" },
    });
    contacts[0] = await readJson(Contact, touched);
  });

  it("lists newest first by default, and pages by cursor without gaps or repeats", async () => {
    const newest = order(contacts, (c) => c.created_at, "desc");
    expect((await allListed(g, "")).map((c) => c.id)).toEqual(newest);
    expect(await walkIds(g, "", 3)).toEqual(newest);
    expect(await walkIds(g, "dir=asc", 3)).toEqual([...newest].reverse());
  });

  it.each([
    ["name", "asc"],
    ["name", "desc"],
    ["created", "asc"],
    ["updated", "desc"],
    ["updated", "asc"],
  ] as const)("sort=%s dir=%s, two at a time", async (sort, dir) => {
    const key = {
      name: (c: ContactBody) => c.name,
      created: (c: ContactBody) => c.created_at,
      updated: (c: ContactBody) => c.updated_at,
    }[sort];
    const want = order(contacts, key, dir);
    expect(await walkIds(g, `sort=${sort}&dir=${dir}`, 2)).toEqual(want);
  });

  it("puts the contact updated last first under sort=updated", async () => {
    const page = await readJson(
      pageOf(Contact),
      await call("GET", `${BASE}?sort=updated&limit=1`, { key: g.key }),
    );
    expect(page.data[0]!.id).toBe(contacts[0]!.id);
  });

  it("refuses a cursor minted for another sort or direction", async () => {
    const page = await readJson(
      pageOf(Contact),
      await call("GET", `${BASE}?sort=name&limit=2`, { key: g.key }),
    );
    expect(page.next_cursor).not.toBeNull();
    await expectProblem(
      await call("GET", `${BASE}?sort=created&limit=2&cursor=${page.next_cursor}`, { key: g.key }),
      400,
      "invalid_request",
    );
    await expectProblem(
      await call("GET", `${BASE}?sort=name&dir=asc&limit=2&cursor=${page.next_cursor}`, { key: g.key }),
      400,
      "invalid_request",
    );
  });
});

describe("GET /gallery/contacts bad input", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  const ids = (n: number) =>
    Array.from({ length: n }, (_, i) => `con_${String(i).padStart(26, "0")}`).join(",");
  const tags = (n: number) =>
    Array.from({ length: n }, (_, i) => `tag_id=tag_${String(i).padStart(26, "0")}`).join("&");

  it.each([
    ["an unknown type", "type=painter", "type"],
    ["an unknown lead_status", "lead_status=hot", "lead_status"],
    ["an unknown price_band", "price_band=cheap", "price_band"],
    ["an unknown engaged_event", "engaged_event=page_viewed", "engaged_event"],
    [
      "a has_interaction_since on a day that does not exist",
      "has_interaction_since=2023-02-29T00:00Z",
      "has_interaction_since",
    ],
    [
      "a has_interaction_since with an offset",
      "has_interaction_since=2024-01-01T00:00:00%2B01:00",
      "has_interaction_since",
    ],
    ["a has_interaction_since without a time", "has_interaction_since=2024-01-01", "has_interaction_since"],
    [
      "a has_interaction_since with a lower-case z",
      "has_interaction_since=2024-01-01T00:00z",
      "has_interaction_since",
    ],
    ["an engaged_since on a day that does not exist", "engaged_since=2023-02-29T00:00Z", "engaged_since"],
    ["an engaged_since with an offset", "engaged_since=2024-01-01T00:00:00%2B01:00", "engaged_since"],
    ["an engaged_since without a time", "engaged_since=2024-01-01", "engaged_since"],
    ["an empty judged_rubric", "judged_rubric=", "judged_rubric"],
    ["a judged_rubric over 120 characters", `judged_rubric=segment:list_${"a".repeat(120)}`, "judged_rubric"],
    ["a judged_rubric not of the form segment:<list id>", "judged_rubric=vip_collectors", "judged_rubric"],
    [
      "a judged_rubric naming something else than a list",
      "judged_rubric=segment:con_01jd4xk9v2c7h8m3n5p6q7r8s9",
      "judged_rubric",
    ],
    ["51 ids", `ids=${ids(51)}`, "ids"],
    ["an id of another kind", "ids=art_01jd4xk9v2c7h8m3n5p6q7r8s9", "ids.0"],
    ["an empty ids item", "ids=con_01jd4xk9v2c7h8m3n5p6q7r8s9,", "ids.1"],
    ["11 tag_id", tags(11), "tag_id"],
    ["a malformed tag_id", "tag_id=botanical", "tag_id.0"],
    [
      "a min_total_spend_cents beyond 9007199254740991",
      "min_total_spend_cents=9007199254740992",
      "min_total_spend_cents",
    ],
    [
      "a min_total_spend_cents far beyond",
      "min_total_spend_cents=99999999999999999999",
      "min_total_spend_cents",
    ],
    ["a negative min_total_spend_cents", "min_total_spend_cents=-1", "min_total_spend_cents"],
    [
      "a min_works_acquired beyond 9007199254740991",
      "min_works_acquired=9007199254740992",
      "min_works_acquired",
    ],
    ["a fractional min_works_acquired", "min_works_acquired=1.5", "min_works_acquired"],
    ["an unknown archived value", "archived=maybe", "archived"],
    ["a malformed list_id", "list_id=vip", "list_id"],
    ["a malformed assigned_to", "assigned_to=someone", "assigned_to"],
    ["a q over 200 characters", `q=${"a".repeat(201)}`, "q"],
    ["a repeated q", "q=a&q=b", "q"],
    ["an unknown sort", "sort=spend", "sort"],
    ["a dir that is not asc or desc", "dir=up", "dir"],
    ["a limit above 100", "limit=101", "limit"],
    ["an unknown parameter", "segment=vip", "segment"],
  ])("refuses %s: 400 naming the parameter", async (_, query, field) => {
    await expectProblem(await call("GET", `${BASE}?${query}`, { key: g.key }), 400, "invalid_request", {
      field,
    });
  });

  it.each([
    ["a leap-day timestamp", "has_interaction_since=2024-02-29T00:00Z"],
    ["seconds and a fraction", "engaged_since=2024-02-29T23:59:59.123Z"],
    ["the largest spend", "min_total_spend_cents=9007199254740991"],
    ["50 ids", `ids=${ids(50)}`],
    ["10 tag_id", tags(10)],
    ["a judged_rubric of 120 characters at most", `judged_rubric=segment:list_${"a".repeat(40)}`],
    ["a q of 200 characters", `q=${"a".repeat(200)}`],
  ])("accepts %s at the edge", async (_, query) => {
    const response = await call("GET", `${BASE}?${query}`, { key: g.key });
    expect(response.status, await response.clone().text()).toBe(200);
  });
});

describe("GET /gallery/contacts security", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
    await createdContact(g, { name: "Visible" });
  });

  it("answers 401 without a credential", async () => {
    await expectProblem(await call("GET", BASE), 401);
  });

  it("needs contacts:read and sales:read, both", async () => {
    const contactsOnly = await g.keyWith(["contacts:read"]);
    const salesOnly = await g.keyWith(["sales:read"]);
    const both = await g.keyWith(["contacts:read", "sales:read"]);
    await expectProblem(await call("GET", BASE, { key: contactsOnly }), 403, "forbidden");
    await expectProblem(await call("GET", BASE, { key: salesOnly }), 403, "forbidden");
    const page = await readJson(pageOf(Contact), await call("GET", BASE, { key: both }));
    expect(page.data.map((c) => c.name)).toEqual(["Visible"]);
  });
});
