/**
 * `npm run bench:postgres`: PostgreSQL's own time per request (planning + execution), from pg_stat_statements.
 *
 * 1. An embedded PostgreSQL of its own (.data/postgres-cpu, or PG_CPU_DATA_DIR) with pg_stat_statements loaded
 *    (`track_planning = on`, top-level statements) and `track_functions = all`; migrated, then the demo gallery
 *    seeded as `npm start` seeds it (scripts/seed; the pictures go to a bucket in memory). With PG_CPU_SCALE=1,
 *    also the bench galleries (bench/seed.ts, sizes from its BENCH_* variables) in the same database, and every
 *    scenario is measured on gallery A too. Reused afterwards, like the bench database.
 * 2. Per scenario, the exact SQL the API sends: built by the same services and db/queries functions the routes
 *    call, captured instead of sent (a database object whose execute/batch keep the SQL). A read is one
 *    statement; a write is the whole batch executeWrite sends (idempotency claim, change, timeline entry, outbox
 *    event, engine marks, response) in one transaction, with fresh ids every time.
 * 3. Each scenario runs PG_CPU_WARMUP times unmeasured, then pg_stat_statements is reset and it runs PG_CPU_RUNS
 *    times (default 200). Reported: mean planning + execution per call (a write: the sum over its batch's
 *    statements, BEGIN and its end left out), and per statement. A write's transaction is rolled back rather than
 *    committed, so every run (and every later one) reads the same demo data: its deferred triggers, which a commit
 *    would fire, are fired by `SET CONSTRAINTS ALL IMMEDIATE` before the rollback and counted with the batch; the
 *    rest of a commit is the WAL flush, not the statements' work.
 *    For a write, EXPLAIN (ANALYZE, FORMAT JSON) of each statement of the batch (in a transaction rolled back)
 *    gives the triggers' share: every trigger's time (foreign-key checks included) over the statements'.
 * 4. bench/results/postgres.md and postgres.json (PG_CPU_OUT names another pair, e.g. `postgres-before`).
 *
 * Env: PG_CPU_RUNS (default 200), PG_CPU_WARMUP (default 20), PG_CPU_ONLY (comma-separated scenario names or
 * prefixes), PG_CPU_SCALE=1 (the bench galleries too), PG_CPU_OUT (results file name, default `postgres`),
 * PG_CPU_BEFORE (an earlier run's .json, e.g. this bench at the commit before a change: the report adds a before
 * and after table, with whether each read's rows are byte for byte the same).
 *
 * The artworks list is measured twice: as the route sends it (the stored documents, migration 0023) and with the
 * body built on read by the resource's builder (`-built`), as every read was built before those documents: same
 * rows, same bytes, in the same run.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { neon } from "@neondatabase/serverless";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleHttp } from "drizzle-orm/neon-http";
import pg from "pg";
import type { Db } from "../db/client";
import { artworkConditions, artworkResource, artworkSortKey } from "../db/queries/artworks";
import { keysetPage } from "../db/queries/keyset";
import { catalogueTypes, type EventReadScopes } from "../lib/event-catalogue";
import type { PageRequest } from "../lib/pagination";
import type { Principal } from "../lib/principal";
import { ArtworkCreate } from "../lib/schemas/artworks";
import { allScopes } from "../lib/scopes";
import { migrateDatabase } from "../scripts/migrate";
import { startEmbeddedDatabase } from "../scripts/postgres";
import { DEMO_SLUG, seedDemo } from "../scripts/seed/index";
import type { LocalBucket } from "../scripts/wrangler";
import { createArtwork } from "../services/artworks/create";
import { listArtworks } from "../services/artworks/read";
import { listContacts } from "../services/contacts/read";
import type { ServiceContext } from "../services/context";
import { listEvents } from "../services/events/read";
import { publicRoom } from "../services/public-viewing-rooms/read";
import { BENCH_GALLERIES, BENCH_PUBLIC_ROOM_SLUG, seedBench } from "./seed";
import { type Query, toQuery } from "./sql";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS_DIR = join(ROOT, "bench", "results");
const DATA_DIR = process.env.PG_CPU_DATA_DIR ?? join(ROOT, ".data", "postgres-cpu");
const OUT = process.env.PG_CPU_OUT ?? "postgres";

const envInt = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
};
const RUNS = envInt("PG_CPU_RUNS", 200);
const WARMUP = envInt("PG_CPU_WARMUP", 20);
/** EXPLAIN ANALYZE passes over a write's batch for the triggers' share. */
const EXPLAIN_RUNS = 20;
const SCALE = process.env.PG_CPU_SCALE === "1";
const ONLY = (process.env.PG_CPU_ONLY ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);

