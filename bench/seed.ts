/**
 * The bench database: two galleries at scale (A is benchmarked, B is there so tenancy is part of every plan),
 * seeded with set-based SQL (`insert … select … from generate_series`), in chunks so progress shows.
 *
 * Deterministic: every "random" value is `hashint8extended(i, salt)` of the row number, so two seeds of the same
 * size produce the same rows on any machine. Reused: a step whose rows are already there is skipped.
 *
 * Adding a resource (contacts, interactions, sales, engagement…) is one more entry in `SEED_STEPS`: the tables
 * it writes, how many rows a gallery should have, and the SQL for one chunk of them.
 *
 * The artworks' stored documents (migration 0023), which triggers build for every other writer, are built after
 * the load (buildArtworkDocuments).
 *
 * The CRM (contacts and everything around them) is loaded the same way, with the database's triggers off; the
 * aggregates those triggers keep (spend, works acquired, last interaction, last engagement, contact_engagement)
 * are then recomputed once per gallery by `refresh_contact_aggregates` (a step's `afterLoad`).
 *
 * The inbox (one member with 50,000 threads, whose password the seed sets so that run.ts can sign in: the inbox
 * takes member sessions only) and 20,000 invoices follow; their kept values (unread_count and last_* from the
 * messages, an invoice's sale, buyer and amount) are computed from the same row-number hashes as the rows they
 * summarise, and Postgres generates the invoices' totals.
 *
 * The public surface and offers (gallery A): viewing rooms of every kind with 24 works each (a public open room, a
 * second public one, unlisted, private, closed, not yet open) and BENCH_COLD_ROOMS unlisted open rooms for the
 * cold read; 600,000 recommendation matches over 3,000 works, and a draft offer of the 20 most matched works with
 * a few of their best contacts already on it.
 *
 * Run directly: `tsx bench/seed.ts` (its own embedded PostgreSQL in .data/bench-postgres), or with
 * `BENCH_DATABASE_URL=postgres://…` for a server of your own (a throwaway database: it gets 7M+ rows).
 */
import { createHash, pbkdf2Sync } from "node:crypto";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { migrateDatabase } from "../scripts/migrate";
import { startDatabase } from "../scripts/postgres";
import { ENGAGEMENT_WEIGHTS } from "../scripts/seed/material";

export const BENCH_DATA_DIR = process.env.BENCH_DATA_DIR ?? ".data/bench-postgres";
export const BENCH_DATABASE = "gallery_bench";

const envInt = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
};

export interface BenchGallery {
  key: "a" | "b";
  id: string;
  slug: string;
  name: string;
  /** Salt of this gallery's value stream, so A and B differ. */
  seed: number;
  artworks: number;
  events: number;
  contacts: number;
}

/** Gallery A is the one the bench calls; B is the same size, so every plan must filter by tenant. */
export const BENCH_GALLERIES: readonly BenchGallery[] = [
  {
    key: "a",
    id: "gal_bencha0000000000000000",
    slug: "bench-a",
    name: "Bench Gallery A",
    seed: 1_000,
    artworks: envInt("BENCH_ARTWORKS", 1_000_000),
    events: envInt("BENCH_EVENTS", 500_000),
    contacts: envInt("BENCH_CONTACTS", 200_000),
  },
  {
    key: "b",
    id: "gal_benchb0000000000000000",
    slug: "bench-b",
    name: "Bench Gallery B",
    seed: 2_000,
    artworks: envInt("BENCH_ARTWORKS_B", envInt("BENCH_ARTWORKS", 1_000_000)),
    events: envInt("BENCH_EVENTS_B", envInt("BENCH_EVENTS", 500_000)),
    contacts: envInt("BENCH_CONTACTS_B", envInt("BENCH_CONTACTS", 200_000)),
  },
];

/** Rows per INSERT; each chunk prints a progress line. */
const CHUNK = 100_000;
/** The data spans 2015-01-01 … 2026-01-01 (UTC), oldest first. */
const SPAN_START_MS = Date.UTC(2015, 0, 1);
const SPAN_MS = Date.UTC(2026, 0, 1) - SPAN_START_MS;
const ARTISTS_PER_GALLERY = 2_000;
const TAGS_PER_GALLERY = 50;
/** Every DRAFT_EVERY-th artwork is published with a pending draft. */
const DRAFT_EVERY = 20;
/** The artwork (by number) with the long activity timeline, and that timeline's length. */
const TIMELINE_ARTWORK = 1_000;
export const TIMELINE_ENTRIES = envInt("BENCH_TIMELINE", 10_000);
/** The CRM around the contacts (per gallery). */
const MEMBERS_PER_GALLERY = 12;
const CONTACT_TAGS_PER_GALLERY = 20;
/** Interactions, engagement events, sales and tasks pick their contact at random: on average this many each. */
const INTERACTIONS_PER_CONTACT = 3;
const ENGAGEMENT_PER_CONTACT = 3;
const SALES_PER_CONTACT = 0.15;
const TASKS_PER_CONTACT = 0.1;
/** Members of the static list and of the small one, and judgments under the described dynamic list's rubric key. */
const STATIC_LIST_MEMBERS = 5_000;
const SMALL_LIST_MEMBERS = 20;
const JUDGMENTS = 20_000;
/**
 * The contact (by number: the oldest) with the long history the recap is measured on: on top of its share of
 * the random rows, this many interactions, engagement events, completed sales and tasks, spread over its life.
 */
export const HISTORY_CONTACT = 1;
export const HISTORY_INTERACTIONS = envInt("BENCH_HISTORY", 2_000);
const HISTORY_ENGAGEMENT = 500;
const HISTORY_SALES = 200;
const HISTORY_TASKS = 30;
/** Steps through the contacts in a scattered order (a bijection of 1..n whenever n is not a multiple of it). */
const STRIDE = 7_919;
/**
 * The bench lists: 1 static, 2 dynamic on type + spend + engagement kind, 3 dynamic with a description (the
 * "contact lists" step), 4 a small static list (its own step, with its members).
 */
export const BENCH_LISTS = { static: 1, dynamic: 2, described: 3, small: 4 } as const;
/** The described list's description, and the dynamic list's saved filter (the scenario's list). */
export const DYNAMIC_LIST_QUERY = {
  type: "collector",
  min_total_spend_cents: 500_000,
  engaged_event: "email_opened",
} as const;
/** A surname of the CRM's name stock (one of 900): the bench's `q` matches a few hundred contacts. */
export const CONTACT_Q = "thornquist";
/**
 * The inbox: member INBOX_MEMBER of each gallery owns INBOX_THREADS threads (with email, WhatsApp and SMS
 * accounts), the other members INBOX_OTHER_THREADS each. The first INBOX_MESSAGE_THREADS threads carry their
 * last three messages (the list reads none). Contacts' names put CONTACT_Q in about one thread in 1,200.
 */
export const INBOX_MEMBER = 1;
export const INBOX_THREADS = envInt("BENCH_INBOX_THREADS", 50_000);
const INBOX_OTHER_THREADS = 300;
const INBOX_MESSAGE_THREADS = 5_000;
const INBOX_MESSAGES_PER_THREAD = 3;
const INBOX_CHANNELS = ["email", "whatsapp", "sms"] as const;
/** The bench inbox member's sign-in (run.ts signs in with it: the inbox takes member sessions only). */
export const BENCH_MEMBER_PASSWORD = "bench-inbox-member";
/** Invoices per gallery, numbered INV-000001… in creation order. */
export const INVOICES = envInt("BENCH_INVOICES", 20_000);

// ---------------------------------------------------------------------------------------------------------
// SQL building blocks

/** Uniform [0, 1) from the row number `i` and a salt: deterministic, no PRNG state. */
const u = (salt: number, col = "i") =>
  `((hashint8extended(${col}, ${salt}) & 2147483647)::float8 / 2147483648.0)`;

/** `case` picking a value by weight from a uniform column. */
function pick(uCol: string, weights: Record<string, number>): string {
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  let acc = 0;
  const entries = Object.entries(weights);
  const arms = entries.slice(0, -1).map(([value, w]) => {
    acc += w / total;
    return `when ${uCol} < ${acc.toFixed(6)} then ${value === "null" ? "null" : `'${value}'`}`;
  });
  const last = entries[entries.length - 1]![0];
  return `(case ${arms.join(" ")} else ${last === "null" ? "null" : `'${last}'`} end)`;
}

/** An element of a text list by a uniform column. */
const fromList = (uCol: string, items: readonly string[]) =>
  `(array[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(",")}])[1 + floor(${uCol} * ${items.length})::int]`;

/** Columns u1..uN of uniforms for rows `i` in [$1, $2]. */
const uniforms = (g: BenchGallery, n: number, saltBase: number) =>
  `select i, ${Array.from({ length: n }, (_, k) => `${u(g.seed + saltBase + k)} as u${k + 1}`).join(", ")}
   from generate_series($1::bigint, $2::bigint) i`;

/** Milliseconds since epoch of row i of n, spread over the span, oldest first, with jitter inside its slot. */
const createdMs = (n: number, uCol: string, iExpr = "s.i") =>
  `(${SPAN_START_MS}::bigint + ((${iExpr} - 1) * ${SPAN_MS}::bigint) / ${n} + floor(${uCol} * ${Math.floor(SPAN_MS / n)})::bigint)`;

const tsOf = (msExpr: string) => `to_timestamp((${msExpr})::float8 / 1000.0)`;

/** A time-ordered id: `prefix_` + 12 hex of ms + gallery key + 8 hex of the row number. */
const idOf = (prefix: string, g: BenchGallery, msExpr: string, iExpr = "s.i") =>
  `'${prefix}_' || lpad(to_hex(${msExpr}), 12, '0') || '${g.key}' || lpad(to_hex(${iExpr}), 8, '0')`;

/** Artwork number i's id (the same expression everywhere that refers to an artwork). */
const artworkId = (g: BenchGallery, iExpr: string) =>
  idOf("art", g, createdMs(g.artworks, u(g.seed + 100, iExpr), iExpr), iExpr);

/** Artwork number i's primary artist: skewed, a few prolific artists (uniform u2 of the artworks step). */
const artworkArtistN = (uExpr: string) => `(1 + floor(${uExpr} * ${uExpr} * ${ARTISTS_PER_GALLERY})::int)`;

const artistId = (g: BenchGallery, nExpr: string) =>
  `'artist_bench${g.key}' || lpad((${nExpr})::text, 8, '0')`;
const tagId = (g: BenchGallery, nExpr: string) => `'tag_bench${g.key}' || lpad((${nExpr})::text, 8, '0')`;
const memberId = (g: BenchGallery, nExpr: string) => `'mem_bench${g.key}' || lpad((${nExpr})::text, 8, '0')`;
/** Contact tags follow the artwork tags' numbers. */
const contactTagId = (g: BenchGallery, nExpr: string) => tagId(g, `${TAGS_PER_GALLERY} + (${nExpr})`);
const listId = (g: BenchGallery, nExpr: string) => `'list_bench${g.key}' || lpad((${nExpr})::text, 8, '0')`;

