/**
 * `npm run bench:retention`: the retention purge (services/events/retention.ts) over a backlog, against the
 * embedded PostgreSQL through the local Neon endpoint (the production driver), called as the cron Worker calls it.
 *
 * - Seeds, in bulk SQL (generate_series): BENCH_RETENTION_EVENTS expired domain events (default 200,000, recorded
 *   31 to 61 days ago) and BENCH_RETENTION_RECENT events inside the window (default 50,000), one webhook delivery
 *   each and 1 to 3 attempts a delivery (2 on average); every 1,000th expired event still has a pending delivery.
 * - The plans (EXPLAIN ANALYZE, rolled back) of one batch's three statements, and the delete done explicitly
 *   (the purge's way) against the same delete left to the foreign keys' ON DELETE CASCADE, at batch sizes 1,000,
 *   2,000 and 5,000;
 * - one cron tick with the defaults (20 s, 10 batches), then the rest of the backlog a batch a call: rows removed
 *   per second and what one batch costs;
 * - the steady state: a minute of a platform recording 5,000 events a minute, turning 30 days old, purged by one
 *   tick; and a tick with nothing due.
 *
 * The purge is platform-wide, so the benchmark always runs on a cluster of its own (.data/bench-retention-postgres,
 * BENCH_RETENTION_DATA_DIR), never on DATABASE_URL. Results: bench/results/retention.md and retention.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { EVENT_PURGE_BATCH, PURGEABLE, purgeStatements } from "../db/queries/retention";
import { migrateDatabase } from "../scripts/migrate";
import { startNeonLocal } from "../scripts/neon-local";
import { startDatabase } from "../scripts/postgres";
import { DEFAULT_BUDGET_MS, DEFAULT_MAX_BATCHES, purgeExpired } from "../services/events/retention";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DATA_DIR = process.env.BENCH_RETENTION_DATA_DIR ?? ".data/bench-retention-postgres";
const EXPIRED = Number(process.env.BENCH_RETENTION_EVENTS ?? 200_000);
const RECENT = Number(process.env.BENCH_RETENTION_RECENT ?? 50_000);
/** Every this many expired events, one still has a pending delivery (a retry, a late replay). */
const PENDING_EVERY = 1000;
/** A platform recording 5,000 events a minute. */
const PER_MINUTE = 5000;
const KEYS = Number(process.env.BENCH_RETENTION_KEYS ?? 100_000);
const TOKENS = Number(process.env.BENCH_RETENTION_TOKENS ?? 20_000);
/** The purged tables: no statement of the purge may read one whole (the run fails if one does). */
const BIG_TABLES = [
  "domain_events",
  "webhook_deliveries",
  "webhook_delivery_attempts",
  "idempotency_keys",
  "upload_tokens",
];
const RUN = Date.now().toString(36);
const say = (m: string) => console.log(`[bench:retention] ${m}`);
const dialect = new PgDialect();

type Env = { DATABASE_URL: string; NEON_LOCAL_ENDPOINT: string };

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}
interface Explained {
  Plan: PlanNode;
  "Planning Time": number;
  "Execution Time": number;
  Triggers?: { "Trigger Name": string; Relation: string; Time: number; Calls: number }[];
}

/** Scans of tables in a plan, as "Index Scan domain_events (domain_events_created_idx)". */
function scansOf(node: PlanNode, out: string[] = []): string[] {
  if (node["Relation Name"]) {
    const index = node["Index Name"] ? ` (${node["Index Name"]})` : "";
    const scan = `${node["Node Type"]} ${node["Relation Name"]}${index}`;
    if (!out.includes(scan)) out.push(scan);
  }
  for (const child of node.Plans ?? []) scansOf(child, out);
  return out;
}

async function explain(client: pg.Client, statement: { sql: string; params: unknown[] }): Promise<Explained> {
  const result = await client.query<{ "QUERY PLAN": Explained[] }>(
    `explain (analyze, format json) ${statement.sql}`,
    statement.params,
  );
  return result.rows[0]!["QUERY PLAN"][0]!;
}