const say = (msg: string) => console.log(`[bench:postgres] ${msg}`);

/** Thrown by the capturing database's batch: carries the statements a write would have sent. */
class CapturedBatch extends Error {
  constructor(readonly queries: Query[]) {
    super("captured");
  }
}

/**
 * A database object that builds statements like the real one (drizzle over the Neon HTTP driver, never
 * connected) but keeps what it is asked to send: the last single statement, or a batch (then throws it).
 */
function capturingDb(): { db: Db; last: () => Query } {
  const db = drizzleHttp({ client: neon("postgres://capture:capture@127.0.0.1:1/capture") }) as Db;
  let captured: Query | null = null;
  Object.assign(db, {
    execute: (q: SQL) => {
      captured = toQuery(q);
      return Object.assign(Promise.resolve({ rows: [] }), { query: q });
    },
    batch: async (items: { query: SQL }[]) => {
      throw new CapturedBatch(items.map((item) => toQuery(item.query)));
    },
  });
  return {
    db,
    last: () => {
      if (!captured) throw new Error("the service sent no SQL");
      return captured;
    },
  };
}

function principalOf(galleryId: string, keyId: string): Principal {
  return {
    kind: "secret",
    credentialId: keyId,
    credentialHash: "",
    galleryId,
    livemode: false,
    scopes: allScopes,
    memberId: null,
    role: null,
    readOnly: false,
  } as Principal;
}

function contextOf(db: Db, principal: Principal, claim: ServiceContext["claim"]): ServiceContext {
  return {
    db,
    env: {} as ServiceContext["env"],
    principal,
    requestId: `req_${randomUUID().replaceAll("-", "")}`,
    claim,
    dryRun: false,
    waitUntil: () => {},
  };
}

/** Read scopes per event type as the routes declare them do not matter to a key holding every scope. */
const everyTypeReadable = Object.fromEntries(
  catalogueTypes.map((type) => [type, ["events:read"]]),
) as unknown as EventReadScopes;

const page = (route: string, limit = 20): PageRequest => ({
  route,
  sort: "created",
  dir: "desc",
  limit,
  after: null,
});

interface Scenario {
  name: string;
  title: string;
  kind: "read" | "write";
  /** The statements of one request (a new batch, fresh ids, every call). */
  statements: () => Promise<Query[]>;
}

/** A read: the one statement the service sends. */
async function readOf(run: (db: Db) => Promise<unknown>): Promise<Query> {
  const { db, last } = capturingDb();
  // The service answers from rows the capture does not return (a 404 for a read of one): the SQL is what counts.
  await run(db).catch(() => {});
  return last();
}

/** A write: the batch the service sends. */
async function batchOf(run: (db: Db) => Promise<unknown>): Promise<Query[]> {
  const { db } = capturingDb();
  try {
    await run(db);
  } catch (error) {
    if (error instanceof CapturedBatch) return error.queries;
    throw error;
  }
  throw new Error("the service sent no batch");
}

/** The artworks list's query with the body built by the resource's builder (listArtworks, minus the document). */
function builtOnRead(ctx: ServiceContext, limit: number) {
  const view = { draft: false, gatePrices: false };
  const key = artworkSortKey(view, "created");
  return keysetPage(
    ctx.db,
    {
      body: artworkResource.json(view),
      from: artworkResource.from(view),
      where: artworkConditions(ctx.principal.galleryId, view, {}),
      sortKey: key.expr,
      cast: key.cast,
      id: sql`a.id`,
    },
    page("listArtworks", limit),
  );
}