/** The end of the data's span: no interaction, engagement or sale lies after it. */
const END_MS = SPAN_START_MS + SPAN_MS;
/** Contact number n's created_at (ms; salt 500, shared with the contacts step's u1). */
const contactMs = (g: BenchGallery, nExpr: string) =>
  createdMs(g.contacts, u(g.seed + 500, `(${nExpr})`), `(${nExpr})`);
const contactId = (g: BenchGallery, nExpr: string) => idOf("con", g, contactMs(g, nExpr), `(${nExpr})`);
/** The k-th contact (k from 1) of a scattered walk through all of them, starting `offset` in. */
const scattered = (g: BenchGallery, kExpr: string, offset = 0) =>
  `(1 + ((${kExpr} - 1) * ${STRIDE}::bigint + ${offset}) % ${g.contacts})`;
/** The contact of row i of a step with `random` random rows followed by the history contact's rows. */
const rowContact = (g: BenchGallery, random: number, salt: number, iExpr = "s.i") =>
  `(case when ${iExpr} > ${random} then ${HISTORY_CONTACT}::bigint
     else 1 + floor(${u(g.seed + salt, iExpr)} * ${g.contacts})::bigint end)`;
/**
 * An instant in the life of contact `nExpr` (from its creation to the end of the span): at fraction `uExpr`
 * for a random row, evenly spaced for the history contact's k-th row of `count`.
 */
const lifeMs = (
  g: BenchGallery,
  nExpr: string,
  uExpr: string,
  iExpr: string,
  random: number,
  count: number,
  fromMs?: number,
) => {
  const born =
    fromMs === undefined ? contactMs(g, nExpr) : `greatest(${contactMs(g, nExpr)}, ${fromMs}::bigint)`;
  return `(case when ${iExpr} > ${random}
      then ${born} + ((${iExpr} - ${random}) * (${END_MS}::bigint - ${born})) / ${count + 1}
      else ${born} + floor(${uExpr} * (${END_MS}::bigint - ${born}))::bigint end)`;
};

const interactionsRandom = (g: BenchGallery) => g.contacts * INTERACTIONS_PER_CONTACT;
const engagementRandom = (g: BenchGallery) => g.contacts * ENGAGEMENT_PER_CONTACT;
const salesRandom = (g: BenchGallery) => Math.floor(g.contacts * SALES_PER_CONTACT);
const salesTotal = (g: BenchGallery) => salesRandom(g) + HISTORY_SALES;
const tasksRandom = (g: BenchGallery) => Math.floor(g.contacts * TASKS_PER_CONTACT);
/** Sale i's contact and time (salts 600, 601; shared by the sales and sale_artworks steps). */
const saleContact = (g: BenchGallery, iExpr: string) => rowContact(g, salesRandom(g), 600, iExpr);
const saleMs = (g: BenchGallery, iExpr: string) =>
  lifeMs(g, saleContact(g, iExpr), u(g.seed + 601, iExpr), iExpr, salesRandom(g), HISTORY_SALES);
/** Works per sale: one, a second for every 10th sale, a third for every 20th. */
const saleWorks = (iExpr: string) =>
  `(1 + (case when ${iExpr} % 10 = 0 then 1 else 0 end) + (case when ${iExpr} % 20 = 0 then 1 else 0 end))`;

/** contact_type by contact number, in blocks of 20: 9 collectors, 2 institutions, 2 consignors, … */
const TYPE_BLOCK = [
  ...Array(9).fill("collector"),
  "institution",
  "institution",
  "consignor",
  "consignor",
  "lender",
  "advisor",
  "advisor",
  "press",
  "other",
  "other",
  "other",
] as const;
const COLLECTORS_PER_BLOCK = 9;
const collectorCount = (n: number) =>
  Math.floor(n / TYPE_BLOCK.length) * COLLECTORS_PER_BLOCK +
  Math.min(n % TYPE_BLOCK.length, COLLECTORS_PER_BLOCK);

const TITLE_WORDS = [
  "Untitled",
  "Study",
  "Composition",
  "Harbor",
  "Blue",
  "Red",
  "Nocturne",
  "Figure",
  "Landscape",
  "Portrait",
  "Interior",
  "Still Life",
  "Garden",
  "Horizon",
  "Window",
  "Field",
  "River",
  "Morning",
  "Evening",
  "Winter",
  "Summer",
  "Self-Portrait",
  "Variation",
  "Fragment",
];
const MEDIA = [
  "Oil on canvas",
  "Acrylic on canvas",
  "Oil on linen",
  "Watercolor on paper",
  "Gouache on paper",
  "Charcoal on paper",
  "Ink on paper",
  "Bronze",
  "Marble",
  "Archival pigment print",
  "Gelatin silver print",
  "Screenprint",
  "Etching",
  "Mixed media",
  "Video, 12 min",
  "Ceramic",
];
const FIRST_NAMES = ["Ana", "Ben", "Chloe", "Dmitri", "Elif", "Femi", "Grace", "Hiro", "Ines", "Jonas"];
const LAST_NAMES = ["Marsh", "Okafor", "Lindqvist", "Tanaka", "Moreau", "Silva", "Novak", "Haddad", "Berg"];
/** Contact surnames are a prefix and a suffix: 900 of them, none inside another. */
const SURNAME_PREFIXES = [
  "Ash",
  "Bel",
  "Cal",
  "Dal",
  "Els",
  "Fair",
  "Gold",
  "Hart",
  "Iver",
  "Jans",
  "Kirk",
  "Lind",
  "Mar",
  "Nor",
  "Ost",
  "Pem",
  "Quill",
  "Ros",
  "Sand",
  "Thorn",
  "Ulf",
  "Vance",
  "Whit",
  "Yar",
  "Zell",
  "Brook",
  "Crane",
  "Dun",
  "Frost",
  "Hal",
];
const SURNAME_SUFFIXES = [
  "berg",
  "by",
  "croft",
  "dale",
  "field",
  "ford",
  "gate",
  "hall",
  "holm",
  "hurst",
  "ley",
  "lund",
  "mere",
  "more",
  "ton",
  "quist",
  "ridge",
  "shaw",
  "sted",
  "stone",
  "strom",
  "vik",
  "wick",
  "wood",
  "worth",
  "well",
  "ham",
  "bury",
  "son",
  "land",
];
const CONTACT_FIRST_NAMES = [
  "Amelia",
  "Benedict",
  "Clara",
  "Dariusz",
  "Eleanor",
  "Felix",
  "Greta",
  "Hugo",
  "Isabel",
  "Jasper",
  "Katarina",
  "Laurent",
  "Mei",
  "Nikolai",
  "Olamide",
  "Penelope",
  "Rosalind",
  "Sebastian",
  "Tamsin",
  "Umberto",
  "Vivienne",
  "Wendell",
  "Ximena",
  "Yara",
  "Zoltan",
  "Adaeze",
  "Cordelia",
  "Desmond",
  "Farid",
  "Ingrid",
];
const COMPANIES = [
  "Meridian Capital",
  "Harbor Foundation",
  "Kestrel Partners",
  "Arden Family Office",
  "Blue Fern Holdings",
  "Castellan Trust",
  "Northgate Advisors",
  "Orchard Collection",
  "Pinecrest Art Fund",
  "Solent Estates",
  "Tidewater Group",
  "Verity Art Advisory",
  "Wexford & Lane",
  "Aurora Museum of Art",
  "Civic Arts Council",
];
const INTERACTION_SUMMARIES = [
  "Catch-up on the collection",
  "Invitation to the opening",
  "Shipping and installation questions",
  "Discussed the spring programme",
  "Asked about a work in the viewing room",
  "Follow up after the fair",
];
const TASK_TITLES = [
  "Send the winter viewing room",
  "Follow up on the quote",
  "Arrange a studio visit",
  "Confirm shipping address",
  "Send condition report",
];

// ---------------------------------------------------------------------------------------------------------
// Steps

export interface SeedStep {
  /** Shown in progress lines. */
  name: string;
  /** Tables it writes: their secondary indexes are dropped before the bulk load and rebuilt after it. */
  tables: readonly string[];
  /** How many rows a gallery should have. */
  target(g: BenchGallery): number;
  /** How many it has. */
  present(client: pg.ClientBase, g: BenchGallery): Promise<number>;
  /** SQL inserting rows number $1..$2 (1-based, inclusive) of the gallery. */
  insertSql(g: BenchGallery): string;
  /**
   * SQL run once per gallery ($1 = its id) after every step has loaded, when this step loaded rows; steps
   * naming the same `sql` share one run. The indexes it reads are rebuilt before it; those of the tables it
   * `writes` after it, so its bulk writes do not maintain them.
   */
  afterLoad?: { sql: string; writes: readonly string[] };
}

const countWhere =
  (table: string, condition = "true") =>
  async (client: pg.ClientBase, g: BenchGallery) => {
    const r = await client.query<{ n: string }>(
      `select count(*) as n from ${table} where gallery_id = $1 and ${condition}`,
      [g.id],
    );
    return Number(r.rows[0]!.n);
  };

/** Recomputes the aggregates the CRM's triggers keep (they are off during the load). */
const REFRESH_CONTACTS = {
  sql: "select refresh_contact_aggregates($1)",
  writes: ["contacts", "contact_engagement"],
} as const;

const ARTWORK_ENGAGEMENT = [
  "artwork_viewed",
  "favorite_added",
  "favorite_removed",
  "inquiry_submitted",
  "checkout_started",
  "purchase_completed",
  "waitlist_joined",
];
/** Engagement starts here (the last two years of the span) or at the contact's creation if later. */
const ENGAGEMENT_FROM_MS = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
const sqlText = (items: readonly string[]) =>
  `array[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(",")}]`;

