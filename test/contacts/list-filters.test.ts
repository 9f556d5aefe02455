import { beforeAll, describe, expect, it } from "vitest";
import type { ContactListQuery } from "../../db/schema/contact-lists";
import { newId } from "../../lib/ids";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { createMember } from "../helpers/members";
import {
  allListed,
  BASE,
  createdContact,
  fetchedSegmentation,
  insertEngagement,
  insertInteraction,
  insertJudgment,
  insertList,
  insertSale,
  insertTag,
  listedIdSet,
} from "./helpers";

/**
 * Every filter of GET /gallery/contacts, alone and combined, against an independent evaluation: the suite keeps
 * its own model of each contact (fields, history written by direct SQL) and decides membership in TypeScript,
 * never through the API's SQL.
 */

interface Sale {
  amount: number;
  works: number;
  status: string;
}

interface Model {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
  type: string;
  lead: string;
  assignees: string[];
  tags: string[];
  archived: boolean;
  interactions: string[];
  sales: Sale[];
  engagement: { kind: string; at: string }[];
  judgments: { key: string; verdict: boolean; probability: number }[];
}

const ms = (iso: string) => Date.parse(iso);
const completed = (m: Model) => m.sales.filter((s) => s.status === "completed");
const spend = (m: Model) => completed(m).reduce((sum, s) => sum + s.amount, 0);
const works = (m: Model) => completed(m).reduce((sum, s) => sum + s.works, 0);

/** The documented rule: the band of total spend per work acquired, in cents. */
function band(m: Model): string | null {
  if (works(m) === 0) return null;
  const avg = spend(m) / works(m);
  if (avg < 500_000) return "under_5k";
  if (avg < 2_500_000) return "5k_25k";
  if (avg < 10_000_000) return "25k_100k";
  return "over_100k";
}

const lastOf = (times: string[]) => (times.length ? Math.max(...times.map(ms)) : null);
const contains = (value: string | null, q: string) => value?.toLowerCase().includes(q) ?? false;

type Lists = Map<string, { members: string[] } | { query: ContactListQuery }>;

function queryParams(query: ContactListQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
  }
  return params;
}

/** Whether the model contact matches the query string, by the documented meaning of each parameter. */
function matches(m: Model, qs: URLSearchParams, lists: Lists): boolean {
  const archived = qs.get("archived") ?? "exclude";
  if ((archived === "exclude" || archived === "false") && m.archived) return false;
  if ((archived === "only" || archived === "true") && !m.archived) return false;
  const ids = qs.get("ids");
  if (ids !== null && !ids.split(",").includes(m.id)) return false;
  const q = qs.get("q")?.toLowerCase();
  if (q !== undefined && !(contains(m.name, q) || contains(m.email, q) || contains(m.company, q)))
    return false;
  if (qs.has("type") && m.type !== qs.get("type")) return false;
  if (qs.has("lead_status") && m.lead !== qs.get("lead_status")) return false;
  if (qs.has("assigned_to") && !m.assignees.includes(qs.get("assigned_to")!)) return false;
  const tagIds = qs.getAll("tag_id");
  if (tagIds.length && !tagIds.some((t) => m.tags.includes(t))) return false;
  const interactionSince = qs.get("has_interaction_since");
  if (interactionSince !== null) {
    const last = lastOf(m.interactions);
    if (last === null || last < ms(interactionSince)) return false;
  }
  if (qs.has("min_total_spend_cents") && spend(m) < Number(qs.get("min_total_spend_cents"))) return false;
  if (qs.has("min_works_acquired") && works(m) < Number(qs.get("min_works_acquired"))) return false;
  if (qs.has("price_band") && band(m) !== qs.get("price_band")) return false;
  const kind = qs.get("engaged_event");
  const since = qs.get("engaged_since");
  if (kind !== null || since !== null) {
    const engaged = m.engagement.filter(
      (e) => (kind === null || e.kind === kind) && (since === null || ms(e.at) >= ms(since)),
    );
    if (engaged.length === 0) return false;
  }
  const rubric = qs.get("judged_rubric");
  if (rubric !== null && !m.judgments.some((j) => j.key === rubric && j.verdict && j.probability >= 0.6)) {
    return false;
  }
  const listId = qs.get("list_id");
  if (listId !== null) {
    const list = lists.get(listId);
    if (!list) return false;
    if ("members" in list) return list.members.includes(m.id);
    const dynamic = queryParams(list.query);
    dynamic.set("archived", "exclude");
    return matches(m, dynamic, lists);
  }
  return true;
}