interface GalleryRefs {
  galleryId: string;
  keyId: string;
  roomSlug: string;
  artistId: string;
  tagId: string;
}

async function galleryRefs(pool: pg.Pool, galleryId: string, roomSlug: string | null): Promise<GalleryRefs> {
  const one = async (text: string) => {
    const r = await pool.query<{ v: string }>(text, [galleryId]);
    if (!r.rows[0]) throw new Error(`nothing for ${text}`);
    return r.rows[0].v;
  };
  return {
    galleryId,
    // The credential events and timeline entries name as their actor (no key row is needed for it).
    keyId: "key_benchpostgres000000000",
    // The open public room with the most works (the demo's; the bench names its own).
    roomSlug:
      roomSlug ??
      (await one(`select vr.slug as v from viewing_rooms vr where vr.gallery_id = $1 and vr.visibility = 'public'
        and (vr.opens_at is null or vr.opens_at <= now()) and (vr.closes_at is null or vr.closes_at > now())
        order by (select count(*) from viewing_room_artworks vra where vra.viewing_room_id = vr.id) desc, vr.id
        limit 1`)),
    artistId: await one("select id as v from artists where gallery_id = $1 order by id limit 1"),
    tagId: await one("select id as v from tags where gallery_id = $1 order by id limit 1"),
  };
}

function scenarios(refs: GalleryRefs): Scenario[] {
  const principal = principalOf(refs.galleryId, refs.keyId);
  const readCtx = (db: Db) => contextOf(db, principal, null);
  const read = (run: (ctx: ServiceContext) => Promise<unknown>) => {
    let cached: Query | null = null;
    return async () => {
      cached ??= await readOf((db) => run(readCtx(db)));
      return [cached];
    };
  };
  const create = (body: Record<string, unknown>) => async () =>
    batchOf((db) => {
      const key = randomUUID();
      // The cache key is only used for the replay cache, which this bench does not reach.
      const claim = {
        key,
        requestHash: "bench",
        method: "POST",
        path: "/v1/gallery/artworks",
        cacheKey: key,
      };
      return createArtwork(contextOf(db, principal, claim), ArtworkCreate.parse(body));
    });
  return [
    {
      name: "health",
      title: "GET /v1/health (its `select 1`, db/queries/health.ts): the floor",
      kind: "read",
      statements: async () => [{ sql: "select 1", params: [] }],
    },
    {
      name: "artworks-20",
      title: "GET /v1/gallery/artworks (20, default)",
      kind: "read",
      statements: read((ctx) => listArtworks(ctx, { draft: false }, {}, page("listArtworks"))),
    },
    {
      name: "artworks-100",
      title: "GET /v1/gallery/artworks?limit=100",
      kind: "read",
      statements: read((ctx) => listArtworks(ctx, { draft: false }, {}, page("listArtworks", 100))),
    },
    {
      // The same page as the builder makes it on every read, as every read did before the stored documents
      // (migration 0023): same rows, same bytes, measured in the same run for the comparison.
      name: "artworks-20-built",
      title: "GET /v1/gallery/artworks (20), built on read as before the stored documents",
      kind: "read",
      statements: read((ctx) => builtOnRead(ctx, 20)),
    },
    {
      name: "artworks-100-built",
      title: "GET /v1/gallery/artworks?limit=100, built on read as before the stored documents",
      kind: "read",
      statements: read((ctx) => builtOnRead(ctx, 100)),
    },
    {
      name: "contacts-20",
      title: "GET /v1/gallery/contacts (20, default)",
      kind: "read",
      statements: read((ctx) => listContacts(ctx, {}, page("listContacts"))),
    },
    {
      name: "events-20",
      title: "GET /v1/gallery/events (20, default)",
      kind: "read",
      statements: read((ctx) => listEvents(ctx, {}, page("listEvents"), everyTypeReadable)),
    },
    {
      name: "public-room",
      title: `GET /v1/public/viewing-rooms/${refs.roomSlug}`,
      kind: "read",
      statements: read((ctx) => publicRoom(ctx, refs.roomSlug)),
    },
    {
      name: "create-minimal",
      title: "POST /v1/gallery/artworks (title, price; with Idempotency-Key)",
      kind: "write",
      statements: create({
        title: "Bench work",
        price_cents: 1_250_000,
        currency: "USD",
        source_system: "bench",
      }),
    },
    {
      name: "create-rich",
      title: "POST /v1/gallery/artworks (credit, dimensions, tag, medium, year; with Idempotency-Key)",
      kind: "write",
      statements: create({
        title: "Bench work",
        price_cents: 1_250_000,
        currency: "USD",
        medium: "Oil on canvas",
        year: 2024,
        artists: [{ artist_id: refs.artistId, role: "primary" }],
        dimensions: [{ height_cm: 120, width_cm: 90 }],
        tag_ids: [refs.tagId],
      }),
    },
  ].filter((s) => ONLY.length === 0 || ONLY.some((o) => s.name.startsWith(o))) as Scenario[];
}

