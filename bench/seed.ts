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
 * Run directly: `tsx bench/seed.ts` (its own embedded PostgreSQL in .data/bench-postgres), or with
 * `BENCH_DATABASE_URL=postgres://…` for a server of your own (a throwaway database: it gets 3M+ rows).
 */
import { pathToFileURL } from "node:url";
import pg from "pg";
import { migrateDatabase } from "../scripts/migrate";
import { startDatabase } from "../scripts/postgres";

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
  },
  {
    key: "b",
    id: "gal_benchb0000000000000000",
    slug: "bench-b",
    name: "Bench Gallery B",
    seed: 2_000,
    artworks: envInt("BENCH_ARTWORKS_B", envInt("BENCH_ARTWORKS", 1_000_000)),
    events: envInt("BENCH_EVENTS_B", envInt("BENCH_EVENTS", 500_000)),
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
}

const countWhere = (table: string) => async (client: pg.ClientBase, g: BenchGallery) => {
  const r = await client.query<{ n: string }>(`select count(*) as n from ${table} where gallery_id = $1`, [
    g.id,
  ]);
  return Number(r.rows[0]!.n);
};

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
    present: countWhere("tags"),
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
];

/** The id of the artwork with the long activity timeline (TIMELINE_ENTRIES entries) in gallery `g`. */
export async function timelineArtworkId(client: pg.Pool | pg.ClientBase, g: BenchGallery): Promise<string> {
  const r = await client.query<{ id: string }>(`select ${artworkId(g, `${TIMELINE_ARTWORK}::bigint`)} as id`);
  return r.rows[0]!.id;
}

// ---------------------------------------------------------------------------------------------------------

const fmt = (n: number) => n.toLocaleString("en-US");

export interface SeedReport {
  seeded: boolean;
  seconds: number;
  rows: Record<string, number>;
}

/** Seeds what is missing (one transaction), then ANALYZE. Existing, complete data is reused untouched. */
export async function seedBench(url: string, log: (msg: string) => void = console.log): Promise<SeedReport> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows: Record<string, number> = {};
  try {
    await client.query("set client_min_messages = warning");
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
    const indexes = await client.query<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes
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
    for (const idx of indexes.rows) {
      const t0 = performance.now();
      await client.query(idx.def);
      log(`  index ${idx.name} rebuilt in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    await client.query("commit");
    const t0 = performance.now();
    await client.query(
      `vacuum (analyze) ${[...new Set(SEED_STEPS.flatMap((step) => step.tables))].join(", ")}`,
    );
    log(`  vacuum analyze in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
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