let g: TestGallery;
let other: TestGallery;
let models: Model[];
let lists: Lists;
const byName: Record<string, Model> = {};
const refs: Record<string, string> = {};
const RUBRIC = `segment:${newId("list")}`;
const OTHER_RUBRIC = `segment:${newId("list")}`;

function expected(query: string): string[] {
  const qs = new URLSearchParams(query);
  return models
    .filter((m) => matches(m, qs, lists))
    .map((m) => m.id)
    .sort();
}

/** `{a}`-style placeholders in a case's query: member, tag, list ids and the rubric key made in beforeAll. */
function resolve(query: string): string {
  return query.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = refs[name] ?? byName[name]?.id;
    if (value === undefined) throw new Error(`no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

beforeAll(async () => {
  g = await createGallery();
  other = await createGallery();
  const [m1, m2] = [await createMember(g.id, "editor"), await createMember(g.id, "viewer")];
  refs.m1 = m1.id;
  refs.m2 = m2.id;
  refs.t1 = await insertTag(g.id);
  refs.t2 = await insertTag(g.id);
  refs.t3 = await insertTag(g.id);
  refs.rubric = RUBRIC;

  const rows: [string, string | null, string | null, string, string, string[], string[]][] = [
    ["Ada Lovelace", "Ada.Lovelace@Example.com", null, "collector", "active", [m1.id], [refs.t1]],
    ["Grace Hopper", "grace@navy.example", "US Navy", "institution", "engaged", [m2.id], [refs.t2]],
    ["Lovelace Trust", null, "Lovelace & Co", "institution", "new", [m1.id, m2.id], [refs.t1, refs.t2]],
    ["Ben 100% Art", "ben_art@example.com", "Percent_Co", "consignor", "dormant", [], [refs.t3]],
    ["Carla Mendes", "carla@studio.example", "Studio Mendes", "advisor", "closed", [m2.id], []],
    ["Dmitri Volkov", "dmitri@example.com", null, "press", "new", [], [refs.t1, refs.t3]],
    ["Eve Park", "eve@example.com", "Park Collection", "collector", "active", [m1.id], [refs.t2]],
    ["Femi Adeyemi", "femi@example.com", null, "lender", "engaged", [m2.id], []],
    ["Gus Tan", "gus@example.com", "Tan Holdings", "collector", "new", [], []],
    ["Hana Sato", null, null, "other", "active", [m1.id], [refs.t3]],
    ["Ivo Archived", "ivo@example.com", null, "collector", "active", [m1.id], [refs.t1]],
    ["Jo Archived", "jo@example.com", "Lovelace & Co", "institution", "new", [], []],
    ["Mia", "x@y.example", null, "other", "new", [], []],
    ["Ola Back", "ola@example.com", "Back\\Slash Studio", "advisor", "active", [], []],
  ];
  models = [];
  for (const [name, email, company, type, lead, assignees, tags] of rows) {
    const body = await createdContact(g, {
      name,
      email,
      company,
      contact_type: type,
      lead_status: lead,
      assignee_ids: assignees,
      tag_ids: tags,
    });
    const model: Model = {
      id: body.id,
      name,
      email: email?.toLowerCase() ?? null,
      company,
      type,
      lead,
      assignees,
      tags,
      archived: false,
      interactions: [],
      sales: [],
      engagement: [],
      judgments: [],
    };
    models.push(model);
    byName[name.split(" ")[0]!] = model;
  }
  const c = byName;

  const sale = async (m: Model, amount: number, worksCount = 1, status = "completed") => {
    await insertSale(g.id, m.id, amount, worksCount, status);
    m.sales.push({ amount, works: worksCount, status });
  };
  await sale(c.Ada!, 300_000);
  await sale(c.Grace!, 1_000_000);
  await sale(c.Grace!, 2_000_000);
  await sale(c.Grace!, 5_000_000, 1, "pending");
  await sale(c.Lovelace!, 5_000_000, 2);
  await sale(c.Ben!, 500_000);
  await sale(c.Carla!, 20_000_000);
  await sale(c.Eve!, 9_999_999);
  await sale(c.Eve!, 100_000_000, 3, "cancelled");
  await sale(c.Femi!, 400_000, 1, "refunded");
  await sale(c.Ivo!, 50_000_000);

  const interaction = async (m: Model, at: string) => {
    await insertInteraction(g.id, m.id, at);
    m.interactions.push(at);
  };
  await interaction(c.Ada!, "2024-01-10T09:00:00.000Z");
  await interaction(c.Grace!, "2024-02-29T12:00:00.000Z");
  await interaction(c.Grace!, "2023-12-01T00:00:00.000Z");
  await interaction(c.Carla!, "2024-06-01T00:00:00.000Z");
  await interaction(c.Eve!, "2024-02-29T00:00:00.000Z");
  await interaction(c.Ivo!, "2024-07-01T00:00:00.000Z");

  const engage = async (m: Model, kind: string, at: string) => {
    await insertEngagement(g.id, m.id, kind, at);
    m.engagement.push({ kind, at });
  };
  await engage(c.Ada!, "room_opened", "2024-03-01T00:00:00.000Z");
  await engage(c.Ada!, "email_opened", "2024-01-05T00:00:00.000Z");
  await engage(c.Grace!, "email_opened", "2024-04-01T00:00:00.000Z");
  await engage(c.Lovelace!, "room_opened", "2023-11-01T00:00:00.000Z");
  await engage(c.Dmitri!, "artwork_viewed", "2024-05-05T00:00:00.000Z");
  await engage(c.Eve!, "room_opened", "2024-02-29T00:00:00.000Z");
  await engage(c.Eve!, "room_opened", "2023-01-01T00:00:00.000Z");
  await engage(c.Ivo!, "room_opened", "2024-05-01T00:00:00.000Z");

  const judge = async (m: Model, key: string, verdict: boolean, probability: number) => {
    await insertJudgment(g.id, key, m.id, verdict, probability);
    m.judgments.push({ key, verdict, probability });
  };
  await judge(c.Ada!, RUBRIC, true, 0.6);
  await judge(c.Grace!, RUBRIC, true, 0.59);
  await judge(c.Lovelace!, RUBRIC, false, 0.9);
  await judge(c.Eve!, RUBRIC, true, 0.95);
  await judge(c.Ivo!, RUBRIC, true, 0.9);
  await judge(c.Carla!, OTHER_RUBRIC, true, 0.99);

  for (const m of [c.Ivo!, c.Jo!]) {
    const response = await call("POST", `${BASE}/${m.id}/archive`, { key: g.key });
    expect(response.status).toBe(200);
    m.archived = true;
  }

  lists = new Map();
  const staticMembers = [c.Ada!.id, c.Carla!.id, c.Ivo!.id];
  refs.static = await insertList(g.id, { members: staticMembers });
  lists.set(refs.static, { members: staticMembers });
  const collectors: ContactListQuery = { type: "collector" };
  refs.dynamic = await insertList(g.id, { dynamicQuery: collectors });
  lists.set(refs.dynamic, { query: collectors });
  const engagedTagged: ContactListQuery = { tag_id: [refs.t2], engaged_event: "room_opened" };
  refs.dynamic2 = await insertList(g.id, { dynamicQuery: engagedTagged });
  lists.set(refs.dynamic2, { query: engagedTagged });

  // Another gallery with a look-alike roster: nothing of it may show.
  const theirs = await createdContact(other, {
    name: "Ada Lovelace",
    email: "ada.lovelace@example.com",
    contact_type: "collector",
    lead_status: "active",
  });
  await insertSale(other.id, theirs.id, 300_000);
  await insertInteraction(other.id, theirs.id, "2024-05-01T00:00:00.000Z");
  await insertEngagement(other.id, theirs.id, "room_opened", "2024-05-01T00:00:00.000Z");
  await insertJudgment(other.id, RUBRIC, theirs.id, true, 0.99);
  refs.theirList = await insertList(other.id, { members: [theirs.id] });
  refs.theirs = theirs.id;
});

describe("GET /gallery/contacts filters", () => {
  it("agrees with the model on the data it was built from", () => {
    // The model's own sanity: each expectation below is non-trivial.
    expect(expected("").length).toBe(12);
    expect(expected("archived=include").length).toBe(14);
  });

  it.each([
    // One filter at a time.
    ["the default roster (unarchived)", ""],
    ["ids", "ids={Ada},{Grace},{Ivo}"],
    ["ids with archived=include", "ids={Ada},{Grace},{Ivo}&archived=include"],
    ["q in a name and an email", "q=lovelace"],
    ["q in a company, case-insensitive", "q=LOVELACE %26 Co"],
    ["q with a literal %", "q=100%25"],
    ["q with a literal _", "q=_"],
    ["q with a literal backslash", "q=k%5CS"],
    ["q in an email and a company", "q=navy"],
    ["q that only spans two fields", "q=mia x%40"],
    ["q over the email domain", "q=%40example.com"],
    ["type", "type=institution"],
    ["type with no match", "type=press&lead_status=active"],
    ["assigned_to", "assigned_to={m1}"],
    ["assigned_to, the other member", "assigned_to={m2}"],
    ["lead_status", "lead_status=active"],
    ["one tag_id", "tag_id={t1}"],
    ["several tag_id (any)", "tag_id={t1}&tag_id={t2}"],
    ["has_interaction_since on a leap day", "has_interaction_since=2024-02-29T00:00Z"],
    ["has_interaction_since, earlier", "has_interaction_since=2024-01-01T00:00:00Z"],
    ["min_total_spend_cents", "min_total_spend_cents=3000000"],
    ["min_total_spend_cents=0 (everyone)", "min_total_spend_cents=0"],
    ["min_works_acquired", "min_works_acquired=2"],
    ["price_band under_5k", "price_band=under_5k"],
    ["price_band 5k_25k (from exactly 5,000.00)", "price_band=5k_25k"],
    ["price_band 25k_100k (from exactly 25,000.00)", "price_band=25k_100k"],
    ["price_band over_100k", "price_band=over_100k"],
    ["engaged_event", "engaged_event=room_opened"],
    ["engaged_event + engaged_since", "engaged_event=room_opened&engaged_since=2024-02-29T00:00Z"],
    [
      "engaged_event + engaged_since, another kind",
      "engaged_event=email_opened&engaged_since=2024-02-01T00:00Z",
    ],
    ["engaged_since alone (any kind)", "engaged_since=2024-03-01T00:00:00.000Z"],
    ["judged_rubric at or above the floor", "judged_rubric={rubric}"],
    ["archived=only", "archived=only"],
    ["archived=true", "archived=true"],
    ["archived=include", "archived=include"],
    ["archived=false", "archived=false"],
    ["archived=exclude", "archived=exclude"],
    ["a static list_id", "list_id={static}"],
    ["a static list_id with archived=include", "list_id={static}&archived=include"],
    ["a dynamic list_id", "list_id={dynamic}"],
    ["a dynamic list_id never holds archived contacts", "list_id={dynamic}&archived=include"],
    ["a dynamic list_id of tags and engagement", "list_id={dynamic2}"],
    // Combined.
    ["type + min_total_spend_cents", "type=collector&min_total_spend_cents=1"],
    ["price_band + min_total_spend_cents", "price_band=25k_100k&min_total_spend_cents=9000000"],
    ["assigned_to + tag_id", "assigned_to={m1}&tag_id={t1}"],
    [
      "q + lead_status + has_interaction_since",
      "q=example&lead_status=active&has_interaction_since=2024-01-01T00:00Z",
    ],
    ["engaged_event + tag_id + archived=include", "engaged_event=room_opened&tag_id={t2}&archived=include"],
    ["judged_rubric + type + archived=include", "judged_rubric={rubric}&type=collector&archived=include"],
    ["list_id + price_band + archived=include", "list_id={static}&price_band=over_100k&archived=include"],
    ["archived=only + q", "archived=only&q=lovelace"],
    ["dynamic list_id + lead_status", "list_id={dynamic}&lead_status=new"],
    ["ids + type", "ids={Ada},{Grace},{Eve}&type=collector"],
    [
      "every range at once",
      "min_total_spend_cents=1&min_works_acquired=1&has_interaction_since=2024-01-01T00:00Z&engaged_since=2024-01-01T00:00Z",
    ],
  ])("%s", async (_, template) => {
    const query = resolve(template);
    const want = expected(query);
    expect(await listedIdSet(g, query)).toEqual(want);
  });

  it("finds what each filter is meant to find (spot checks of the model itself)", () => {
    const names = (query: string) =>
      expected(resolve(query))
        .map((id) => models.find((m) => m.id === id)!.name)
        .sort();
    expect(names("q=lovelace")).toEqual(["Ada Lovelace", "Lovelace Trust"]);
    expect(names("q=mia x%40")).toEqual([]);
    expect(names("q=k%5CS")).toEqual(["Ola Back"]);
    expect(names("q=_")).toEqual(["Ben 100% Art"]);
    expect(names("price_band=5k_25k")).toEqual(["Ben 100% Art", "Grace Hopper"]);
    expect(names("price_band=25k_100k")).toEqual(["Eve Park", "Lovelace Trust"]);
    expect(names("judged_rubric={rubric}")).toEqual(["Ada Lovelace", "Eve Park"]);
    expect(names("engaged_event=room_opened&engaged_since=2024-02-29T00:00Z")).toEqual([
      "Ada Lovelace",
      "Eve Park",
    ]);
    expect(names("has_interaction_since=2024-02-29T00:00Z")).toEqual([
      "Carla Mendes",
      "Eve Park",
      "Grace Hopper",
    ]);
    expect(names("list_id={dynamic2}")).toEqual(["Eve Park", "Lovelace Trust"]);
  });

  it("reads the spend the sales add up to, the band of the average work and the tags the filters match", async () => {
    const listed = await allListed(g, "archived=include");
    for (const m of models) {
      const body = listed.find((c) => c.id === m.id)!;
      expect(body).toMatchObject({
        last_interaction_at:
          lastOf(m.interactions) === null ? null : new Date(lastOf(m.interactions)!).toISOString(),
        archived_at: m.archived ? expect.any(String) : null,
      });
      const engaged = lastOf(m.engagement.map((e) => e.at));
      expect(await fetchedSegmentation(g, m.id)).toEqual({
        contact_id: m.id,
        tag_ids: [...m.tags].sort(),
        email_consent: "pending",
        total_spend_cents: spend(m),
        works_acquired: works(m),
        avg_acquisition_cents: works(m) ? Math.round(spend(m) / works(m)) : null,
        price_band: band(m),
        currency: "USD",
        last_engaged_at: engaged === null ? null : new Date(engaged).toISOString(),
      });
    }
  });

  it("never lists another gallery's contacts, lists or judgments", async () => {
    expect(await listedIdSet(g, `ids=${refs.theirs}`)).toEqual([]);
    expect(await listedIdSet(g, `list_id=${refs.theirList}`)).toEqual([]);
    expect(await listedIdSet(g, "q=lovelace&archived=include")).not.toContain(refs.theirs);
    expect(await listedIdSet(other, resolve("judged_rubric={rubric}"))).toEqual([refs.theirs]);
    expect(await listedIdSet(other, resolve("tag_id={t1}"))).toEqual([]);
  });
});
