import { type SQL, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { contacts } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Contact } from "../../lib/schemas/contacts";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { minutesAfterEpoch } from "../helpers/seed";
import { BASE, insertList } from "./helpers";

/**
 * `list_id` and short `q` over a roster of hundreds, where the plan depends on the list: a large static list is
 * checked along the roster's order, a small one read from its memberships, a dynamic one evaluated per contact,
 * and a one- or two-character `q` cannot use the trigram index. Whatever the plan, every page must hold exactly
 * what a plain query over the contacts table says, in its order: the expectation is that query (membership
 * from the suite's own member lists, `q` as ILIKE over name, email and company), never the API's SQL.
 */

const ROSTER = 300;
const FIRST = [
  "Thea",
  "Anton",
  "Beth",
  "Otto",
  "Martha",
  "Ida",
  "Kwame",
  "Lea",
  "Nathan",
  "Sofia",
  "Yuki",
  "Zora",
];
const LAST = ["Smith", "Thornquist", "Adler", "Mbeki", "Okafor", "Lind", "Castro", "Booth", "Ng", "Rossi"];
const COMPANIES = ["Atlas Holdings", "North Light", "Zq Partners", "Mayfair Trust", "Blue Hour Art"];
const TYPES = ["collector", "institution", "advisor", "other"];

let g: TestGallery;
let other: TestGallery;
const ids: string[] = [];
const lists: Record<string, string> = {};
const members: Record<string, string[]> = {};

/** Contact i of the roster: names, emails and companies that share letters, created one minute apart. */
function row(galleryId: string, i: number) {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[(i * 7) % LAST.length]!;
  return {
    id: newId("con"),
    galleryId,
    name: i % 11 === 0 ? `${first} ${last}`.toUpperCase() : `${first} ${last}`,
    email: i % 4 === 0 ? null : `${first}.${last}.${i}@example.org`.toLowerCase(),
    company: i % 3 === 0 ? COMPANIES[i % COMPANIES.length]! : null,
    contactType: TYPES[i % TYPES.length]!,
    archivedAt: i % 17 === 0 ? minutesAfterEpoch(10_000 + i) : null,
    createdAt: minutesAfterEpoch(i),
    updatedAt: minutesAfterEpoch(2 * ROSTER - ((i * 37) % ROSTER)),
  };
}

/** Every id the API lists for `query`, walking its pages of `limit`. */
async function listed(query: string, limit = 7): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams(query);
    qs.set("limit", String(limit));
    if (cursor) qs.set("cursor", cursor);
    const page = await readJson(pageOf(Contact), await call("GET", `${BASE}?${qs}`, { key: g.key }));
    if (page.next_cursor) expect(page.data.length).toBe(limit);
    out.push(...page.data.map((c) => c.id));
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

const ORDER: Record<string, SQL> = {
  "": sql`c.created_at desc, c.id desc`,
  "sort=name&dir=asc": sql`c.name asc, c.id asc`,
  "sort=updated": sql`c.updated_at desc, c.id desc`,
};

/** The plain query: the gallery's contacts matching `where`, unarchived unless `archived`, in `order`. */
async function plain(where: SQL, order: SQL, archived = false): Promise<string[]> {
  const result = await db().execute<{ id: string }>(
    sql`select c.id from contacts c where c.gallery_id = ${g.id} and ${where}
      ${archived ? sql`` : sql`and c.archived_at is null`} order by ${order}`,
  );
  return result.rows.map((r) => r.id);
}

const memberOf = (list: string) => sql`c.id = any(${`{${members[list]!.join(",")}}`}::text[])`;
const ilike = (q: string) =>
  sql`(c.name ilike ${`%${q}%`} or c.email ilike ${`%${q}%`} or c.company ilike ${`%${q}%`})`;