// ---------------------------------------------------------------------------------------------------------
// Measuring

interface StatementCost {
  query: string;
  calls: number;
  planMs: number;
  execMs: number;
}

interface TriggerShare {
  /** Mean EXPLAIN ANALYZE execution time of the batch's statements, ms. */
  statementsMs: number;
  /** Mean time in triggers, ms, per trigger. */
  triggers: Record<string, { ms: number; calls: number }>;
  triggersMs: number;
}

interface Measured {
  name: string;
  title: string;
  kind: "read" | "write";
  gallery: string;
  runs: number;
  /** Mean per request, ms. */
  planMs: number;
  execMs: number;
  totalMs: number;
  /**
   * The sum of each statement's fastest run (planning + execution): what the request costs when nothing else
   * competes for the CPU, steadier than the mean on a shared machine.
   */
  minMs: number;
  /** Per statement (of one request), mean per call. */
  statements: StatementCost[];
  /** A write's batch: BEGIN/COMMIT, mean per request (not in the total). */
  transactionMs?: number;
  triggers?: TriggerShare;
  /** Bytes of the response (the read's rows' bodies, or the write's body), as a check that it is what it was. */
  responseBytes: number;
  responseSha256: string | null;
}

const FIRE_DEFERRED = "set constraints all immediate";
const isTransactionControl = (text: string) => /^(begin|commit|rollback)\b/i.test(text.trim());

interface Answer {
  bytes: number;
  /** SHA-256 of a read's rows (body, sort key, id): equal before and after a change that keeps responses as they were. */
  sha256: string | null;
}

async function runOnce(client: pg.ClientBase, queries: Query[], kind: "read" | "write"): Promise<Answer> {
  if (kind === "read") {
    const r = await client.query<{ body: string }>(queries[0]!.sql, queries[0]!.params);
    const text = JSON.stringify(r.rows);
    return {
      bytes: r.rows.reduce((n, row) => n + Buffer.byteLength(String(row.body ?? "")), 0),
      sha256: createHash("sha256").update(text).digest("hex"),
    };
  }
  await client.query("begin");
  let last: pg.QueryResult | null = null;
  try {
    for (const q of queries) last = await client.query(q.sql, q.params);
    // What a commit runs besides the WAL flush: the deferred triggers, measured as this statement.
    await client.query(FIRE_DEFERRED);
  } finally {
    // Rolled back, not committed: every run writes into the same demo data.
    await client.query("rollback");
  }
  return { bytes: Buffer.byteLength(String(last?.rows[0]?.body ?? "")), sha256: null };
}

interface PlanNode {
  Plan?: { "Actual Total Time"?: number };
  "Execution Time"?: number;
  Triggers?: { "Trigger Name": string; Time: number; Calls: number }[];
}