/** The CRM: members, contacts with profiles, assignees and tags, their history, sales, lists and judgments. */
const CRM_STEPS: readonly SeedStep[] = [
  {
    name: "members",
    tables: ["members"],
    target: () => MEMBERS_PER_GALLERY,
    present: countWhere("members"),
    insertSql: (
      g,
    ) => `insert into members (id, gallery_id, email, name, role, password_hash, created_at, updated_at)
      select ${memberId(g, "s.i")}, '${g.id}', 'member' || s.i || '@bench-${g.key}.example', 'Bench member ' || s.i,
        case when s.i % 4 = 0 then 'viewer' else 'editor' end, 'bench: no password',
        timestamptz '2014-06-01Z', timestamptz '2014-06-01Z'
      from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "contact tags",
    tables: ["tags"],
    target: () => CONTACT_TAGS_PER_GALLERY,
    present: countWhere("tags", "scope = 'contact'"),
    insertSql: (g) => `insert into tags (id, gallery_id, name, scope, created_at, updated_at)
      select ${contactTagId(g, "s.i")}, '${g.id}', 'Bench contact tag ' || s.i, 'contact',
        timestamptz '2014-06-01Z', timestamptz '2014-06-01Z'
      from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "contacts",
    tables: ["contacts"],
    target: (g) => g.contacts,
    present: countWhere("contacts"),
    afterLoad: REFRESH_CONTACTS,
    // u1: created jitter (salt 500, shared with contactMs); the aggregates stay at their defaults until the
    // refresh. Contact 1 (the history contact) is a collector and never archived.
    insertSql: (
      g,
    ) => `insert into contacts (id, gallery_id, name, company, email, phone, contact_type, lead_status,
          do_not_email, email_consent, archived_at, save_state, custom_fields, metadata, created_at, updated_at)
        select ${idOf("con", g, "s.ms")}, '${g.id}', s.first || ' ' || s.last,
          case when s.u5 < 0.3 then ${fromList("s.u6", COMPANIES)} end,
          lower(s.first || '.' || s.last) || '.' || s.i || '@' || ${fromList("s.u7", ["example.com", "example.org", "example.net"])},
          case when s.u7 < 0.5 then '+1 212 555 ' || lpad((s.i % 10000)::text, 4, '0') end,
          (${sqlText(TYPE_BLOCK)})[1 + ((s.i - 1) % ${TYPE_BLOCK.length})::int],
          ${pick("s.u8", { new: 18, active: 30, engaged: 22, dormant: 20, closed: 10 })},
          s.u9 < 0.04,
          case when s.u9 < 0.04 then 'unsubscribed'
            else ${pick("s.u10", { granted: 55, pending: 35, declined: 5, unsubscribed: 5 })} end,
          case when s.u11 < 0.02 and s.i <> ${HISTORY_CONTACT} then ${tsOf(`least(s.ms + ${30 * DAY_MS}, ${END_MS})`)} end,
          'new', '{}'::jsonb, '{}'::jsonb,
          ${tsOf("s.ms")}, ${tsOf(`least(s.ms + floor(s.u12 * ${90 * DAY_MS})::bigint, ${END_MS})`)}
        from (select s0.*, ${createdMs(g.contacts, "s0.u1", "s0.i")} as ms,
            ${fromList("s0.u2", CONTACT_FIRST_NAMES)} as first,
            ${fromList("s0.u3", SURNAME_PREFIXES)} || ${fromList("s0.u4", SURNAME_SUFFIXES)} as last
          from (${uniforms(g, 12, 500)}) s0) s`,
  },
  {
    name: "collector profiles",
    tables: ["collector_profiles"],
    // One per collector: contact numbers 1..9 of every block of 20.
    target: (g) => collectorCount(g.contacts),
    present: countWhere("collector_profiles"),
    insertSql: (
      g,
    ) => `insert into collector_profiles (contact_id, gallery_id, collecting_focus, budget_band, vip,
          tax_exempt, created_at, updated_at)
        select ${contactId(g, "s.n")}, '${g.id}',
          ${fromList("s.u1", ["Postwar painting", "Contemporary photography", "Works on paper", "Sculpture", "Prints and multiples"])},
          ${fromList("s.u2", ["under_5k", "5k_25k", "25k_100k", "over_100k"])},
          s.n = ${HISTORY_CONTACT} or s.u3 < 0.05, s.u3 > 0.98, ${tsOf(contactMs(g, "s.n"))}, ${tsOf(contactMs(g, "s.n"))}
        from (select s0.*, ${TYPE_BLOCK.length} * ((s0.i - 1) / ${COLLECTORS_PER_BLOCK}) + (s0.i - 1) % ${COLLECTORS_PER_BLOCK} + 1 as n
          from (${uniforms(g, 3, 510)}) s0) s`,
  },
  {
    name: "contact assignees",
    tables: ["contact_assignees"],
    // 80% of contacts have one assignee, an eighth of those a second one.
    target: (g) => Math.floor(g.contacts * 0.8) + Math.floor(g.contacts * 0.1),
    present: countWhere("contact_assignees"),
    insertSql: (g) => {
      const a = Math.floor(g.contacts * 0.8);
      const m = MEMBERS_PER_GALLERY;
      return `insert into contact_assignees (gallery_id, contact_id, member_id, position, created_at)
        select '${g.id}', ${contactId(g, "s.n")},
          ${memberId(g, `case when s.i <= ${a} then s.first else 1 + (s.first + floor(s.u * ${m - 1})::int) % ${m} end`)},
          case when s.i <= ${a} then 0 else 1 end, ${tsOf(contactMs(g, "s.n"))}
        from (select s1.*, 1 + floor(${u(g.seed + 520, "s1.n")} * ${m})::int as first
          from (select i, case when i <= ${a} then ${scattered(g, "i")} else ${scattered(g, `(i - ${a})`)} end as n,
              ${u(g.seed + 521)} as u
            from generate_series($1::bigint, $2::bigint) i) s1) s`;
    },
  },
  {
    name: "contact tag links",
    tables: ["contact_tags"],
    // Half the contacts carry a tag, a fifth of those a second one.
    target: (g) => Math.floor(g.contacts * 0.5) + Math.floor(g.contacts * 0.1),
    present: countWhere("contact_tags"),
    insertSql: (g) => {
      const a = Math.floor(g.contacts * 0.5);
      const t = CONTACT_TAGS_PER_GALLERY;
      return `insert into contact_tags (gallery_id, contact_id, tag_id, created_at)
        select '${g.id}', ${contactId(g, "s.n")},
          ${contactTagId(g, `case when s.i <= ${a} then s.first else 1 + (s.first + floor(s.u * ${t - 1})::int) % ${t} end`)},
          ${tsOf(contactMs(g, "s.n"))}
        from (select s1.*, 1 + floor(${u(g.seed + 525, "s1.n")} * ${t})::int as first
          from (select i, case when i <= ${a} then ${scattered(g, "i", 3)} else ${scattered(g, `(i - ${a})`, 3)} end as n,
              ${u(g.seed + 526)} as u
            from generate_series($1::bigint, $2::bigint) i) s1) s`;
    },
  },
  {
    name: "interactions",
    tables: ["interactions"],
    target: (g) => interactionsRandom(g) + HISTORY_INTERACTIONS,
    present: countWhere("interactions"),
    afterLoad: REFRESH_CONTACTS,
    insertSql: (g) => {
      const r = interactionsRandom(g);
      return `insert into interactions (id, gallery_id, contact_id, type, direction, summary, occurred_at, artwork_id,
          member_id, metadata, created_at, updated_at)
        select ${idOf("int", g, "s.ms")}, '${g.id}', ${contactId(g, "s.n")}, s.type,
          case when s.type in ('email', 'call', 'message') then case when s.u4 < 0.5 then 'inbound' else 'outbound' end end,
          ${fromList("s.u6", INTERACTION_SUMMARIES)}, ${tsOf("s.ms")},
          case when s.u5 < 0.15 then ${artworkId(g, `(1 + floor(s.u5 / 0.15 * ${g.artworks})::bigint)`)} end,
          ${memberId(g, `1 + floor(s.u6 * ${MEMBERS_PER_GALLERY})::int`)}, '{}'::jsonb, ${tsOf("s.ms")}, ${tsOf("s.ms")}
        from (select s1.*, ${lifeMs(g, "s1.n", "s1.u2", "s1.i", r, HISTORY_INTERACTIONS)} as ms
          from (select s0.*, ${rowContact(g, r, 530, "s0.i")} as n,
              ${pick("s0.u3", { email: 30, call: 17, meeting: 10, visit: 8, note: 20, message: 6, viewing: 4, event: 3, other: 2 })} as type
            from (${uniforms(g, 6, 530)}) s0) s1) s`;
    },
  },
  {
    name: "engagement events",
    tables: ["engagement_events", "contact_engagement"],
    target: (g) => engagementRandom(g) + HISTORY_ENGAGEMENT,
    present: countWhere("engagement_events"),
    afterLoad: REFRESH_CONTACTS,
    insertSql: (g) => {
      const r = engagementRandom(g);
      return `insert into engagement_events (id, gallery_id, contact_id, kind, occurred_at, artwork_id, viewing_room_id,
          metadata, created_at)
        select ${idOf("eng", g, "s.ms")}, '${g.id}', ${contactId(g, "s.n")}, s.kind, ${tsOf("s.ms")},
          case when s.kind = any(${sqlText(ARTWORK_ENGAGEMENT)}) then ${artworkId(g, `(1 + floor(s.u4 * ${g.artworks})::bigint)`)} end,
          null, '{}'::jsonb, ${tsOf("s.ms")}
        from (select s1.*, ${lifeMs(g, "s1.n", "s1.u2", "s1.i", r, HISTORY_ENGAGEMENT, ENGAGEMENT_FROM_MS)} as ms
          from (select s0.*, ${rowContact(g, r, 540, "s0.i")} as n, ${pick("s0.u3", ENGAGEMENT_WEIGHTS)} as kind
            from (${uniforms(g, 4, 540)}) s0) s1) s`;
    },
  },
  {
    name: "sales",
    tables: ["sales"],
    target: salesTotal,
    present: countWhere("sales"),
    afterLoad: REFRESH_CONTACTS,
    // u1, u2: the sale's contact and time (salts 600, 601: saleContact, saleMs). Amounts are log-uniform from
    // $500 to $500,000, so every price band fills; the history contact's sales are all completed.
    insertSql: (
      g,
    ) => `insert into sales (id, gallery_id, contact_id, amount_cents, currency, base_amount_cents,
          works_count, sold_at, status, metadata, created_at, updated_at)
        select ${idOf("sale", g, "s.ms")}, '${g.id}', ${contactId(g, "s.n")}, s.amount, s.currency,
          round(s.amount * case s.currency when 'EUR' then 1.08 when 'GBP' then 1.27 else 1 end)::bigint,
          ${saleWorks("s.i")}, ${tsOf("s.ms")},
          case when s.i > ${salesRandom(g)} then 'completed'
            else ${pick("s.u5", { completed: 85, pending: 7, cancelled: 4, refunded: 4 })} end,
          '{}'::jsonb, ${tsOf("s.ms")}, ${tsOf("s.ms")}
        from (select s0.*, ${saleContact(g, "s0.i")} as n, ${saleMs(g, "s0.i")} as ms,
            (round(exp(ln(50000) + s0.u3 * (ln(50000000) - ln(50000))) / 10000) * 10000)::bigint as amount,
            ${pick("s0.u4", { USD: 80, EUR: 12, GBP: 8 })} as currency
          from (${uniforms(g, 5, 600)}) s0) s`,
  },
  {
    name: "sale artworks",
    tables: ["sale_artworks"],
    target: (g) => {
      const n = salesTotal(g);
      return n + Math.floor(n / 10) + Math.floor(n / 20);
    },
    present: countWhere("sale_artworks"),
    // Rows 1..n: each sale's first work; then the second work of every 10th sale, the third of every 20th.
    insertSql: (g) => {
      const n = salesTotal(g);
      const tens = Math.floor(n / 10);
      return `insert into sale_artworks (gallery_id, sale_id, artwork_id, position)
        select '${g.id}', ${idOf("sale", g, saleMs(g, "s.sale"), "s.sale")},
          ${artworkId(g, `(1 + ((s.sale * 3 + s.pos) * 104729) % ${g.artworks})`)}, s.pos
        from (select case when i <= ${n} then i when i <= ${n + tens} then 10 * (i - ${n}) else 20 * (i - ${n + tens}) end as sale,
            case when i <= ${n} then 0 when i <= ${n + tens} then 1 else 2 end as pos
          from generate_series($1::bigint, $2::bigint) i) s`;
    },
  },
  {
    name: "tasks",
    tables: ["tasks"],
    target: (g) => tasksRandom(g) + HISTORY_TASKS,
    present: countWhere("tasks"),
    insertSql: (g) => {
      const r = tasksRandom(g);
      return `insert into tasks (id, gallery_id, contact_id, title, notes, due_at, completed_at, assignee_id, created_by,
          created_at, updated_at)
        select ${idOf("task", g, "s.ms")}, '${g.id}', ${contactId(g, "s.n")}, ${fromList("s.u5", TASK_TITLES)}, null,
          ${tsOf(`s.ms + floor((s.u3 * 75 - 15) * ${DAY_MS})::bigint`)},
          case when s.u4 < 0.4 then ${tsOf(`s.ms + floor(s.u3 * ${10 * DAY_MS})::bigint`)} end,
          ${memberId(g, `1 + floor(s.u5 * ${MEMBERS_PER_GALLERY})::int`)}, ${memberId(g, "1")},
          ${tsOf("s.ms")}, ${tsOf("s.ms")}
        from (select s1.*, ${lifeMs(g, "s1.n", "s1.u2", "s1.i", r, HISTORY_TASKS)} as ms
          from (select s0.*, ${rowContact(g, r, 560, "s0.i")} as n from (${uniforms(g, 5, 560)}) s0) s1) s`;
    },
  },
  {
    name: "contact lists",
    tables: ["contact_lists"],
    target: () => BENCH_LISTS.described,
    present: (client, g) => countWhere("contact_lists", `id <> '${benchListId(g, "small")}'`)(client, g),
    insertSql: (
      g,
    ) => `insert into contact_lists (id, gallery_id, title, description, kind, is_dynamic, dynamic_query,
          created_at, updated_at)
        select ${listId(g, "s.i")}, '${g.id}',
          (${sqlText(["Bench pipeline", "Collectors, $5k+, opened an email", "Painting collectors to court"])})[s.i],
          'Bench list ' || s.i, (${sqlText(["pipeline", "segment", "segment"])})[s.i], s.i <> ${BENCH_LISTS.static},
          (array[null, '${JSON.stringify(DYNAMIC_LIST_QUERY)}',
            '${JSON.stringify({ type: "collector", described_as: "collectors building a serious painting collection" })}']::jsonb[])[s.i],
          timestamptz '2025-06-01Z', timestamptz '2025-06-01Z'
        from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "list memberships",
    tables: ["contact_list_memberships"],
    // The static list; its first member is the history contact.
    target: (g) => Math.min(STATIC_LIST_MEMBERS, g.contacts),
    present: (client, g) =>
      countWhere("contact_list_memberships", `list_id = '${benchListId(g, "static")}'`)(client, g),
    insertSql: (
      g,
    ) => `insert into contact_list_memberships (gallery_id, list_id, contact_id, position, added_at)
        select '${g.id}', ${listId(g, String(BENCH_LISTS.static))}, ${contactId(g, scattered(g, "s.i"))}, (s.i - 1)::int,
          timestamptz '2025-06-02Z'
        from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "small static list",
    tables: ["contact_lists", "contact_list_memberships"],
    // A shortlist of 20 contacts spread over the roster's whole age, so a page of them is no page of the roster.
    target: () => SMALL_LIST_MEMBERS,
    present: (client, g) =>
      countWhere("contact_list_memberships", `list_id = '${benchListId(g, "small")}'`)(client, g),
    insertSql: (g) => `with list as (
          insert into contact_lists (id, gallery_id, title, description, kind, is_dynamic, dynamic_query,
            created_at, updated_at)
          select ${listId(g, String(BENCH_LISTS.small))}, '${g.id}', 'Bench viewing shortlist', 'Bench list ${BENCH_LISTS.small}',
            'pipeline', false, null, timestamptz '2025-06-01Z', timestamptz '2025-06-01Z'
          where $1::bigint = 1
        )
        insert into contact_list_memberships (gallery_id, list_id, contact_id, position, added_at)
        select '${g.id}', ${listId(g, String(BENCH_LISTS.small))},
          ${contactId(g, `(1 + ((s.i - 1) * ${Math.floor(g.contacts / SMALL_LIST_MEMBERS)} + 101) % ${g.contacts})`)},
          (s.i - 1)::int, timestamptz '2025-06-02Z'
        from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "rubric judgments",
    tables: ["rubric_judgments"],
    // Under the described list's key: 70% judged true (from 0.3 to 1.0), the rest false.
    target: (g) => Math.min(JUDGMENTS, g.contacts),
    present: countWhere("rubric_judgments"),
    insertSql: (
      g,
    ) => `insert into rubric_judgments (gallery_id, rubric_key, contact_id, verdict, probability, model,
          reasons, judged_at)
        select '${g.id}', 'segment:' || ${listId(g, String(BENCH_LISTS.described))}, ${contactId(g, scattered(g, "s.i", 17))},
          s.u1 < 0.7, case when s.u1 < 0.7 then 0.3 + s.u2 * 0.7 else s.u2 * 0.6 end, 'bench', '[]'::jsonb,
          timestamptz '2025-12-01Z'
        from (${uniforms(g, 2, 570)}) s`,
  },
];

/** Thread t's owner (a member number): INBOX_MEMBER for the first INBOX_THREADS, then the others in turn. */
const threadMember = (tExpr: string) =>
  `(case when ${tExpr} <= ${INBOX_THREADS} then ${INBOX_MEMBER}
     else 1 + (${INBOX_MEMBER} + (${tExpr} - ${INBOX_THREADS} - 1) % ${MEMBERS_PER_GALLERY - 1}) % ${MEMBERS_PER_GALLERY} end)`;
/** The UUID of member m's account on a channel. */
const connectionId = (g: BenchGallery, mExpr: string, channelExpr: string) =>
  `md5('${g.key}:inbox:' || (${mExpr}) || ':' || ${channelExpr})::uuid`;
/** The inbox's last three years, to the end of the span. */
const INBOX_FROM_MS = Date.UTC(2023, 0, 1);
/** Thread t's values, shared by the threads and messages steps (salts 700…). */
const thread = (g: BenchGallery, tExpr: string) => {
  const ut = (salt: number) => u(g.seed + salt, `(${tExpr})::bigint`);
  const contactN = `(1 + floor(${ut(703)} * ${g.contacts})::bigint)`;
  const un = (salt: number) => u(g.seed + salt, contactN);
  const first = fromList(un(501), CONTACT_FIRST_NAMES);
  const last = `${fromList(un(502), SURNAME_PREFIXES)} || ${fromList(un(503), SURNAME_SUFFIXES)}`;
  const matched = `${ut(704)} < 0.75`;
  const channel = pick(ut(702), { email: 60, whatsapp: 25, sms: 15 });
  return {
    lastMs: `(${INBOX_FROM_MS}::bigint + floor(${ut(700)} * ${END_MS - INBOX_FROM_MS})::bigint)`,
    ageMs: `(${6 * 3_600_000}::bigint + floor(${ut(701)} * ${30 * DAY_MS})::bigint)`,
    channel,
    matched,
    contactN,
    // As the contacts step names and addresses contact n (its u2, u3, u4 and u7).
    contactName: `(case when ${matched} then ${first} || ' ' || ${last}
      else ${fromList(ut(705), ["Global Art Directory", "Hudson Review of Art", "Atlas Fine Art Logistics", "Harbour Framing"])} end)`,
    counterpart: `(case when ${channel} = 'email' then
        case when ${matched} then lower(${first} || '.' || ${last}) || '.' || ${contactN} || '@'
          || ${fromList(un(506), ["example.com", "example.org", "example.net"])}
        else 'desk.' || (${tExpr}) || '@mail.example' end
      else '+1212555' || lpad((case when ${matched} then ${contactN} else ${tExpr} end % 10000)::text, 4, '0') end)`,
    /** 20% unread: one inbound message, a third of those two. */
    unread: `(case when ${ut(706)} < 0.2 then 1 + (${ut(707)} < 0.33)::int else 0 end)`,
    snippet: fromList(ut(716), INBOX_SNIPPETS),
  };
};
const INBOX_SNIPPETS = [
  "Could you tell me the price of the large painting in the back room?",
  "Is the work from the viewing room still available? I could come by on Thursday.",
  "Thank you for the invitation, two of us will attend the opening.",
  "I sent the wire for the invoice today; please confirm once it arrives.",
  "Could you arrange shipping to London? We will need a crate and a courier.",
  "Following up on my last message: I need to decide by tomorrow.",
  "I am out of the office until Monday with limited access to email.",
  "We would like to request the loan of the work for our spring exhibition.",
  "Let's do it, send me the invoice.",
  "Running ten minutes late, sorry!",
];
const INBOX_SUBJECTS = [
  "Enquiry about a work in the viewing room",
  "Price list for the winter show",
  "Shipping quote for my recent purchase",
  "Payment for my purchase",
  "Loan request for the spring exhibition",
  "Visit to the gallery next week",
  "Consigning a work from my collection",
  "Re: Invitation to the opening",
];
const TRIAGE_INTENT_WEIGHTS = {
  purchase_inquiry: 10,
  price_request: 15,
  availability: 15,
  logistics: 12,
  consignment: 4,
  press: 4,
  event_rsvp: 10,
  invoice_payment: 8,
  spam: 7,
  other: 15,
};

/** The inbox: accounts, threads (with triage, state, unread counts) and the messages of some threads. */
const INBOX_STEPS: readonly SeedStep[] = [
  {
    name: "inbox connections",
    tables: ["inbox_connections"],
    target: () => MEMBERS_PER_GALLERY * INBOX_CHANNELS.length,
    present: countWhere("inbox_connections"),
    insertSql: (g) => {
      const m = `(1 + (s.i - 1) / ${INBOX_CHANNELS.length})`;
      const channel = `(${sqlText(INBOX_CHANNELS)})[1 + ((s.i - 1) % ${INBOX_CHANNELS.length})::int]`;
      return `insert into inbox_connections (id, gallery_id, member_id, channel, provider, address, status,
          last_synced_at, created_at, updated_at)
        select ${connectionId(g, m, channel)}, '${g.id}', ${memberId(g, m)}, ${channel},
          case when ${channel} = 'email' then 'google' else 'twilio' end,
          case when ${channel} = 'email' then 'member' || ${m} || '@bench-${g.key}.example'
            else '+1646555' || lpad((${m} * 10 + (s.i - 1) % ${INBOX_CHANNELS.length})::text, 4, '0') end,
          'active', timestamptz '2026-01-01Z', timestamptz '2022-12-01Z', timestamptz '2026-01-01Z'
        from generate_series($1::bigint, $2::bigint) s(i)`;
    },
  },
  {
    name: "inbox threads",
    tables: ["inbox_threads"],
    target: () => INBOX_THREADS + (MEMBERS_PER_GALLERY - 1) * INBOX_OTHER_THREADS,
    present: countWhere("inbox_threads"),
    insertSql: (g) => {
      const t = thread(g, "s.i");
      const created = `(${t.lastMs} - ${t.ageMs})`;
      const triaged = "s.u1 < 0.8";
      return `insert into inbox_threads (id, gallery_id, member_id, connection_id, channel, provider_thread_id,
          counterpart_address, contact_id, contact_name, subject, last_from, last_snippet, last_message_at,
          assigned_to, state, snooze_until, unread_count, triage_intent, triage_intent_probability, triage_urgency,
          triage_urgency_probability, triage_expects_reply, triage_escalating, triage_corrected_intent, triaged_at,
          created_at, updated_at)
        select ${idOf("thr", g, created)}, '${g.id}', ${memberId(g, threadMember("s.i"))},
          ${connectionId(g, threadMember("s.i"), t.channel)}, ${t.channel}, 'bench-${g.key}-' || s.i,
          ${t.counterpart}, case when ${t.matched} then ${contactId(g, t.contactN)} end, ${t.contactName},
          case when ${t.channel} = 'email' then ${fromList("s.u2", INBOX_SUBJECTS)} end,
          -- The threads with messages end on an inbound one; of the others, 30% on the member's reply.
          case when s.i > ${INBOX_MESSAGE_THREADS} and s.u3 < 0.3 then 'Bench member ' || ${threadMember("s.i")}
            else ${t.contactName} end,
          ${t.snippet}, ${tsOf(t.lastMs)},
          case when s.u4 < 0.3 then ${memberId(g, `1 + floor(s.u5 * ${MEMBERS_PER_GALLERY})::int`)} end,
          s.state,
          case when s.state = 'snoozed' then case when s.u6 < 0.5 then ${tsOf(`${t.lastMs} + ${2 * DAY_MS}`)}
            else timestamptz '2030-01-01Z' + floor(s.u7 * 300) * interval '1 day' end end,
          ${t.unread},
          case when ${triaged} then ${pick("s.u8", TRIAGE_INTENT_WEIGHTS)} end,
          case when ${triaged} then round((0.5 + s.u9 * 0.5)::numeric, 2)::float8 end,
          case when ${triaged} then ${pick("s.u10", { now: 8, today: 32, this_week: 35, later: 25 })} end,
          case when ${triaged} then round((0.4 + s.u11 * 0.6)::numeric, 2)::float8 end,
          case when ${triaged} then round(s.u12::numeric, 2)::float8 end,
          case when ${triaged} then round((s.u13 * s.u13)::numeric, 2)::float8 end,
          case when ${triaged} and s.u14 < 0.02 then 'purchase_inquiry' end,
          case when ${triaged} then ${tsOf(`${t.lastMs} + 60000`)} end,
          ${tsOf(created)}, ${tsOf(`${t.lastMs} + 120000`)}
        from (select s0.*, ${pick("s0.u15", { open: 55, done: 35, snoozed: 10 })} as state
          from (${uniforms(g, 15, 720)}) s0) s`;
    },
  },
  {
    name: "inbox messages",
    tables: ["inbox_messages"],
    target: () => INBOX_MESSAGE_THREADS * INBOX_MESSAGES_PER_THREAD,
    present: countWhere("inbox_messages"),
    // Thread t's last three messages, newest (k = 0) first: two inbound, then the member's reply before them;
    // the newest `unread` inbound ones are unread, so the thread's unread_count holds.
    insertSql: (g) => {
      const t = thread(g, "s.t");
      const sent = `(${t.lastMs} - s.k * ${3 * 3_600_000}::bigint)`;
      const member = `'member' || ${threadMember("s.t")} || '@bench-${g.key}.example'`;
      return `insert into inbox_messages (id, gallery_id, thread_id, direction, from_address, from_name,
          to_addresses, body, snippet, sent_at, read_at, provider_message_id, created_at)
        select ${idOf("msg", g, sent)}, '${g.id}', ${idOf("thr", g, `(${t.lastMs} - ${t.ageMs})`, "s.t")},
          case when s.k < 2 then 'inbound' else 'outbound' end,
          case when s.k < 2 then ${t.counterpart} else ${member} end,
          case when s.k < 2 then ${t.contactName} else 'Bench member ' || ${threadMember("s.t")} end,
          array[case when s.k < 2 then ${member} else ${t.counterpart} end],
          s.body, left(s.body, 200), ${tsOf(sent)},
          case when s.k < 2 and s.k >= ${t.unread} then ${tsOf(`${sent} + 3600000`)} end,
          'bench-${g.key}-' || s.i, ${tsOf(sent)}
        from (select s1.*, case when s1.k = 0 then ${thread(g, "s1.t").snippet}
            else ${fromList(u(g.seed + 730, "s1.i"), INBOX_SNIPPETS)} end as body
          from (select i, 1 + (i - 1) / ${INBOX_MESSAGES_PER_THREAD} as t, (i - 1) % ${INBOX_MESSAGES_PER_THREAD} as k
            from generate_series($1::bigint, $2::bigint) i) s1) s`;
    },
  },
];

/** Invoices over the span, in every status; 85% bill a sale's buyer for its amount, the rest are standalone. */
const INVOICE_STEPS: readonly SeedStep[] = [
  {
    name: "invoices",
    tables: ["invoices"],
    target: () => INVOICES,
    present: countWhere("invoices"),
    insertSql: (g) => {
      const created = createdMs(INVOICES, "s.u1");
      const day = `(${tsOf(created)} at time zone 'UTC')::date`;
      // The sale's amount and currency as the sales step drew them (its u3 and u4: salts 602, 603).
      const saleAmount = `(round(exp(ln(50000) + ${u(g.seed + 602, "s0.sale")} * (ln(50000000) - ln(50000))) / 10000) * 10000)::bigint`;
      const saleCurrency = pick(u(g.seed + 603, "s0.sale"), { USD: 80, EUR: 12, GBP: 8 });
      const rate = "(case s.currency when 'EUR' then 1.08 when 'GBP' then 1.27 else 1 end)";
      const total = "(s.subtotal - s.discount + s.tax + s.shipping + s.shipping_tax)";
      return `insert into invoices (id, gallery_id, sale_id, contact_id, invoice_number, status, issued_date,
          due_date, subtotal_cents, discount_cents, discount_bps, tax_cents, shipping_cents, shipping_tax_cents,
          amount_paid_cents, accepted_payment_methods, currency, fx_as_of, fx_usd_per_unit, fx_base_usd_per_unit,
          fx_base_currency, billing_name, taxability_override, archived_at, metadata, created_at, updated_at)
        select ${idOf("inv", g, created)}, '${g.id}',
          case when s.billed then ${idOf("sale", g, saleMs(g, "s.sale"), "s.sale")} end,
          case when s.billed then ${contactId(g, saleContact(g, "s.sale"))}
            else ${contactId(g, `(1 + floor(s.u2 * ${g.contacts})::bigint)`)} end,
          'INV-' || lpad(s.i::text, 6, '0'), s.status,
          case when s.status <> 'draft' then ${day} end,
          case when s.status <> 'draft' then ${day} + 30 end,
          s.subtotal, s.discount, s.bps, s.tax, s.shipping, s.shipping_tax,
          case s.status when 'paid' then ${total} when 'partially_paid' then round(${total} * 0.4)::bigint else 0 end,
          case when s.currency = 'USD' then '{bank_transfer,card}'::text[] else '{wire}'::text[] end,
          s.currency, case when s.currency <> 'USD' then ${day} end,
          case when s.currency <> 'USD' then ${rate}::float8 end, case when s.currency <> 'USD' then 1::float8 end,
          'USD', 'Bench buyer ' || s.i, 'none',
          case when s.u3 < 0.03 then ${tsOf(`${created} + ${40 * DAY_MS}`)} end,
          '{}'::jsonb, ${tsOf(created)}, ${tsOf(`${created} + floor(s.u4 * ${30 * DAY_MS})::bigint`)}
        from (select s2.*,
            case when s2.currency = 'USD' then round((s2.subtotal - s2.discount) * 0.08875)::bigint else 0 end as tax,
            case when s2.currency = 'USD' then round(s2.shipping * 0.08875)::bigint else 0 end as shipping_tax
          from (select s1.*, floor(s1.subtotal::numeric * s1.bps / 10000 + 0.5)::bigint as discount
            from (select s0.*,
                case when s0.billed then ${saleAmount} else (20000 + floor(s0.u5 * 480000))::bigint end as subtotal,
                case when s0.billed then ${saleCurrency} else 'USD' end as currency,
                ${pick("s0.u6", { paid: 56, unpaid: 16, partially_paid: 10, draft: 8, void: 10 })} as status,
                case when s0.u7 < 0.15 then 500 + 500 * (s0.u7 < 0.05)::int else 0 end as bps,
                (${fromList("s0.u8", ["0", "45000", "120000", "250000"])})::bigint as shipping
              from (select s00.*, 1 + floor(${u(g.seed + 820, "s00.i")} * ${salesTotal(g)})::bigint as sale,
                  s00.u9 < 0.85 as billed
                from (${uniforms(g, 9, 800)}) s00) s0) s1) s2) s`;
    },
  },
  {
    name: "invoice sequence",
    tables: ["invoice_sequences"],
    target: () => 1,
    present: countWhere("invoice_sequences"),
    insertSql: (g) => `insert into invoice_sequences (gallery_id, last_number)
      select '${g.id}', ${INVOICES} from generate_series($1::bigint, $2::bigint)`,
  },
];

/**
 * Viewing rooms: gallery A's public surface. Each room shows ROOM_WORKS works; every fourth hides its price, the
 * others show it where the work is public-priced, so the public room has priced works and "price on request"
 * ones. The named rooms (both galleries) are one of each kind a visitor meets: BENCH_PUBLIC_ROOM_SLUG (public,
 * open, no close), a second open public room, an unlisted, a private, a closed and a not yet open room. Then, in
 * gallery A only, COLD_ROOMS unlisted open rooms `cold-room-<n>` of the same size: the cold read asks for a
 * different one each request (run.ts), so the edge cache never holds the answer; unlisted, they stay out of the
 * public list.
 */
export const ROOM_WORKS = 24;
export const BENCH_PUBLIC_ROOM_SLUG = "winter-viewing-room";
export const COLD_ROOM_SLUG_PREFIX = "cold-room-";
export const COLD_ROOMS = envInt("BENCH_COLD_ROOMS", 10_000);
const NAMED_ROOMS: readonly {
  slug: string;
  title: string;
  visibility: "public" | "unlisted" | "private";
  opens: string | null;
  closes: string | null;
}[] = [
  {
    slug: BENCH_PUBLIC_ROOM_SLUG,
    title: "Winter Viewing Room",
    visibility: "public",
    opens: "2025-12-01Z",
    closes: null,
  },
  {
    slug: "works-on-paper",
    title: "Works on Paper",
    visibility: "public",
    opens: "2025-11-01Z",
    closes: "2030-01-01Z",
  },
  {
    slug: "collector-preview",
    title: "Collector Preview",
    visibility: "unlisted",
    opens: "2025-12-15Z",
    closes: null,
  },
  { slug: "private-selection", title: "Private Selection", visibility: "private", opens: null, closes: null },
  {
    slug: "autumn-viewing-room",
    title: "Autumn Viewing Room",
    visibility: "public",
    opens: "2025-09-01Z",
    closes: "2025-11-15Z",
  },
  { slug: "spring-2031", title: "Spring 2031", visibility: "public", opens: "2031-03-01Z", closes: null },
];
const roomCount = (g: BenchGallery) => NAMED_ROOMS.length + (g.key === "a" ? COLD_ROOMS : 0);
const roomId = (g: BenchGallery, nExpr: string) => `'room_bench${g.key}' || lpad((${nExpr})::text, 8, '0')`;
/** Column `k` of the named rooms by room number (1-based), null past them. */
const namedRoom = (nExpr: string, k: keyof (typeof NAMED_ROOMS)[number]) =>
  `(array[${NAMED_ROOMS.map((r) => (r[k] === null ? "null" : `'${r[k]}'`)).join(", ")}]::text[])[${nExpr}]`;

/**
 * Recommendation matches (gallery A): MATCHES_PER_CONTACT per contact (one per model, so the pair key holds), over
 * MATCH_ARTWORKS works spread through the gallery; the work is skewed (u²) so the first works of the list draw
 * thousands of matches each. Probabilities 0.1 + 0.89·u^1.6: about 30% clear the 0.6 floor. 2% are dismissed, 1%
 * hidden until 2030. The bench offer's OFFER_ITEMS works are the most matched ones, with OFFER_RECIPIENTS of
 * their best contacts already on it.
 */
const MATCHES_PER_CONTACT = 3;
const MATCH_ARTWORKS = 3_000;
const OFFER_ITEMS = 20;
const OFFER_RECIPIENTS = 5;
export const BENCH_OFFER_ID = "offer_bencha00000001";
const MATCH_REASONS = [
  "Bought two works by this artist",
  "Opened the winter viewing room twice",
  "Asked about works on paper at the fair",
  "Collects postwar painting",
  "Favourited a work in this series",
  "Budget matches the price band",
];
/** The w-th matched work (1-based) of gallery g: spread evenly over its artworks. */
const matchedArtwork = (g: BenchGallery, wExpr: string) =>
  artworkId(g, `((${wExpr}) * ${Math.max(1, Math.floor(g.artworks / MATCH_ARTWORKS))})::bigint`);
const onlyA = (g: BenchGallery, n: number) => (g.key === "a" ? n : 0);

const ROOM_STEPS: readonly SeedStep[] = [
  {
    name: "viewing rooms",
    tables: ["viewing_rooms"],
    target: roomCount,
    present: countWhere("viewing_rooms"),
    insertSql: (
      g,
    ) => `insert into viewing_rooms (id, gallery_id, title, slug, description, visibility, opens_at,
          closes_at, published_at, created_at, updated_at)
        select ${roomId(g, "s.i")}, '${g.id}',
          coalesce(${namedRoom("s.i", "title")}, 'Cold room ' || (s.i - ${NAMED_ROOMS.length})),
          coalesce(${namedRoom("s.i", "slug")}, '${COLD_ROOM_SLUG_PREFIX}' || (s.i - ${NAMED_ROOMS.length})),
          'Bench room ' || s.i, coalesce(${namedRoom("s.i", "visibility")}, 'unlisted'),
          case when s.i <= ${NAMED_ROOMS.length} then (${namedRoom("s.i", "opens")})::timestamptz
            else timestamptz '2025-06-01Z' end,
          (${namedRoom("s.i", "closes")})::timestamptz,
          case when s.i <= ${NAMED_ROOMS.length} then (${namedRoom("s.i", "opens")})::timestamptz
            else timestamptz '2025-06-01Z' end,
          s.at, s.at
        from (select i, case when i <= ${NAMED_ROOMS.length} then timestamptz '2025-08-01Z' + i * interval '1 day'
            else timestamptz '2025-06-01Z' + i * interval '1 second' end as at
          from generate_series($1::bigint, $2::bigint) i) s(i, at)`,
  },
  {
    name: "viewing room works",
    tables: ["viewing_room_artworks"],
    target: (g) => roomCount(g) * ROOM_WORKS,
    present: countWhere("viewing_room_artworks"),
    // Row i: room r = 1 + (i - 1) / ROOM_WORKS at position p; works distinct within a room (104729 is prime).
    insertSql: (g) => `insert into viewing_room_artworks (gallery_id, viewing_room_id, artwork_id, position,
          show_price, created_at)
        select '${g.id}', ${roomId(g, "s.r")},
          ${artworkId(g, `(1 + ((s.r * ${ROOM_WORKS} + s.p) * 104729) % ${g.artworks})`)}, s.p::int, s.p % 4 <> 3,
          timestamptz '2025-06-01Z'
        from (select 1 + (i - 1) / ${ROOM_WORKS} as r, (i - 1) % ${ROOM_WORKS} as p
          from generate_series($1::bigint, $2::bigint) i) s`,
  },
];

const OFFER_STEPS: readonly SeedStep[] = [
  {
    name: "recommendation matches",
    tables: ["recommendation_matches"],
    target: (g) => onlyA(g, g.contacts * MATCHES_PER_CONTACT),
    present: countWhere("recommendation_matches"),
    // Row i: contact 1 + (i - 1) % contacts, model k = (i - 1) / contacts.
    insertSql: (
      g,
    ) => `insert into recommendation_matches (id, gallery_id, artwork_id, contact_id, model, probability,
          reasons, evidence_count, status, hidden_until, judged_at, created_at, updated_at)
        select 'match_bench${g.key}' || lpad(s.i::text, 10, '0'), '${g.id}',
          ${matchedArtwork(g, `1 + floor(s.u1 * s.u1 * ${MATCH_ARTWORKS})::int`)},
          ${contactId(g, `(1 + (s.i - 1) % ${g.contacts})`)}, 'bench-v' || (1 + (s.i - 1) / ${g.contacts}),
          round((0.1 + 0.89 * power(s.u2, 1.6))::numeric, 4)::float8,
          jsonb_build_array(jsonb_build_object('question', 'affinity', 'kind', 'sale', 'evidence_id', null,
              'label', ${fromList("s.u3", MATCH_REASONS)}, 'source_label', null, 'at', '2025-11-20T00:00:00.000Z'))
            || case when s.u4 < 0.5 then jsonb_build_array(jsonb_build_object('question', 'engagement',
              'kind', 'engagement', 'evidence_id', null, 'label', ${fromList("s.u5", MATCH_REASONS)},
              'source_label', null, 'at', '2025-11-28T00:00:00.000Z')) else '[]'::jsonb end,
          1 + (s.u4 < 0.5)::int,
          case when s.u6 < 0.02 then 'dismissed' else 'active' end,
          case when s.u6 >= 0.02 and s.u6 < 0.03 then timestamptz '2030-01-01Z' end,
          timestamptz '2025-12-01Z', timestamptz '2025-12-01Z', timestamptz '2025-12-01Z'
        from (${uniforms(g, 6, 900)}) s`,
  },
  {
    name: "offers",
    tables: ["offers"],
    target: (g) => onlyA(g, 1),
    present: countWhere("offers"),
    insertSql: (
      g,
    ) => `insert into offers (id, gallery_id, title, message, status, currency, created_at, updated_at)
        select '${BENCH_OFFER_ID}', '${g.id}', 'Winter offer: ${OFFER_ITEMS} works', 'A selection for the season.',
          'draft', 'USD', timestamptz '2025-12-10Z', timestamptz '2025-12-10Z'
        from generate_series($1::bigint, $2::bigint)`,
  },
  {
    name: "offer items",
    tables: ["offer_items"],
    target: (g) => onlyA(g, OFFER_ITEMS),
    present: countWhere("offer_items"),
    // The most matched works (w = 1, 2, …).
    insertSql: (
      g,
    ) => `insert into offer_items (gallery_id, offer_id, artwork_id, position, currency, created_at)
        select '${g.id}', '${BENCH_OFFER_ID}', ${matchedArtwork(g, "s.i")}, (s.i - 1)::int, 'USD',
          timestamptz '2025-12-10Z'
        from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "offer recipients",
    tables: ["offer_recipients"],
    target: (g) => onlyA(g, OFFER_RECIPIENTS),
    present: countWhere("offer_recipients"),
    // The best-matched contacts of the offer's works: the recommendation has to step over them.
    insertSql: (g) => `insert into offer_recipients (gallery_id, offer_id, contact_id, status, added_at)
        select '${g.id}', '${BENCH_OFFER_ID}', t.contact_id, 'pending', timestamptz '2025-12-11Z'
        from (select rm.contact_id from recommendation_matches rm
            join offer_items oi on oi.artwork_id = rm.artwork_id and oi.offer_id = '${BENCH_OFFER_ID}'
            join contacts c on c.id = rm.contact_id and c.archived_at is null and not c.do_not_email
          where rm.gallery_id = '${g.id}' and rm.status = 'active' and rm.hidden_until is null
          group by rm.contact_id order by max(rm.probability) desc, rm.contact_id
          offset $1::bigint - 1 limit $2::bigint - $1::bigint + 1) t`,
  },
];