beforeAll(async () => {
  g = await createGallery();
  other = await createGallery();
  const rows = Array.from({ length: ROSTER }, (_, i) => row(g.id, i));
  await db().insert(contacts).values(rows);
  ids.push(...rows.map((r) => r.id));

  members.large = ids.filter((_, i) => i % 5 !== 0);
  // Spread over the roster's age, one of them archived (contact 17).
  members.small = [ids[3]!, ids[17]!, ids[150]!, ids[297]!];
  members.empty = [];
  for (const name of ["large", "small", "empty"])
    lists[name] = await insertList(g.id, { members: members[name] });
  lists.dynamic = await insertList(g.id, { dynamicQuery: { type: "collector" } });
  lists.dynamicShortQ = await insertList(g.id, { dynamicQuery: { q: "th", type: "advisor" } });
  const theirs = row(other.id, 1);
  await db().insert(contacts).values(theirs);
  lists.theirs = await insertList(other.id, { members: [theirs.id] });
  // The planner's view of the list sizes, so each list gets the plan its size calls for.
  await db().execute(sql`analyze contacts, contact_list_memberships`);
});

describe("GET /gallery/contacts list_id over hundreds of contacts", () => {
  it("has lists of the sizes the cases rely on", async () => {
    expect(members.large!.length).toBe(240);
    expect(await plain(memberOf("large"), ORDER[""]!)).toHaveLength(226);
    expect(await plain(memberOf("small"), ORDER[""]!)).toHaveLength(3);
    expect(await plain(sql`c.contact_type = 'collector'`, ORDER[""]!)).toHaveLength(70);
  });

  for (const list of ["large", "small", "empty"]) {
    for (const [sort, order] of Object.entries(ORDER)) {
      it(`lists exactly the ${list} static list's members, ${sort || "newest first"}`, async () => {
        const query = `list_id=${lists[list]}${sort ? `&${sort}` : ""}`;
        expect(await listed(query)).toEqual(await plain(memberOf(list), order));
      });
    }
    it(`lists the ${list} static list's archived members with archived=include`, async () => {
      expect(await listed(`list_id=${lists[list]}&archived=include`, 50)).toEqual(
        await plain(memberOf(list), ORDER[""]!, true),
      );
    });
  }

  it("lists exactly a dynamic list's live result, in every sort, never an archived contact", async () => {
    for (const [sort, order] of Object.entries(ORDER)) {
      const query = `list_id=${lists.dynamic}${sort ? `&${sort}` : ""}`;
      expect(await listed(query)).toEqual(await plain(sql`c.contact_type = 'collector'`, order));
    }
    expect(await listed(`list_id=${lists.dynamic}&archived=include`)).toEqual(
      await plain(sql`c.contact_type = 'collector'`, ORDER[""]!),
    );
  });

  it("combines list_id with other filters: a short q on a static list, a dynamic list's own short q", async () => {
    expect(await listed(`list_id=${lists.large}&q=th`)).toEqual(
      await plain(sql`${memberOf("large")} and ${ilike("th")}`, ORDER[""]!),
    );
    expect(await listed(`list_id=${lists.small}&type=collector&archived=include`)).toEqual(
      await plain(sql`${memberOf("small")} and c.contact_type = 'collector'`, ORDER[""]!, true),
    );
    const advisorsTh = await plain(sql`c.contact_type = 'advisor' and ${ilike("th")}`, ORDER[""]!);
    expect(advisorsTh.length).toBeGreaterThan(0);
    expect(await listed(`list_id=${lists.dynamicShortQ}`)).toEqual(advisorsTh);
  });

  it("lists no one for another gallery's list or an unknown one", async () => {
    expect(await listed(`list_id=${lists.theirs}`)).toEqual([]);
    expect(await listed(`list_id=${newId("list")}`)).toEqual([]);
  });
});

describe("GET /gallery/contacts q of one and two characters", () => {
  it.each([
    ["a", "a letter in most names"],
    ["th", "two letters in many names, any case"],
    ["TH", "the same, upper-case"],
    ["zq", "two letters only one company has"],
    ["k", "a letter in a few names"],
    ["q", "a letter of emails and a company"],
    [".", "a character of every email"],
    ["@e", "two characters across the email's at sign"],
    ["xx", "two letters no contact has"],
  ])("q=%s (%s) lists exactly the plain ILIKE result, in every sort", async (q) => {
    const want = await plain(ilike(q), ORDER[""]!);
    for (const [sort, order] of Object.entries(ORDER)) {
      const query = `q=${encodeURIComponent(q)}${sort ? `&${sort}` : ""}`;
      expect(await listed(query, 25)).toEqual(await plain(ilike(q), order));
    }
    if (q !== "xx") expect(want.length).toBeGreaterThan(0);
  });
});