/**
 * `count` events, the newest recorded `newestAgeDays` ago and the rest spread over `spanDays` before that, each
 * with one delivery to `endpointId` and 1 to 3 attempts.
 */
async function seedEvents(
  client: pg.Client,
  galleryId: string,
  endpointId: string,
  opts: { prefix: string; count: number; newestAgeDays: number; spanDays: number; pendingEvery?: number },
): Promise<void> {
  const { prefix, count } = opts;
  // A payload the size of a work's event (about 1 KiB of JSON); `artist.created` marks no engine subject.
  await client.query(
    `insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data, created_at)
      select 'evt_${prefix}' || lpad(i::text, 9, '0'), $1, 'artist.created', false, 'artist', 'artist_${prefix}' || i,
        jsonb_build_object('object', jsonb_build_object('id', 'artist_${prefix}' || i, 'object', 'artist',
          'name', 'Artist ' || i, 'bio', repeat('A painter of light and water. ', 30), 'links', '[]'::jsonb)),
        now() - make_interval(days => $2) - ($3::float8 * (i::float8 / $4)) * interval '1 day'
      from generate_series(1, $4::int) i`,
    [galleryId, opts.newestAgeDays, opts.spanDays, count],
  );
  const pendingEvery = opts.pendingEvery ?? 0;
  await client.query(
    `insert into webhook_deliveries (id, gallery_id, endpoint_id, event_id, status, attempt_count, next_attempt_at,
        last_status_code, last_latency_ms, created_at, updated_at)
      select 'wd_${prefix}' || lpad(i::text, 9, '0'), $1, $2, 'evt_${prefix}' || lpad(i::text, 9, '0'),
        case when $3 > 0 and i % $3 = 0 then 'pending' when i % 10 = 0 then 'failed' else 'succeeded' end,
        1 + i % 3, case when $3 > 0 and i % $3 = 0 then now() + interval '5 hours' end, 200, 40, now(), now()
      from generate_series(1, $4::int) i`,
    [galleryId, endpointId, pendingEvery, count],
  );
  await client.query(
    `insert into webhook_delivery_attempts (id, gallery_id, delivery_id, status_code, latency_ms, response_body,
        attempted_at)
      select 'wda_${prefix}' || lpad(i::text, 9, '0') || '_' || n, $1, 'wd_${prefix}' || lpad(i::text, 9, '0'),
        case when n = 1 + i % 3 then 200 else 503 end, 40, '{"received":true}', now()
      from generate_series(1, $2::int) i, generate_series(1, 1 + i % 3) n`,
    [galleryId, count],
  );
}

async function tableCounts(client: pg.Client, galleryId: string) {
  const result = await client.query<{ events: number; deliveries: number; attempts: number }>(
    `select (select count(*) from domain_events where gallery_id = $1)::int as events,
      (select count(*) from webhook_deliveries where gallery_id = $1)::int as deliveries,
      (select count(*) from webhook_delivery_attempts where gallery_id = $1)::int as attempts`,
    [galleryId],
  );
  return result.rows[0]!;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? 0
    : s.length % 2
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
};