export const SEED_STEPS: readonly SeedStep[] = [
  {
    name: "artists",
    tables: ["artists"],
    target: () => ARTISTS_PER_GALLERY,
    present: countWhere("artists"),
    insertSql: (
      g,
    ) => `insert into artists (id, gallery_id, name, birth_year, nationality, created_at, updated_at)
      select ${artistId(g, "s.i")}, '${g.id}',
        ${fromList("s.u1", FIRST_NAMES)} || ' ' || ${fromList("s.u2", LAST_NAMES)} || ' ' || s.i,
        1900 + floor(s.u3 * 100)::int, ${fromList("s.u4", ["US", "GB", "FR", "DE", "JP", "NG", "BR", "SE"])},
        timestamptz '2014-06-01Z', timestamptz '2014-06-01Z'
      from (${uniforms(g, 4, 10)}) s`,
  },
  {
    name: "tags",
    tables: ["tags"],
    target: () => TAGS_PER_GALLERY,
    present: countWhere("tags", "scope = 'artwork'"),
    insertSql: (g) => `insert into tags (id, gallery_id, name, scope, created_at, updated_at)
      select ${tagId(g, "s.i")}, '${g.id}', 'Bench tag ' || s.i, 'artwork',
        timestamptz '2014-06-01Z', timestamptz '2014-06-01Z'
      from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "artworks",
    tables: ["artworks"],
    target: (g) => g.artworks,
    present: countWhere("artworks"),
    // u1: created jitter (salt 100, shared with artworkId) … see each column.
    insertSql: (g) => {
      const created = createdMs(g.artworks, "s.u1");
      const artistN = artworkArtistN("s.u2");
      const judged = "s.u15 < 0.7";
      const drafted = `s.i % ${DRAFT_EVERY} = 0`;
      const published = `(s.u14 < 0.4 or ${drafted})`;
      return `insert into artworks (id, gallery_id, title, artist_id, artist_name, inventory_number,
          ownership_status, availability_state, medium, year, date_precision, date_display, dimension_unit,
          height_cm, width_cm, depth_cm, price_cents, currency, coa_status, condition_status, market,
          show_price_publicly, published_at, published_version, save_state, readiness, disclosure_required,
          judged_at, image_count, thumbnail_url, created_at, updated_at)
        select ${idOf("art", g, created)}, '${g.id}',
          ${fromList("s.u3", TITLE_WORDS)} || ' ' || ${fromList("s.u4", TITLE_WORDS)} || ' no. ' || (s.i % 997),
          ${artistId(g, artistN)},
          ${fromList("s.u2", FIRST_NAMES)} || ' ' || ${fromList("s.u5", LAST_NAMES)} || ' ' || ${artistN},
          'INV-${g.key.toUpperCase()}-' || lpad(s.i::text, 7, '0'),
          ${pick("s.u6", { owned: 50, consigned: 35, co_owned: 10, artist_property: 5 })},
          ${pick("s.u7", { available: 45, sold: 25, on_hold: 8, reserved: 7, not_for_sale: 10, on_loan: 5 })},
          case when s.u8 < 0.03 then null else ${fromList("s.u8", MEDIA)} end,
          s.yr, 'year', s.yr::text, case when s.u10 < 0.6 then 'in' else 'cm' end,
          case when s.u11 < 0.05 then null else round((10 * exp(s.u11 * 3.7))::numeric, 1)::float8 end,
          case when s.u11 < 0.05 then null else round((10 * exp(s.u12 * 3.7))::numeric, 1)::float8 end,
          case when s.u12 < 0.7 then null else round((2 + s.u13 * 60)::numeric, 1)::float8 end,
          case when s.u13 < 0.15 then null
            else (round(exp(ln(50000) + s.u16 * (ln(500000000) - ln(50000))) / 10000) * 10000)::bigint end,
          case when s.u17 < 0.9 then 'USD' when s.u17 < 0.96 then 'EUR' else 'GBP' end,
          ${pick("s.u18", { not_required: 40, pending: 15, issued: 30, received: 15 })},
          ${pick("s.u19", { null: 20, excellent: 30, very_good: 25, good: 15, fair: 7, poor: 3 })},
          case when s.u20 < 0.7 then 'primary' else 'secondary' end,
          s.u21 < 0.3,
          case when ${published} then ${tsOf(`${created} + 86400000`)} end,
          case when ${published} then 1 end,
          case when ${drafted} then 'draft' when ${published} then 'published' else 'new' end,
          case when ${judged} then ${pick("s.u22", { ready: 50, thin: 30, empty: 20 })} end,
          case when ${judged} then s.u23 < 0.1 end,
          case when ${judged} then ${tsOf(`${created} + 3600000`)} end,
          s.imgs,
          case when s.imgs > 0 then 'https://images.bench.example/${g.key}/' || s.i || '/1.jpg' end,
          ${tsOf(created)},
          ${tsOf(`${created} + floor(s.u24 * 15552000000)::bigint`)}
        from (
          select s0.*,
            case when s0.u9 < 0.05 then null
                 when s0.u9 < 0.07 then -1 - floor(s0.u10 * 3000)::int
                 else 2025 - floor(power(s0.u10, 2) * 175)::int end as yr,
            case when s0.u24 < 0.2 then 0 else 1 + floor(s0.u12 * 8)::int end as imgs
          from (${uniforms(g, 24, 100)}) s0
        ) s`;
    },
  },
  {
    name: "artwork credits",
    tables: ["artwork_artists"],
    target: (g) => g.artworks,
    present: countWhere("artwork_artists"),
    insertSql: (g) => `insert into artwork_artists (gallery_id, artwork_id, artist_id, role, position)
      select '${g.id}', ${artworkId(g, "s.i")}, ${artistId(g, artworkArtistN(u(g.seed + 101)))}, 'primary', 0
      from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "artwork tags",
    tables: ["artwork_tags"],
    // 30% of works carry one tag, a third of those a second one.
    target: (g) => Math.floor(g.artworks * 0.3) + Math.floor(g.artworks * 0.1),
    present: countWhere("artwork_tags"),
    insertSql: (g) => {
      const n = Math.floor(g.artworks * 0.3);
      return `insert into artwork_tags (gallery_id, artwork_id, tag_id, created_at)
        select '${g.id}', ${artworkId(g, "w.n")},
          ${tagId(
            g,
            `case when s.i <= ${n} then 1 + floor(${u(g.seed + 300)} * ${TAGS_PER_GALLERY / 2})::int
                          else 1 + ${TAGS_PER_GALLERY / 2} + floor(${u(g.seed + 301)} * ${TAGS_PER_GALLERY / 2})::int end`,
          )},
          timestamptz '2026-01-01Z'
        from generate_series($1::bigint, $2::bigint) s(i),
          lateral (select 1 + ((case when s.i <= ${n} then s.i else s.i - ${n} end - 1) * 3) % ${g.artworks} as n) w`;
    },
  },
  {
    name: "domain events",
    tables: ["domain_events"],
    target: (g) => g.events,
    present: countWhere("domain_events"),
    insertSql: (g) => {
      const created = createdMs(g.events, "s.u1");
      const target = `(1 + floor(s.u3 * ${g.artworks})::bigint)`;
      return `insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data, actor_id,
          request_id, created_at)
        select ${idOf("evt", g, created)}, '${g.id}', s.type, false,
          split_part(s.type, '.', 1), case when s.type like 'artwork.%' then ${artworkId(g, target)} else 'key_bench' end,
          jsonb_build_object('object', jsonb_build_object('id', ${artworkId(g, target)}, 'title', 'Bench work ' || ${target},
            'price_cents', floor(s.u4 * 1000000)::bigint * 100)),
          'key_bench${g.key}', 'req_' || md5(s.i::text || '${g.key}'), ${tsOf(created)}
        from (select s0.*, ${pick("s0.u2", {
          "artwork.created": 40,
          "artwork.updated": 35,
          "artwork.price_changed": 12,
          "artwork.deleted": 3,
          "api_key.created": 3,
          "api_key.revoked": 2,
          "webhook_endpoint.created": 3,
          "webhook_endpoint.updated": 2,
        })} as type from (${uniforms(g, 4, 200)}) s0) s`;
    },
  },
  {
    name: "artwork drafts",
    tables: ["artwork_drafts"],
    target: (g) => Math.floor(g.artworks / DRAFT_EVERY),
    present: countWhere("artwork_drafts"),
    // Field edits, credited artists and dimensions in turn: the patch shapes the working copy overlays.
    insertSql: (
      g,
    ) => `insert into artwork_drafts (artwork_id, gallery_id, patch, edited_by, created_at, updated_at)
      select ${artworkId(g, `(s.i * ${DRAFT_EVERY})`)}, '${g.id}',
        case s.i % 4
          when 0 then jsonb_build_object('title', 'Revised title ' || s.i, 'description', 'Revised catalogue note.')
          when 1 then jsonb_build_object('price_cents', 100000 + (s.i % 1000) * 10000, 'availability_state', 'on_hold')
          when 2 then jsonb_build_object('artists', jsonb_build_array(
            jsonb_build_object('artist_id', ${artistId(g, `1 + s.i % ${ARTISTS_PER_GALLERY}`)}, 'role', 'primary'),
            jsonb_build_object('artist_id', ${artistId(g, `1 + (s.i + 7) % ${ARTISTS_PER_GALLERY}`)}, 'role', 'collaborator')))
          else jsonb_build_object('dimensions', jsonb_build_array(
            jsonb_build_object('component', 'overall', 'label', 'Overall', 'height_cm', 40 + s.i % 60,
              'width_cm', 30 + s.i % 50, 'depth_cm', null, 'note', null)))
        end,
        null, timestamptz '2026-01-01Z', timestamptz '2026-01-01Z'
      from generate_series($1::bigint, $2::bigint) s(i)`,
  },
  {
    name: "artwork activity",
    tables: ["artwork_activity_events"],
    // A "created" entry for every artwork, then TIMELINE_ENTRIES entries for artwork TIMELINE_ARTWORK.
    target: (g) => g.artworks + TIMELINE_ENTRIES,
    present: countWhere("artwork_activity_events"),
    insertSql: (g) => {
      const n = g.artworks;
      const t0 = createdMs(n, u(g.seed + 100, `${TIMELINE_ARTWORK}::bigint`), `${TIMELINE_ARTWORK}::bigint`);
      const step = `((${SPAN_START_MS + SPAN_MS}::bigint - ${t0}) / ${TIMELINE_ENTRIES + 1})`;
      // Row i ≤ n is artwork i's "created" entry, at the artwork's created_at.
      const ms = `case when s0.i <= ${n} then ${createdMs(n, u(g.seed + 100, "s0.i"), "s0.i")}
        else ${t0} + (s0.i - ${n}) * ${step} + floor(s0.u3 * ${step} / 2)::bigint end`;
      return `insert into artwork_activity_events (id, gallery_id, artwork_id, actor_id, event_type, summary,
          metadata, occurred_at, created_at)
        select md5('${g.key}:activity:' || s.i)::uuid, '${g.id}',
          case when s.i <= ${n} then ${artworkId(g, "s.i")} else ${artworkId(g, `${TIMELINE_ARTWORK}::bigint`)} end,
          'key_bench${g.key}', s.type,
          case s.type
            when 'created' then 'Added to the inventory'
            when 'moved' then 'Moved to storage bay ' || (1 + floor(s.u2 * 40))
            when 'price_changed' then 'Price changed to $' || (1000 + floor(s.u2 * 90000))
            when 'availability_changed' then 'Availability changed to on hold'
            when 'interest' then 'Collector ' || (1 + floor(s.u2 * 5000)) || ' requested a viewing'
            when 'consigned' then 'Consigned by collector ' || (1 + floor(s.u2 * 5000))
            else 'Ownership recorded as owned'
          end,
          case s.type
            when 'created' then '{}'::jsonb
            when 'moved' then jsonb_build_object('from', 'loc_bay' || floor(s.u3 * 40), 'to', 'loc_bay' || floor(s.u2 * 40))
            when 'price_changed' then jsonb_build_object(
              'from', jsonb_build_object('price_cents', floor(s.u3 * 9000000)::bigint, 'currency', 'USD'),
              'to', jsonb_build_object('price_cents', floor(s.u2 * 9000000)::bigint, 'currency', 'USD'))
            when 'availability_changed' then jsonb_build_object('from', 'available', 'to', 'on_hold')
            when 'interest' then jsonb_build_object('channel', 'viewing_room')
            when 'consigned' then jsonb_build_object('from', 'owned', 'to', 'consigned')
            else jsonb_build_object('from', 'consigned', 'to', 'owned')
          end,
          ${tsOf("s.ms")}, ${tsOf("s.ms")}
        from (select s0.*, case when s0.i <= ${n} then 'created' else ${pick("s0.u1", {
          moved: 25,
          price_changed: 20,
          availability_changed: 15,
          interest: 30,
          consigned: 5,
          ownership_changed: 5,
        })} end as type, ${ms} as ms
          from (${uniforms(g, 3, 400)}) s0) s`;
    },
  },
  ...CRM_STEPS,
  ...INBOX_STEPS,
  ...INVOICE_STEPS,
  ...ROOM_STEPS,
  ...OFFER_STEPS,
];

