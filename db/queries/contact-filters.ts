import { type SQL, sql } from "drizzle-orm";
import type { SharedContactFilters, SharedFilterName } from "../../lib/schemas/contact-filters";
import { VISIBLE_FLOOR } from "../../lib/schemas/contacts";
import { textArray } from "./rows";

/**
 * The contact filters as SQL over `contacts c`. Each shared filter has one condition, written over a SQL value:
 * for the list's query string the value is a parameter, for a dynamic list it is read from the list's stored
 * `dynamic_query` inside the same statement (so a dynamic `list_id` is still one round trip), null where the
 * list does not set it.
 */

type ValueType = "text" | "text[]" | "bigint" | "timestamptz";

const valueTypes: Record<SharedFilterName, ValueType> = {
  q: "text",
  type: "text",
  assigned_to: "text",
  lead_status: "text",
  tag_id: "text[]",
  has_interaction_since: "timestamptz",
  min_total_spend_cents: "bigint",
  min_works_acquired: "bigint",
  price_band: "text",
  engaged_event: "text",
  engaged_since: "timestamptz",
};

/** `%term%` for LIKE, with the term lower-cased and LIKE's own characters escaped, in SQL. */
function containsPattern(v: SQL): SQL {
  return sql`'%' || replace(replace(replace(lower(${v}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
}

/**
 * What `q` means: the term in the name, the email or the company. search_text (all three, lower-cased) only
 * narrows the rows, so a term that would only match across the joins of the fields matches nothing.
 */
function termInFields(v: SQL): SQL {
  const pattern = containsPattern(v);
  return sql`(lower(c.name) like ${pattern} or c.email like ${pattern} or lower(c.company) like ${pattern})`;
}

/** One condition per filter (engaged_event and engaged_since together make one, below). */
const conditions: Record<Exclude<SharedFilterName, "engaged_event" | "engaged_since">, (v: SQL) => SQL> = {
  // The trigram index of search_text narrows a term of three characters or more.
  q: (v) => sql`(c.search_text like ${containsPattern(v)} and ${termInFields(v)})`,
  type: (v) => sql`c.contact_type = ${v}`,
  // The gallery correlation lets the planner drive from the (gallery, member) and (gallery, tag) indexes.
  assigned_to: (v) =>
    sql`exists (select 1 from contact_assignees ca where ca.gallery_id = c.gallery_id and ca.contact_id = c.id
      and ca.member_id = ${v})`,
  lead_status: (v) => sql`c.lead_status = ${v}`,
  tag_id: (v) =>
    sql`exists (select 1 from contact_tags ct where ct.gallery_id = c.gallery_id and ct.contact_id = c.id
      and ct.tag_id = any(${v}))`,
  has_interaction_since: (v) => sql`c.last_interaction_at >= ${v}`,
  min_total_spend_cents: (v) => sql`c.total_spend_cents >= ${v}`,
  min_works_acquired: (v) => sql`c.works_acquired >= ${v}`,
  price_band: (v) => sql`c.price_band = ${v}`,
};

/**
 * Whether `from` (a correlated FROM … WHERE) yields a row, as a `limit 1` probe. A dynamic list's filters sit
 * inside `(value is null or …)` and CASE, where an EXISTS cannot become a semi-join and the planner may run it
 * as a hashed subplan that reads the whole table (every gallery's rows); a scalar probe cannot be hashed and
 * stays one primary-key lookup per contact examined.
 */
function probe(from: SQL): SQL {
  return sql`coalesce((select true from ${from} limit 1), false)`;
}

/** The dynamic-list form of the filters that look into another table: probes by primary key. */
const dynamicConditions: Partial<Record<keyof typeof conditions, (v: SQL) => SQL>> = {
  assigned_to: (v) => probe(sql`contact_assignees ca where ca.contact_id = c.id and ca.member_id = ${v}`),
  tag_id: (v) => probe(sql`contact_tags ct where ct.contact_id = c.id and ct.tag_id = any(${v})`),
};

/**
 * engaged_event alone: ever engaged that way; engaged_since alone: engaged in any way since; both: that kind
 * since. `kind`/`since` are SQL values that may be null (a dynamic list that sets neither matches everyone).
 */
function engagedCondition(kind: SQL, since: SQL): SQL {
  return sql`(case when ${kind} is null then (${since} is null or c.last_engaged_at >= ${since})
    else ${probe(sql`contact_engagement ce where ce.contact_id = c.id and ce.kind = ${kind}
      and (${since} is null or ce.last_at >= ${since})`)} end)`;
}

function param(name: SharedFilterName, value: unknown): SQL {
  const type = valueTypes[name];
  if (type === "text[]") return textArray(value as string[]);
  return sql`${value}::${sql.raw(type)}`;
}

/**
 * `q` of one or two characters, which trigrams cannot narrow: its first one or two characters (lower-cased as
 * search_text is, so a term whose lower case grows still has them) must be among the characters and pairs of
 * adjacent characters of search_text, which the GIN index of contact_search_grams answers. Postgres reads a term
 * few contacts have from that index and one most have along the roster's order, by the index's statistics; the
 * LIKE on search_text is left out, as its estimate would count the same rows out twice and send a common term
 * to the index. A dynamic list's stored `q` keeps the general condition: it is evaluated per contact anyway.
 */
function shortTerm(v: SQL): SQL {
  return sql`(contact_search_grams(c.search_text) @> array[left(lower(${v}), 2)] and ${termInFields(v)})`;
}

/** Conditions for the filters present in `f` (a list query's values). */
export function sharedFilterConditions(f: SharedContactFilters): SQL[] {
  const out: SQL[] = [];
  for (const [name, make] of Object.entries(conditions) as [keyof typeof conditions, (v: SQL) => SQL][]) {
    const value = f[name];
    if (value === undefined) continue;
    out.push(
      name === "q" && [...(value as string)].length < 3
        ? shortTerm(param(name, value))
        : make(param(name, value)),
    );
  }
  // Written out rather than through engagedCondition: a plain EXISTS can become a semi-join driven by
  // contact_engagement_kind_idx, which an EXISTS inside a CASE cannot.
  const since = f.engaged_since === undefined ? null : param("engaged_since", f.engaged_since);
  if (f.engaged_event !== undefined) {
    out.push(sql`exists (select 1 from contact_engagement ce where ce.gallery_id = c.gallery_id
      and ce.contact_id = c.id and ce.kind = ${param("engaged_event", f.engaged_event)}
      ${since ? sql`and ce.last_at >= ${since}` : sql``})`);
  } else if (since) {
    out.push(sql`c.last_engaged_at >= ${since}`);
  }
  return out;
}

/** A dynamic list's stored filter value, typed; null when the list does not set it (or is not this gallery's). */
function storedValue(galleryId: string, listId: SQL, name: string, type: ValueType): SQL {
  const list = sql`from contact_lists dl where dl.gallery_id = ${galleryId} and dl.id = ${listId}`;
  const key = sql.raw(`'${name}'`);
  if (type === "text[]") {
    return sql`(select array(select jsonb_array_elements_text(dl.dynamic_query->${key})) ${list}
      and dl.dynamic_query ? ${key})::text[]`;
  }
  const text = sql`(select dl.dynamic_query->>${key} ${list})`;
  return type === "text" ? text : sql`${text}::${sql.raw(type)}`;
}

/**
 * Membership of a dynamic list: every filter its `dynamic_query` sets, evaluated live; never an archived
 * contact. `described_as` keeps the contacts the engine judged true at or above the visible floor under the
 * rubric `segment:<list id>`; `email_consent` matches the contact's consent state.
 */
export function dynamicListConditions(galleryId: string, listId: SQL): SQL[] {
  const v = (name: string, type: ValueType = "text") => storedValue(galleryId, listId, name, type);
  const out: SQL[] = [sql`c.archived_at is null`];
  for (const [name, make] of Object.entries(conditions) as [keyof typeof conditions, (v: SQL) => SQL][]) {
    const value = v(name, valueTypes[name]);
    out.push(sql`(${value} is null or ${(dynamicConditions[name] ?? make)(value)})`);
  }
  out.push(engagedCondition(v("engaged_event"), v("engaged_since", "timestamptz")));
  out.push(sql`(${v("email_consent")} is null or c.email_consent = ${v("email_consent")})`);
  out.push(sql`(${v("described_as")} is null or ${judgedTrue(galleryId, sql`'segment:' || ${listId}`)})`);
  return out;
}

/** The contact was judged true under `rubricKey` at or above the visible floor. */
function judgedTrue(galleryId: string, rubricKey: SQL): SQL {
  return sql`exists (select 1 from rubric_judgments rj where rj.gallery_id = ${galleryId}
    and rj.rubric_key = ${rubricKey} and rj.contact_id = c.id and rj.verdict
    and rj.probability >= ${VISIBLE_FLOOR}::double precision)`;
}

/**
 * Members of a list, as two conditions of which at most one can hold: a static list's memberships, a dynamic
 * list's live result. The list's kind is read inside each (an uncorrelated subquery, so the branch of the other
 * kind is switched off once, before any row is read). Apart, each is planned on its own: the memberships a
 * semi-join that Postgres drives from the membership index for a small list and checks along the roster's order
 * for a large one (by its statistics of the list's size). A list id that is not the gallery's matches nobody.
 */
export function listMembershipConditions(galleryId: string, listId: string): [SQL, SQL] {
  const id = sql`${listId}::text`;
  const isDynamic = sql`(select l.is_dynamic from contact_lists l where l.gallery_id = ${galleryId} and l.id = ${id})`;
  return [
    sql`not ${isDynamic} and c.id in (select m.contact_id from contact_list_memberships m
      where m.gallery_id = ${galleryId} and m.list_id = ${id})`,
    sql`${isDynamic} and ${sql.join(dynamicListConditions(galleryId, id), sql` and `)}`,
  ];
}

export const archivedValues = ["exclude", "include", "only", "false", "true"] as const;
export type ArchivedFilter = (typeof archivedValues)[number];

/** The contacts list's filters: the shared ones and those only a list query has. */
export interface ContactListFilters extends SharedContactFilters {
  ids?: string[];
  list_id?: string;
  archived?: ArchivedFilter;
  judged_rubric?: string;
}

/** The contacts list's conditions: every one of `where`, and one of `oneOf` when there is one (see keyset). */
export interface ContactConditions {
  where: SQL[];
  oneOf?: SQL[];
}

/** The contacts list's conditions; every filter ANDs. */
export function contactConditions(galleryId: string, f: ContactListFilters): ContactConditions {
  const where: SQL[] = [sql`c.gallery_id = ${galleryId}`];
  const archived = f.archived ?? "exclude";
  if (archived === "exclude" || archived === "false") where.push(sql`c.archived_at is null`);
  else if (archived === "only" || archived === "true") where.push(sql`c.archived_at is not null`);
  if (f.ids) where.push(sql`c.id = any(${textArray(f.ids)})`);
  if (f.judged_rubric !== undefined) where.push(judgedTrue(galleryId, sql`${f.judged_rubric}::text`));
  where.push(...sharedFilterConditions(f));
  return f.list_id === undefined
    ? { where }
    : { where, oneOf: listMembershipConditions(galleryId, f.list_id) };
}

/** The same conditions as one WHERE list, for a query that is not a page (a count). */
export function contactWhere({ where, oneOf }: ContactConditions): SQL[] {
  return oneOf ? [...where, sql`(${sql.join(oneOf, sql` or `)})`] : where;
}