/** The ways of deleting one batch that were measured against each other (docs/decisions.md, "Retention"). */
const DELETES = {
  /** The purge's: the events only, deliveries and attempts by the foreign keys' ON DELETE CASCADE, counted first. */
  cascade: null,
  /** Attempts, deliveries and events each deleted by its own statement, ids as `= any(array)`. */
  explicit: `with doomed as materialized (
      select d.id from webhook_deliveries d where d.event_id = any((select current_setting('${PURGEABLE}')::text[])::text[])
    ), attempts as (
      delete from webhook_delivery_attempts a where a.delivery_id = any(array(select id from doomed)) returning 1
    ), deliveries as (
      delete from webhook_deliveries d where d.id = any(array(select id from doomed)) returning 1
    ), events as (
      delete from domain_events e where e.id = any((select current_setting('${PURGEABLE}')::text[])::text[]) returning 1
    )
    select (select count(*) from events), (select count(*) from deliveries), (select count(*) from attempts)`,
  /** The same, each delete joined to the unnested ids (USING): the planner's row estimate is blind to the array. */
  "explicit, joined": `with purgeable as materialized (
      select unnest(current_setting('${PURGEABLE}')::text[]) as id
    ), doomed as materialized (
      select d.id from webhook_deliveries d join purgeable p on p.id = d.event_id
    ), attempts as (
      delete from webhook_delivery_attempts a using doomed where a.delivery_id = doomed.id returning 1
    ), deliveries as (
      delete from webhook_deliveries d using doomed where d.id = doomed.id returning 1
    ), events as (
      delete from domain_events e using purgeable p where e.id = p.id returning 1
    )
    select (select count(*) from events), (select count(*) from deliveries), (select count(*) from attempts)`,
} as const;
type DeleteWay = keyof typeof DELETES;
const DELETE_WAYS = Object.keys(DELETES) as DeleteWay[];
const COMPARED_BATCHES = [1000, 2000, 5000];
/** Runs of each way at each size; the median is reported. */
const ROUNDS = 5;

/**
 * One batch's delete, each way, after the batch's lock and settle statements: each in a transaction rolled back,
 * so every way meets the same rows. Five runs each, alternating; the median.
 */
async function compareDeletes(client: pg.Client) {
  const out: {
    batch: number;
    way: DeleteWay;
    ms: number;
    triggerMs: number;
    triggers: string[];
    scans: string[];
  }[] = [];
  for (const batch of COMPARED_BATCHES) {
    const runs = Object.fromEntries(DELETE_WAYS.map((w) => [w, [] as Explained[]])) as Record<
      DeleteWay,
      Explained[]
    >;
    for (let round = 0; round < ROUNDS; round++) {
      for (const way of DELETE_WAYS) {
        const s = purgeStatements({ eventBatch: batch });
        await client.query("begin");
        try {
          const lock = dialect.sqlToQuery(s.lock);
          await client.query(lock.sql, lock.params);
          const settle = dialect.sqlToQuery(s.settle);
          await client.query(settle.sql, settle.params);
          const text = DELETES[way];
          runs[way].push(
            await explain(client, text === null ? dialect.sqlToQuery(s.delete) : { sql: text, params: [] }),
          );
        } finally {
          await client.query("rollback");
        }
      }
    }
    for (const way of DELETE_WAYS) {
      const total = (p: Explained) => p["Execution Time"] + p["Planning Time"];
      const mid = runs[way].slice().sort((a, b) => total(a) - total(b))[Math.floor(ROUNDS / 2)]!;
      out.push({
        batch,
        way,
        ms: total(mid),
        triggerMs: (mid.Triggers ?? []).reduce((n, t) => n + t.Time, 0),
        triggers: (mid.Triggers ?? []).map(
          (t) => `${t["Trigger Name"]} on ${t.Relation}: ${t.Calls} calls, ${t.Time.toFixed(1)} ms`,
        ),
        scans: scansOf(mid.Plan),
      });
    }
  }
  return out;
}

/** The plans of one batch at the purge's own size: its five statements in one transaction, rolled back. */
async function batchPlans(client: pg.Client) {
  const s = purgeStatements({});
  const plans: { statement: string; ms: number; scans: string[] }[] = [];
  await client.query("begin");
  try {
    for (const [name, statement] of [
      ["lock", s.lock],
      ["settle", s.settle],
      ["delete", s.delete],
      ["idempotency keys", s.idempotencyKeys],
      ["upload tokens", s.uploadTokens],
    ] as const) {
      const p = await explain(client, dialect.sqlToQuery(statement));
      plans.push({ statement: name, ms: p["Planning Time"] + p["Execution Time"], scans: scansOf(p.Plan) });
    }
  } finally {
    await client.query("rollback");
  }
  return plans;
}