/** The id of the contact with the long history (HISTORY_INTERACTIONS interactions and more) in gallery `g`. */
export async function historyContactId(client: pg.Pool | pg.ClientBase, g: BenchGallery): Promise<string> {
  const r = await client.query<{ id: string }>(`select ${contactId(g, `${HISTORY_CONTACT}::bigint`)} as id`);
  return r.rows[0]!.id;
}

/** The id of one of the bench's contact lists in gallery `g`. */
export function benchListId(g: BenchGallery, list: keyof typeof BENCH_LISTS): string {
  return `list_bench${g.key}${String(BENCH_LISTS[list]).padStart(8, "0")}`;
}

/** Gallery `g`'s inbox member (the owner of INBOX_THREADS threads) and how it signs in. */
export function benchInboxMember(g: BenchGallery): { id: string; email: string; password: string } {
  return {
    id: `mem_bench${g.key}${String(INBOX_MEMBER).padStart(8, "0")}`,
    email: `member${INBOX_MEMBER}@bench-${g.key}.example`,
    password: BENCH_MEMBER_PASSWORD,
  };
}

/**
 * Gives each gallery's inbox member its password (lib/password's format, 100,000 iterations), with a salt
 * derived from the gallery so the hash is the same on every seed and an existing one is left as it is.
 */