/** EXPLAIN (ANALYZE) of every statement of a write's batch, in a transaction rolled back. */
async function triggerShare(client: pg.ClientBase, scenario: Scenario): Promise<TriggerShare> {
  const triggers: Record<string, { ms: number; calls: number }> = {};
  let statementsMs = 0;
  for (let i = 0; i < EXPLAIN_RUNS; i++) {
    const queries = await scenario.statements();
    await client.query("begin");
    try {
      for (const q of queries) {
        if (/^set\b/i.test(q.sql.trim())) {
          await client.query(q.sql, q.params);
          continue;
        }
        const r = await client.query<{ "QUERY PLAN": PlanNode[] }>(
          `explain (analyze, format json) ${q.sql}`,
          q.params,
        );
        const plan = r.rows[0]!["QUERY PLAN"][0]!;
        statementsMs += plan["Execution Time"] ?? 0;
        for (const t of plan.Triggers ?? []) {
          const entry = triggers[t["Trigger Name"]] ?? { ms: 0, calls: 0 };
          triggers[t["Trigger Name"]] = entry;
          entry.ms += t.Time;
          entry.calls += t.Calls;
        }
      }
    } finally {
      await client.query("rollback");
    }
  }
  // A foreign key's checks are internal triggers (RI_ConstraintTrigger_…): named by their constraint instead.
  const names = await client.query<{ tgname: string; conname: string }>(
    `select t.tgname, c.conname from pg_trigger t join pg_constraint c on c.oid = t.tgconstraint
     where t.tgname = any($1::text[])`,
    [Object.keys(triggers)],
  );
  const constraintOf = new Map(names.rows.map((r) => [r.tgname, `${r.conname} (foreign key check)`]));
  const mean: Record<string, { ms: number; calls: number }> = {};
  for (const [name, t] of Object.entries(triggers)) {
    mean[constraintOf.get(name) ?? name] = { ms: t.ms / EXPLAIN_RUNS, calls: t.calls / EXPLAIN_RUNS };
  }
  return {
    statementsMs: statementsMs / EXPLAIN_RUNS,
    triggers: mean,
    triggersMs: Object.values(mean).reduce((s, t) => s + t.ms, 0),
  };
}

/** Statement text as reported: one line, cut. */
const shortText = (text: string) => {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 110 ? `${one.slice(0, 107)}...` : one;
};