async function main(): Promise<void> {
  process.chdir(ROOT);
  delete process.env.DATABASE_URL;
  const db = await startDatabase({ dataDir: DATA_DIR, database: "bench_retention" });
  const neon = await startNeonLocal({ port: 0, log: (m) => console.error(`[neon-local] ${m}`) });
  const client = new pg.Client({ connectionString: db.url });
  const galleryId = `gal_bench_retention_${RUN}`;
  const endpointId = `we_bench_retention_${RUN}`;
  try {
    await migrateDatabase(db.url);
    await client.connect();
    const env: Env = { DATABASE_URL: db.url, NEON_LOCAL_ENDPOINT: neon.url };
    // Earlier runs' galleries, if one was interrupted: the purge is platform-wide.
    await client.query("delete from galleries where id like 'gal_bench_retention_%'");
    await client.query("insert into galleries (id, name, slug) values ($1, 'Retention bench', $1)", [
      galleryId,
    ]);
    // The endpoint exists before the events are written by hand below, with its deliveries; it subscribes to
    // nothing the bulk insert records, so the fan-out trigger adds none.
    await client.query(
      `insert into webhook_endpoints (id, gallery_id, url, event_types, secret)
        values ($1, $2, 'https://hooks.example.com/bench', '{invoice.paid}', 'whsec_bench')`,
      [endpointId, galleryId],
    );

    say(
      `seeding ${EXPIRED} expired events and ${RECENT} recent ones, a delivery each, 2 attempts a delivery`,
    );
    const seedStarted = Date.now();
    await seedEvents(client, galleryId, endpointId, {
      prefix: `${RUN}_x`,
      count: EXPIRED,
      newestAgeDays: 31,
      spanDays: 30,
      pendingEvery: PENDING_EVERY,
    });
    await seedEvents(client, galleryId, endpointId, {
      prefix: `${RUN}_r`,
      count: RECENT,
      newestAgeDays: 0,
      spanDays: 29,
    });
    // Idempotency keys (half past their 14 days: a backlog) and upload tokens (1 in 16 expired: tokens live 15
    // minutes and the purge runs every minute), so that their statements meet tables of some size too.
    await client.query(
      `insert into idempotency_keys (gallery_id, key, request_hash, method, path, response_status, response_body, created_at)
        select $1, 'key-${RUN}-' || i, 'h', 'POST', '/v1/gallery/artworks', 201, '{"id":"art_x"}',
          now() - (i % 28) * interval '1 day' - interval '1 hour'
        from generate_series(1, $2::int) i`,
      [galleryId, KEYS],
    );
    await client.query(
      "insert into members (id, gallery_id, email, name, role, password_hash) values ($1, $2, $3, 'Bench', 'editor', 'x')",
      [`mem_bench_${RUN}`, galleryId, `bench-${RUN}@example.com`],
    );
    await client.query(
      `insert into upload_tokens (id, gallery_id, token_hash, storage_path, purpose, member_id, expires_at)
        select 'upl_${RUN}_' || i, $1, 'hash-${RUN}-' || i, 'p/' || i, 'publication_cover', $3,
          now() + (case when i % 16 = 0 then -1 else 1 end) * interval '10 minutes'
        from generate_series(1, $2::int) i`,
      [galleryId, TOKENS, `mem_bench_${RUN}`],
    );
    await client.query(
      "vacuum analyze domain_events, webhook_deliveries, webhook_delivery_attempts, idempotency_keys, upload_tokens",
    );
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const before = await tableCounts(client, galleryId);
    const pendingKept = Math.floor(EXPIRED / PENDING_EVERY);
    say(`seeded in ${seedSeconds.toFixed(0)} s: ${JSON.stringify(before)}`);

    say("plans of one batch, and explicit deletes against the cascade");
    const plans = await batchPlans(client);
    const deletes = await compareDeletes(client);
    for (const d of deletes)
      say(`  ${d.way} ${d.batch}: ${d.ms.toFixed(1)} ms (triggers ${d.triggerMs.toFixed(1)} ms)`);

    const sequential = plans.flatMap((p) =>
      p.scans
        .filter((x) => x.startsWith("Seq Scan") && BIG_TABLES.includes(x.split(" ")[2]!))
        .map((x) => `${p.statement}: ${x}`),
    );
    if (sequential.length > 0)
      throw new Error(`a purge statement reads a whole table: ${sequential.join("; ")}`);

    say("one cron tick with the defaults");
    const tick = await purgeExpired(env);
    say(`  ${JSON.stringify(tick)}`);
    const batchMs: number[] = [];
    const totals = { events: tick.events, deliveries: tick.deliveries, attempts: tick.attempts };
    let more = tick.more;
    const drainStarted = Date.now();
    while (more) {
      const r = await purgeExpired(env, { maxBatches: 1 });
      batchMs.push(r.elapsedMs);
      totals.events += r.events;
      totals.deliveries += r.deliveries;
      totals.attempts += r.attempts;
      more = r.more;
    }
    const drainSeconds = (Date.now() - drainStarted) / 1000 + tick.elapsedMs / 1000;
    const after = await tableCounts(client, galleryId);
    const rows = totals.events + totals.deliveries + totals.attempts;
    say(
      `backlog purged: ${JSON.stringify(totals)} in ${drainSeconds.toFixed(1)} s; left ${JSON.stringify(after)}`,
    );
    const expected = {
      events: RECENT + pendingKept,
      deliveries: RECENT + pendingKept,
      attempts: before.attempts - totals.attempts,
    };
    const correct =
      after.events === expected.events &&
      after.deliveries === expected.deliveries &&
      totals.events === EXPIRED - pendingKept &&
      totals.deliveries === totals.events;
    if (!correct) throw new Error(`unexpected counts after the purge: ${JSON.stringify({ totals, after })}`);

    say(`steady state: a minute's ${PER_MINUTE} events turning 30 days old, one tick`);
    await seedEvents(client, galleryId, endpointId, {
      prefix: `${RUN}_m`,
      count: PER_MINUTE,
      newestAgeDays: 30,
      spanDays: 1 / 1440,
    });
    await client.query("analyze domain_events, webhook_deliveries, webhook_delivery_attempts");
    const minute = await purgeExpired(env);
    say(`  ${JSON.stringify(minute)}`);
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) idle.push((await purgeExpired(env)).elapsedMs);
    say(`  nothing due: median ${median(idle)} ms`);

    const report = {
      at: new Date().toISOString(),
      expired: EXPIRED,
      recent: RECENT,
      pendingKept,
      eventBatch: EVENT_PURGE_BATCH,
      seedSeconds,
      before,
      plans,
      deletes,
      tick,
      drain: {
        seconds: drainSeconds,
        ...totals,
        rowsPerSecond: rows / drainSeconds,
        eventsPerSecond: totals.events / drainSeconds,
        batchMs: {
          median: median(batchMs),
          p95: quantile(batchMs, 0.95),
          max: Math.max(...batchMs),
          n: batchMs.length,
        },
      },
      after,
      minute,
      idleMs: { median: median(idle), max: Math.max(...idle) },
    };
    mkdirSync("bench/results", { recursive: true });
    writeFileSync("bench/results/retention.json", `${JSON.stringify(report, null, 2)}\n`);
    const r = report.drain;
    const lines = [
      "# Retention purge",
      "",
      `Run ${report.at} (\`npm run bench:retention\`, BENCH_RETENTION_EVENTS=${EXPIRED}, BENCH_RETENTION_RECENT=${RECENT}): services/events/retention.ts purgeExpired in Node against embedded PostgreSQL through the local Neon endpoint (the production driver, one HTTP round trip a batch), on the machine's 2 cores shared with PostgreSQL.`,
      "",
      `Seeded in bulk SQL in ${seedSeconds.toFixed(0)} s: ${before.events} events (${EXPIRED} recorded 31 to 61 days ago, ${RECENT} within the last 29 days), ${before.deliveries} deliveries (one an event), ${before.attempts} attempts (1 to 3 a delivery); ${pendingKept} expired events still have a pending delivery. ${KEYS} idempotency keys (half past 14 days), ${TOKENS} upload tokens (1 in 16 expired).`,
      "",
      `## One batch (${EVENT_PURGE_BATCH} events), EXPLAIN ANALYZE, rolled back`,
      "",
      "| statement | planning + execution | scans |",
      "| --- | ---: | --- |",
      ...plans.map((p) => `| ${p.statement} | ${p.ms.toFixed(1)} ms | ${p.scans.join("; ")} |`),
      "",
      `Sequential scan of ${BIG_TABLES.join(", ")}: none (the run fails otherwise).`,
      "",
      "## The delete: by cascade or explicit (median of 5 runs, planning + execution, foreign-key triggers included)",
      "",
      `| events a batch | ${DELETE_WAYS.join(" | ")} |`,
      `| ---: | ${DELETE_WAYS.map(() => "---:").join(" | ")} |`,
      ...COMPARED_BATCHES.map((b) => {
        const cells = DELETE_WAYS.map((w) => {
          const d = deletes.find((x) => x.batch === b && x.way === w)!;
          const seq = d.scans.filter((x) => x.startsWith("Seq Scan"));
          return `${d.ms.toFixed(1)} ms (triggers ${d.triggerMs.toFixed(1)} ms)${seq.length ? `, ${seq.join(", ")}` : ""}`;
        });
        return `| ${b} | ${cells.join(" | ")} |`;
      }),
      "",
      ...DELETE_WAYS.map(
        (w) =>
          `- ${w} at ${EVENT_PURGE_BATCH}: ${deletes.find((d) => d.batch === EVENT_PURGE_BATCH && d.way === w)!.scans.join("; ")}; ${deletes.find((d) => d.batch === EVENT_PURGE_BATCH && d.way === w)!.triggers.join("; ")}.`,
      ),
      "",
      "## The backlog",
      "",
      "| measure | value |",
      "| --- | ---: |",
      `| first tick, defaults (${DEFAULT_BUDGET_MS / 1000} s, ${DEFAULT_MAX_BATCHES} batches) | ${tick.events} events, ${tick.deliveries} deliveries, ${tick.attempts} attempts, ${tick.idempotencyKeys} idempotency keys, ${tick.uploadTokens} upload tokens in ${tick.batches} batches, ${(tick.elapsedMs / 1000).toFixed(2)} s |`,
      `| whole backlog | ${r.events} events, ${r.deliveries} deliveries, ${r.attempts} attempts in ${r.seconds.toFixed(1)} s |`,
      `| rows removed / s (events + deliveries + attempts) | ${r.rowsPerSecond.toFixed(0)} |`,
      `| events removed / s | ${r.eventsPerSecond.toFixed(0)} |`,
      `| one batch (a call, round trip included): median / p95 / max | ${r.batchMs.median} / ${r.batchMs.p95} / ${r.batchMs.max} ms (${r.batchMs.n} batches) |`,
      `| left | ${after.events} events, ${after.deliveries} deliveries, ${after.attempts} attempts (the ${RECENT} recent, the ${pendingKept} pending) |`,
      "",
      "## Steady state",
      "",
      `A minute of ${PER_MINUTE} events (each with a delivery and 2 attempts on average) turning 30 days old: one tick purged ${minute.events} events, ${minute.deliveries} deliveries and ${minute.attempts} attempts in ${minute.batches} batches, ${minute.elapsedMs} ms. A tick with nothing due: median ${report.idleMs.median} ms, max ${report.idleMs.max} ms (one short batch).`,
      "",
    ];
    writeFileSync("bench/results/retention.md", lines.join("\n"));
    say("bench/results/retention.md written");
  } finally {
    await client.query("delete from galleries where id = $1", [galleryId]).catch(() => {});
    await client.end().catch(() => {});
    await neon.close();
    await db.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