async function setInboxMemberPasswords(client: pg.ClientBase): Promise<void> {
  for (const g of BENCH_GALLERIES) {
    const member = benchInboxMember(g);
    const salt = createHash("sha256").update(`bench-member-salt:${g.id}`).digest().subarray(0, 16);
    const hash = pbkdf2Sync(member.password, salt, 100_000, 32, "sha256");
    await client.query(
      "update members set password_hash = $2 where id = $1 and password_hash is distinct from $2",
      [member.id, `pbkdf2$sha256$100000$${salt.toString("base64url")}$${hash.toString("base64url")}`],
    );
  }
}

/** The id of the artwork with the long activity timeline (TIMELINE_ENTRIES entries) in gallery `g`. */
export async function timelineArtworkId(client: pg.Pool | pg.ClientBase, g: BenchGallery): Promise<string> {
  const r = await client.query<{ id: string }>(`select ${artworkId(g, `${TIMELINE_ARTWORK}::bigint`)} as id`);
  return r.rows[0]!.id;
}

// ---------------------------------------------------------------------------------------------------------

const fmt = (n: number) => n.toLocaleString("en-US");
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export interface SeedReport {
  seeded: boolean;
  seconds: number;
  rows: Record<string, number>;
}

/**
 * The stored artwork documents (migration 0023) of the works that have none: the load writes with the triggers
 * off, so they are built here, after it (and its ANALYZE: the builder's plan needs the tables' statistics), in
 * chunks that commit as they go. Also fills in a bench database seeded before the documents existed.
 */