async function measure(pool: pg.Pool, scenario: Scenario, gallery: string): Promise<Measured> {
  const client = await pool.connect();
  try {
    let answer: Answer = { bytes: 0, sha256: null };
    for (let i = 0; i < WARMUP; i++) {
      answer = await runOnce(client, await scenario.statements(), scenario.kind);
    }
    const batches: Query[][] = [];
    for (let i = 0; i < RUNS; i++) batches.push(await scenario.statements());
    await client.query("select pg_stat_statements_reset()");
    for (const batch of batches) await runOnce(client, batch, scenario.kind);
    const stats = await client.query<{
      query: string;
      calls: string;
      plan: number;
      exec: number;
      min: number;
    }>(
      `select query, calls, total_plan_time as plan, total_exec_time as exec,
         coalesce(min_plan_time, 0) + min_exec_time as min from pg_stat_statements
       where dbid = (select oid from pg_database where datname = current_database())
         and query not like '%pg_stat_statements%'
       order by total_plan_time + total_exec_time desc`,
    );
    const statements: StatementCost[] = [];
    let planMs = 0;
    let execMs = 0;
    let transactionMs = 0;
    let minMs = 0;
    for (const row of stats.rows) {
      if (isTransactionControl(row.query)) {
        transactionMs += (row.plan + row.exec) / RUNS;
        continue;
      }
      planMs += row.plan / RUNS;
      execMs += row.exec / RUNS;
      const calls = Number(row.calls);
      minMs += (row.min * calls) / RUNS;
      statements.push({
        query: shortText(row.query),
        calls: calls / RUNS,
        planMs: row.plan / calls,
        execMs: row.exec / calls,
      });
    }
    const measured: Measured = {
      name: scenario.name,
      title: scenario.title,
      kind: scenario.kind,
      gallery,
      runs: RUNS,
      planMs,
      execMs,
      totalMs: planMs + execMs,
      minMs,
      statements,
      responseBytes: answer.bytes,
      responseSha256: answer.sha256,
    };
    if (scenario.kind === "write") {
      measured.transactionMs = transactionMs;
      const share = await triggerShare(client, scenario);
      const deferred = stats.rows.find((row) => row.query.toLowerCase() === FIRE_DEFERRED);
      if (deferred && deferred.plan + deferred.exec > 0) {
        const deferredMs = (deferred.plan + deferred.exec) / RUNS;
        share.triggers["deferred, at commit (SET CONSTRAINTS ALL IMMEDIATE)"] = { ms: deferredMs, calls: 1 };
        share.triggersMs += deferredMs;
        share.statementsMs += deferredMs;
      }
      measured.triggers = share;
    }
    return measured;
  } finally {
    client.release();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Report

const ms = (n: number) => n.toFixed(3);

/**
 * The same scenarios in an earlier run (PG_CPU_BEFORE, a results file such as bench/results/postgres-before.json:
 * this bench run at the commit before a change), side by side with this one.
 */
function comparison(results: Measured[]): string[] {
  const path = process.env.PG_CPU_BEFORE;
  if (!path || !existsSync(path)) return [];
  const before = JSON.parse(readFileSync(path, "utf8")) as { generatedAt: string; results: Measured[] };
  const lines = [
    "",
    `## Before and after (before: ${basename(path)}, generated ${before.generatedAt})`,
    "",
    "| Gallery | Scenario | Total ms before | Total ms after | Min ms before | Min ms after | Same rows |",
    "|---|---|--:|--:|--:|--:|---|",
  ];
  for (const r of results) {
    const b = before.results.find((x) => x.gallery === r.gallery && x.name === r.name);
    if (!b) continue;
    const same = r.responseSha256 === null ? "" : r.responseSha256 === b.responseSha256 ? "yes" : "**no**";
    lines.push(
      `| ${r.gallery} | ${r.name} | ${ms(b.totalMs)} | ${ms(r.totalMs)} | ${ms(b.minMs)} | ${ms(r.minMs)} | ${same} |`,
    );
  }
  return lines;
}

function report(results: Measured[], meta: Record<string, unknown>): string {
  const lines = [
    "# PostgreSQL time per request",
    "",
    "`npm run bench:postgres` (bench/postgres-cpu.ts): planning + execution per request from pg_stat_statements",
    "(`track_planning = on`), the exact SQL the API sends, built by the routes' own services. A write is its whole",
    "batch (BEGIN and COMMIT left out; the deferred triggers a commit fires are in, as SET CONSTRAINTS ALL",
    "IMMEDIATE); the triggers' share comes from EXPLAIN ANALYZE of the batch's statements. Total: the mean per",
    "request; Min: the sum of each statement's fastest run, steadier on a shared machine. A read's rows are hashed",
    "(body, sort key, id), so two runs that answer the same bytes show the same hash.",
    "",
    `Generated ${meta.generatedAt}; PostgreSQL ${meta.postgres}; ${RUNS} measured runs per scenario after ${WARMUP} unmeasured.`,
    "",
    "| Gallery | Scenario | Plan ms | Exec ms | **Total ms** | Min ms | Statements | Triggers ms (of exec) | Response bytes | Rows' SHA-256 |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|---|",
  ];
  for (const r of results) {
    const triggers = r.triggers
      ? `${ms(r.triggers.triggersMs)} (${Math.round((100 * r.triggers.triggersMs) / Math.max(r.triggers.statementsMs, 1e-9))}%)`
      : "";
    lines.push(
      `| ${r.gallery} | ${r.title} | ${ms(r.planMs)} | ${ms(r.execMs)} | **${ms(r.totalMs)}** | ${ms(r.minMs)} | ${r.statements.reduce((n, s) => n + s.calls, 0)} | ${triggers} | ${r.responseBytes.toLocaleString("en-US")} | ${r.responseSha256?.slice(0, 12) ?? ""} |`,
    );
  }
  lines.push(...comparison(results));
  for (const r of results) {
    lines.push(
      "",
      `## ${r.gallery}: ${r.name}`,
      "",
      "| Calls | Plan ms | Exec ms | Statement |",
      "|--:|--:|--:|---|",
    );
    for (const s of r.statements) {
      lines.push(
        `| ${s.calls} | ${ms(s.planMs)} | ${ms(s.execMs)} | \`${s.query.replaceAll("|", "\\|")}\` |`,
      );
    }
    if (r.triggers) {
      lines.push(
        "",
        `Triggers (EXPLAIN ANALYZE, mean of ${EXPLAIN_RUNS} batches; statements ${ms(r.triggers.statementsMs)} ms):`,
      );
      for (const [name, t] of Object.entries(r.triggers.triggers).sort((a, b) => b[1].ms - a[1].ms)) {
        lines.push(`- ${name}: ${ms(t.ms)} ms, ${t.calls} calls`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------------------
// Main

/** A bucket in memory: the demo's pictures are drawn and kept, never served here. */
function memoryBucket(): LocalBucket {
  const keys = new Set<string>();
  return {
    put: async (key) => {
      keys.add(key);
      return null;
    },
    list: async ({ prefix }) => ({
      objects: [...keys].filter((k) => k.startsWith(prefix)).map((key) => ({ key })),
      truncated: false,
    }),
  } as LocalBucket;
}

async function main() {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const db = await startEmbeddedDatabase({
    dataDir: DATA_DIR,
    database: "gallery_pg_cpu",
    flags: [
      "-c",
      "shared_preload_libraries=pg_stat_statements",
      "-c",
      "pg_stat_statements.track_planning=on",
      "-c",
      "pg_stat_statements.track=top",
      "-c",
      "pg_stat_statements.max=10000",
      "-c",
      "track_functions=all",
    ],
  });
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  try {
    await migrateDatabase(db.url);
    await pool.query("create extension if not exists pg_stat_statements");
    const seeded = await seedDemo(db.url, { bucket: async () => memoryBucket() });
    say(seeded ? `seeded the demo gallery ${seeded.galleryId}` : "the demo gallery is there; reusing it");
    const galleries: { label: string; refs: GalleryRefs }[] = [];
    const demo = await pool.query<{ id: string }>("select id from galleries where slug = $1", [DEMO_SLUG]);
    galleries.push({ label: "demo", refs: await galleryRefs(pool, demo.rows[0]!.id, null) });
    if (SCALE) {
      const report = await seedBench(db.url, (m) => say(m));
      say(`bench galleries ${report.seeded ? "seeded" : "reused"} in ${report.seconds.toFixed(1)} s`);
      const a = BENCH_GALLERIES[0]!;
      galleries.push({
        label: `bench A (${a.artworks.toLocaleString("en-US")} works)`,
        refs: await galleryRefs(pool, a.id, BENCH_PUBLIC_ROOM_SLUG),
      });
    }
    await pool.query("vacuum analyze");
    const version = (await pool.query<{ v: string }>("select current_setting('server_version') as v"))
      .rows[0]!.v;
    const results: Measured[] = [];
    for (const { label, refs } of galleries) {
      for (const scenario of scenarios(refs)) {
        const m = await measure(pool, scenario, label);
        say(
          `${label} ${scenario.name}: plan ${ms(m.planMs)} + exec ${ms(m.execMs)} = ${ms(m.totalMs)} ms (min ${ms(m.minMs)})` +
            (m.triggers ? `, triggers ${ms(m.triggers.triggersMs)} ms` : ""),
        );
        results.push(m);
      }
    }
    const meta = { generatedAt: new Date().toISOString(), postgres: version, runs: RUNS, warmup: WARMUP };
    writeFileSync(join(RESULTS_DIR, `${OUT}.json`), `${JSON.stringify({ ...meta, results }, null, 2)}\n`);
    writeFileSync(join(RESULTS_DIR, `${OUT}.md`), report(results, meta));
    say(`wrote bench/results/${OUT}.md and ${OUT}.json`);
  } finally {
    await pool.end();
    await db.stop();
  }
}

await main();
process.exit(0);