async function buildArtworkDocuments(client: pg.ClientBase, log: (msg: string) => void): Promise<void> {
  const CHUNK_WORKS = 50_000;
  const t0 = performance.now();
  let built = 0;
  for (;;) {
    const r = await client.query(
      `insert into artwork_documents (artwork_id, body, refreshed_xact, refreshed_at)
       select a.id, artwork_document(a.id), txid_current(), statement_timestamp() from artworks a
       where not exists (select 1 from artwork_documents d where d.artwork_id = a.id)
       limit $1`,
      [CHUNK_WORKS],
    );
    built += r.rowCount ?? 0;
    if ((r.rowCount ?? 0) < CHUNK_WORKS) break;
    log(`  artwork documents: ${fmt(built)} built  ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (built > 0) {
    await client.query("analyze artwork_documents");
    log(`  artwork documents: ${fmt(built)} built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}

/** Seeds what is missing (one transaction), then ANALYZE. Existing, complete data is reused untouched. */
export async function seedBench(url: string, log: (msg: string) => void = console.log): Promise<SeedReport> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows: Record<string, number> = {};
  try {
    await client.query("set client_min_messages = warning");
    for (const g of BENCH_GALLERIES) {
      if (gcd(STRIDE, g.contacts) !== 1) {
        throw new Error(`bench seed: the contact count ${g.contacts} must not be a multiple of ${STRIDE}`);
      }
    }
    const todo: { step: SeedStep; g: BenchGallery; from: number }[] = [];
    for (const g of BENCH_GALLERIES) {
      for (const step of SEED_STEPS) {
        const have = await step.present(client, g);
        const want = step.target(g);
        rows[`${step.name} (${g.key.toUpperCase()})`] = Math.max(have, want);
        if (have === want) continue;
        if (have > want) {
          throw new Error(
            `bench seed: gallery ${g.slug} has ${fmt(have)} ${step.name}, more than the ${fmt(want)} asked for. Delete ${BENCH_DATA_DIR} (or the database) to reseed at another size.`,
          );
        }
        if (have > 0) {
          throw new Error(
            `bench seed: gallery ${g.slug} has ${fmt(have)} of ${fmt(want)} ${step.name} (an interrupted seed?). Delete ${BENCH_DATA_DIR} to reseed.`,
          );
        }
        todo.push({ step, g, from: have + 1 });
      }
    }
    if (todo.length === 0) {
      await setInboxMemberPasswords(client);
      await buildArtworkDocuments(client, log);
      log("bench data already present; reusing it");
      return { seeded: false, seconds: (performance.now() - started) / 1000, rows };
    }

    await client.query("begin");
    // Bulk load: no triggers (the outbox fan-out; there are no webhook endpoints here) and no FK checks — the
    // rows are consistent by construction. Superuser only, and only for this session.
    await client.query("set local session_replication_role = replica");
    await client.query("set local maintenance_work_mem = '1GB'");
    await client.query("set local synchronous_commit = off");
    for (const g of BENCH_GALLERIES) {
      await client.query(
        `insert into galleries (id, name, slug, livemode, default_currency, created_at, updated_at)
         values ($1, $2, $3, false, 'USD', timestamptz '2014-06-01Z', timestamptz '2014-06-01Z')
         on conflict (id) do nothing`,
        [g.id, g.name, g.slug],
      );
    }

    // Secondary indexes of the tables to load are dropped and rebuilt afterwards: far faster than maintaining
    // them row by row (the trigram GIN especially). Constraint indexes (primary keys, uniques) stay.
    const tables = [...new Set(todo.flatMap((t) => t.step.tables))];
    const indexes = await client.query<{ name: string; def: string; table: string }>(
      `select indexname as name, indexdef as def, tablename as "table" from pg_indexes
       where schemaname = 'public' and tablename = any($1::text[])
         and indexname not in (select conname from pg_constraint)`,
      [tables],
    );
    for (const idx of indexes.rows) await client.query(`drop index "${idx.name}"`);

    for (const { step, g, from } of todo) {
      const want = step.target(g);
      const sqlText = step.insertSql(g);
      const t0 = performance.now();
      for (let lo = from; lo <= want; lo += CHUNK) {
        const hi = Math.min(want, lo + CHUNK - 1);
        await client.query(sqlText, [lo, hi]);
        log(
          `  ${step.name} (${g.key.toUpperCase()}): ${fmt(hi)}/${fmt(want)}  ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
      }
    }
    // Once per gallery and SQL, after every load: the CRM's aggregates, recomputed from the rows. The indexes
    // of the tables such SQL writes wait until it has run.
    const afterLoad = new Map<string, { writes: readonly string[]; galleries: Set<BenchGallery> }>();
    for (const { step, g } of todo) {
      if (!step.afterLoad) continue;
      const entry = afterLoad.get(step.afterLoad.sql) ?? {
        writes: step.afterLoad.writes,
        galleries: new Set(),
      };
      entry.galleries.add(g);
      afterLoad.set(step.afterLoad.sql, entry);
    }
    const later = new Set([...afterLoad.values()].flatMap((a) => a.writes));
    const rebuild = async (idx: { name: string; def: string }) => {
      const t0 = performance.now();
      await client.query(idx.def);
      log(`  index ${idx.name} rebuilt in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    };
    for (const idx of indexes.rows) if (!later.has(idx.table)) await rebuild(idx);
    if (afterLoad.size) await client.query(`analyze ${tables.join(", ")}`);
    for (const [sqlText, { galleries }] of afterLoad) {
      for (const g of galleries) {
        const t0 = performance.now();
        await client.query(sqlText, [g.id]);
        log(`  ${sqlText} (${g.key.toUpperCase()}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
    }
    for (const idx of indexes.rows) if (later.has(idx.table)) await rebuild(idx);
    await setInboxMemberPasswords(client);
    await client.query("commit");
    const t0 = performance.now();
    await client.query(
      `vacuum (analyze) ${[...new Set(SEED_STEPS.flatMap((step) => step.tables))].join(", ")}`,
    );
    log(`  vacuum analyze in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await buildArtworkDocuments(client, log);
    return { seeded: true, seconds: (performance.now() - started) / 1000, rows };
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/** The bench database: BENCH_DATABASE_URL, else the embedded cluster in .data/bench-postgres (never DATABASE_URL). */
export async function startBenchDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  const own = process.env.BENCH_DATABASE_URL;
  if (own) return { url: own, stop: async () => {} };
  const saved = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  try {
    return await startDatabase({ dataDir: BENCH_DATA_DIR, database: BENCH_DATABASE });
  } finally {
    if (saved !== undefined) process.env.DATABASE_URL = saved;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const db = await startBenchDatabase();
  try {
    await migrateDatabase(db.url);
    const report = await seedBench(db.url, (m) => console.log(`[bench] ${m}`));
    console.log(`[bench] ${report.seeded ? "seeded" : "reused"} in ${report.seconds.toFixed(1)} s`);
  } finally {
    await db.stop();
  }
}
