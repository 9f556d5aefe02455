/**
 * `npm run bench`: the API Worker at scale, measured against floors taken in the same run.
 *
 * 1. The bench database (bench/seed.ts): its own embedded PostgreSQL in .data/bench-postgres, seeded once with
 *    two galleries of 1,000,000 artworks and 500,000 domain events each, reused afterwards.
 * 2. The local stack as `npm start` runs it: the local Neon endpoint (scripts/neon-local.ts) and `wrangler dev`
 *    (workerd) for the API Worker, offline.
 * 3. Per scenario, autocannon from this process (fixed connections and duration): p50/p99 latency and req/s;
 *    database round trips per request, counted at the local Neon endpoint; the SQL floor (the scenario's own
 *    SQL, rebuilt with the query builders of db/queries and run directly with `pg`); the health floor
 *    (`GET /v1/health` of the same Worker); the same SQL through the local Neon endpoint's HTTP /sql; the
 *    Worker's CPU time per request (workerd's utime + stime from /proc over the load run, beside the health
 *    route's); PostgreSQL's planning + execution time (EXPLAIN ANALYZE, median of repeated runs); and
 *    EXPLAIN (ANALYZE, BUFFERS) of the SQL. Every scenario gets all of these; `limits` adds per-scenario targets.
 * 4. bench/results/latest.md, latest.json and plans/<scenario>.txt. Exits non-zero when a plan sequentially
 *    scans a big table, or when the stack or a scenario fails.
 *
 * The public surface is measured as a browser reads it: a publishable token (minted like the secret key) as
 * Bearer, with an `Origin` header. Its edge cache (http/edge-cache.ts) is shown both ways: cold (every
 * request a room never read before: the scenario's hook bench/cold-room.cjs walks the seed's BENCH_COLD_ROOMS
 * unlisted rooms, identical in shape to the public room) and warm (one URL, every answer from the cache: no
 * database round trip), with the 304 of a matching `If-None-Match`. A warm scenario may still name the SQL a miss
 * would run (`explainOnly`): its plan and PostgreSQL time are reported, its latency compared with health alone.
 *
 * Env: BENCH_QUICK=1 (3 s per scenario), BENCH_ONLY (comma-separated scenario names or name prefixes, e.g.
 * `contact`: only those scenarios are measured, and reported in results/subset.md and subset.json instead of
 * latest.*), BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10),
 * BENCH_WORKERS (autocannon worker threads, default 1; 0 = main thread), BENCH_PORT (default: a free port),
 * BENCH_DATABASE_URL (a server of your own instead of the embedded one), BENCH_RATE_LIMITS=counted (every request
 * is counted by its rate-limiting binding as in production, with limits raised so the bench never reaches them:
 * measures what counting costs; by default the Worker runs with the counting off); seed sizes: see bench/seed.ts.
 *
 * Adding a scenario: one more entry in `scenarios()` — the request, the expected status, the kind (read/write)
 * and, for the SQL floor and plan, the SQL it runs (built with the same db/queries function the route calls);
 * optionally `limits` (Worker CPU over health's, PostgreSQL ms) for targets of its own.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { neon } from "@neondatabase/serverless";
import autocannon, { type RequestSpec, type Result } from "autocannon";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleHttp } from "drizzle-orm/neon-http";
import pg from "pg";
import type { Db } from "../db/client";
import { listArtworkTimeline } from "../db/queries/artwork-timeline";
import { activityInsert, createArtworkStatements } from "../db/queries/artwork-writes";
import { type ArtworkFilters, type ArtworkView, artworkResource, listArtworks } from "../db/queries/artworks";
import type { ContactListFilters } from "../db/queries/contact-filters";
import { contactRecapText } from "../db/queries/contact-recap";
import { listContacts } from "../db/queries/contacts";
import { listEvents } from "../db/queries/events";
import { listPriorityThreads, listThreads, type ThreadFilters } from "../db/queries/inbox";
import { type InvoiceFilters, listInvoices } from "../db/queries/invoices";
import { recommendedRecipientsQuery } from "../db/queries/offers";
import { eventInsert } from "../db/queries/outbox";
import { nextTimestamp } from "../db/queries/rows";
import { findPublicRoomText, listPublicRooms } from "../db/queries/viewing-rooms";
import { encodeCursor } from "../lib/cursor";
import { newId } from "../lib/ids";
import { MCP_PATH } from "../lib/mcp";
import type { PageRequest } from "../lib/pagination";
import type { Principal } from "../lib/principal";
import { ArtworkCreate } from "../lib/schemas/artworks";
import { allScopes, PUBLISHABLE_SCOPES } from "../lib/scopes";
import { insertApiKey } from "../scripts/local-keys";
import { migrateDatabase } from "../scripts/migrate";
import { type NeonLocal, startNeonLocal } from "../scripts/neon-local";
import { freePort } from "../scripts/postgres";
import { apiServiceConfigs, spawnWranglerDev } from "../scripts/wrangler";
import { changeEvent } from "../services/write";
import {
  bundleShare,
  bundleTable,
  MCP_BUNDLE_INPUTS,
  type McpBundleShare,
  measureWorkers,
  type WorkerBundle,
} from "./bundle";
import { CLK_TCK, TICK_MS, type Workerd, workerds } from "./proc";
import {
  BENCH_DATA_DIR,
  BENCH_GALLERIES,
  BENCH_OFFER_ID,
  BENCH_PUBLIC_ROOM_SLUG,
  benchInboxMember,
  benchListId,
  COLD_ROOM_SLUG_PREFIX,
  COLD_ROOMS,
  CONTACT_Q,
  DYNAMIC_LIST_QUERY,
  HISTORY_INTERACTIONS,
  historyContactId,
  INBOX_THREADS,
  INVOICES,
  ROOM_WORKS,
  seedBench,
  startBenchDatabase,
  TIMELINE_ENTRIES,
  timelineArtworkId,
} from "./seed";
import { type Query, toQuery } from "./sql";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS_DIR = join(ROOT, "bench", "results");
const PLANS_DIR = join(RESULTS_DIR, "plans");
const PERSIST_DIR = join(ROOT, ".data", "bench-wrangler");
const WRANGLER_LOG = join(ROOT, ".data", "bench-wrangler.log");
/** autocannon runs in a worker thread (off the event loop of the local Neon endpoint), so hooks are files. */
const SETUP_IDEMPOTENCY_KEY = join(ROOT, "bench", "idempotency-key.cjs");
/** A room never read before on every request (the cold public read). */
const SETUP_COLD_ROOM = join(ROOT, "bench", "cold-room.cjs");
/** The browser's origin on the public scenarios (the CORS path). */
const BROWSER_ORIGIN = "https://collector.bench.example";

const envNum = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
};
const QUICK = process.env.BENCH_QUICK === "1";
/** Scenario names or name prefixes to run (BENCH_ONLY); empty: all of them. */
const ONLY = (process.env.BENCH_ONLY ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
/**
 * Whether the Worker counts every request against its rate limits (BENCH_RATE_LIMITS=counted), as deployed; by
 * default it does not (RATE_LIMITS=off, local mode only), since the bench drives one key far past its limit.
 */
const RATE_LIMITS_COUNTED = process.env.BENCH_RATE_LIMITS === "counted";
/**
 * A subset run writes its own report (subset.md, subset.json), leaving the full run's latest.* as they are; a run
 * with the limits counted adds `-counted`.
 */
const RESULTS_NAME = `${ONLY.length ? "subset" : "latest"}${RATE_LIMITS_COUNTED ? "-counted" : ""}`;
/** The Worker's config with every rate limit raised out of the bench's reach (BENCH_RATE_LIMITS=counted). */
const COUNTED_CONFIG = ".wrangler-bench-counted.toml";
const DURATION_S = envNum("BENCH_DURATION", QUICK ? 3 : 10);
const CONNECTIONS = Math.round(envNum("BENCH_CONNECTIONS", 10));
/** Requests per connection sent (concurrently, unmeasured) before each scenario. */
const WARMUP_PER_CONNECTION = 10;
/**
 * autocannon's worker threads (default 1: load generation off the event loop of the local Neon endpoint, which
 * lives in this process); BENCH_WORKERS=0 runs it on the main thread.
 */
const WORKERS = process.env.BENCH_WORKERS === "0" ? 0 : Math.round(envNum("BENCH_WORKERS", 1));

/** Keeps wrangler offline, as scripts/start.ts does. */

/** Time after each measured load run for in-flight requests and waitUntil work to land in the counters. */
const SETTLE_MS = 500;
/** EXPLAIN ANALYZE runs per scenario for PostgreSQL's planning and execution time: unmeasured, then measured. */
const PG_TIMING_WARMUP = 5;
const PG_TIMING_RUNS = 20;

/** Tables whose sequential scan in a scenario's plan fails the bench. */
const BIG_TABLES = [
  "artworks",
  "domain_events",
  "artwork_artists",
  "artwork_tags",
  "artwork_drafts",
  "artwork_activity_events",
  "contacts",
  "collector_profiles",
  "contact_assignees",
  "contact_tags",
  "interactions",
  "engagement_events",
  "contact_engagement",
  "sales",
  "sale_artworks",
  "tasks",
  "contact_list_memberships",
  "rubric_judgments",
  "inbox_threads",
  "inbox_messages",
  "invoices",
  "recommendation_matches",
  "viewing_rooms",
  "viewing_room_artworks",
];

const TARGETS = {
  readRoundTrips: 1,
  writeRoundTrips: 2,
  badCredentialDbTouches: 1,
  deepOverFirst: 1.2,
  /** The keyset lists whose deep page is held to deepOverFirst × their first page: [first, deep]. */
  deepPairs: [
    ["artworks-price-first", "artworks-price-deep"],
    ["artwork-timeline-first", "artwork-timeline-deep"],
    ["contacts-default", "contacts-deep"],
  ],
  apiOverFloors: 2,
  bundleGzipKiB: 350,
};

const say = (msg: string) => console.log(`[bench] ${msg}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The SQL a db/queries function would send, captured instead of executed. */
async function capture(run: (db: Db) => Promise<unknown>): Promise<Query> {
  let captured: SQL | undefined;
  const fake = {
    execute: async (q: SQL) => {
      captured = q;
      return { rows: [] };
    },
  } as unknown as Db;
  await run(fake);
  if (!captured) throw new Error("the query builder sent no SQL");
  return toQuery(captured);
}

// ---------------------------------------------------------------------------------------------------------
// Scenarios

interface Floor {
  /** The statements of one request; a transaction when more than one. Called once per iteration. */
  statements: () => Query[];
}

interface Scenario {
  name: string;
  title: string;
  kind: "read" | "write" | "auth";
  expectStatus: number;
  request: RequestSpec;
  /** Null when the route answers without SQL (edge-cached replay, rejected credential). */
  floor: Floor | null;
  /** Why there is no SQL floor, when it is not `cache`. */
  noFloorReason?: string;
  /**
   * The cache that answers the measured requests without the database (README's Benchmarks section names each).
   * Only a scenario naming one may count fewer database round trips than responses: without it, a request that
   * never reached the database was answered by something the bench does not know of, and the run fails.
   */
  cache?: string;
  /**
   * The floor's SQL is what a miss of the edge cache would run, not what the measured requests run: only its plan
   * and PostgreSQL time are reported (and the sequential-scan check); no SQL floor, latency against health alone.
   */
  explainOnly?: boolean;
  /** Requests per connection sent concurrently before measuring: fills caches, pools, compiles code. */
  warmup: number;
  /** Scenario targets beyond the ones every scenario of its kind gets. */
  limits?: Limits;
}

interface Limits {
  /** Worker CPU time per request ≤ this × the health route's. */
  cpuOverHealth?: number;
  /** PostgreSQL planning + execution time of the scenario's SQL ≤ this many ms. */
  pgMs?: number;
  /** Database round trips per request = this (±0.01): 0 for an edge-cached read, 1 for a read that misses. */
  roundTrips?: number;
}

interface Context {
  pool: pg.Pool;
  /** The API Worker under test, e.g. http://127.0.0.1:8787. */
  origin: string;
  galleryId: string;
  keyId: string;
  secretKey: string;
  /** A publishable token (`gpub_`) of gallery A: the public viewing-room reads. */
  publishableToken: string;
  /** A member session (`gss_…`) of gallery A's inbox member: the inbox takes sessions only. */
  sessionToken: string;
  signingSecret: string;
}

const page = (sort: string, after: PageRequest["after"] = null): PageRequest => ({
  route: "listArtworks",
  sort,
  dir: "desc",
  limit: 20,
  after,
});

/**
 * A cursor deep in a list, minted by the API itself: pages of 100 are walked through the API until more than
 * `past` rows lie behind; returns the cursor and the last row's keyset position (sort key, id) for the floor.
 */
async function walkCursor(
  ctx: Context,
  path: string,
  past: number,
  keyOf: (row: Record<string, unknown>) => [string, string],
): Promise<{ cursor: string; key: [string, string]; rows: number }> {
  let cursor: string | null = null;
  let rows = 0;
  let last: Record<string, unknown> | undefined;
  while (rows <= past) {
    const url = `${ctx.origin}${path}${path.includes("?") ? "&" : "?"}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${ctx.secretKey}` } });
    const body = (await res.json()) as { data?: Record<string, unknown>[]; next_cursor?: string | null };
    if (res.status !== 200 || !body.data)
      throw new Error(`GET ${path} answered ${res.status} while walking pages`);
    rows += body.data.length;
    last = body.data[body.data.length - 1];
    if (!body.next_cursor || !last)
      throw new Error(`GET ${path} ended after ${rows} rows, before row ${past}`);
    cursor = body.next_cursor;
  }
  return { cursor: cursor!, key: keyOf(last!), rows };
}

/** The MCP tool call the bench measures beside the same operation's HTTP request (`artworks-default`). */
const MCP_LIST_ARTWORKS = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "listArtworks", arguments: {} },
};

/** What the bench key's MCP client is offered (tool count, tools/list size), and a check that the call works. */
async function mcpFacts(ctx: Context): Promise<{ tools: number; listBytes: number }> {
  const post = async (message: unknown) => {
    const res = await fetch(`${ctx.origin}${MCP_PATH}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ctx.secretKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(message),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST ${MCP_PATH} answered ${res.status}: ${text.slice(0, 300)}`);
    return { text, body: JSON.parse(text) as { result: { tools?: unknown[]; isError?: boolean } } };
  };
  const list = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const called = await post(MCP_LIST_ARTWORKS);
  if (called.body.result.isError) throw new Error(`MCP listArtworks answered a tool error: ${called.text}`);
  return { tools: list.body.result.tools?.length ?? 0, listBytes: Buffer.byteLength(list.text) };
}

async function scenarios(ctx: Context): Promise<Scenario[]> {
  const { pool, galleryId } = ctx;
  const view = { draft: false, gatePrices: false };
  const auth = { authorization: `Bearer ${ctx.secretKey}` };
  const get = (path: string): RequestSpec => ({ method: "GET", path, headers: auth });
  const artworksFloor = async (
    filters: ArtworkFilters,
    p: PageRequest,
    artworkView: ArtworkView = view,
  ): Promise<Floor> => {
    const q = await capture((db) => listArtworks(db, galleryId, artworkView, filters, p));
    return { statements: () => [q] };
  };

  // The work with the long timeline, and a cursor past 90% of it (entry 9,000 of 10,000) from the API's pages.
  const timelineId = await timelineArtworkId(pool, BENCH_GALLERIES[0]!);
  const timelinePath = `/v1/gallery/artworks/${timelineId}/events`;
  const timelinePage = (after: PageRequest["after"] = null): PageRequest => ({
    route: "listArtworkEvents",
    sort: "occurred",
    dir: "desc",
    limit: 20,
    after,
  });
  const timelineFloor = async (p: PageRequest): Promise<Floor> => {
    const q = await capture((db) => listArtworkTimeline(db, galleryId, timelineId, p));
    return { statements: () => [q] };
  };
  const timelineDeep = await walkCursor(ctx, timelinePath, Math.floor(TIMELINE_ENTRIES * 0.9), (row) => [
    row.occurred_at as string,
    row.id as string,
  ]);

  // A real cursor past row 500,000 of sort=price, minted as the API mints it.
  const deepRow = Math.min(500_000, BENCH_GALLERIES[0]!.artworks - 1);
  const deep = await pool.query<{ k: string; id: string }>(
    `select coalesce(price_cents, -1) as k, id from artworks where gallery_id = $1
     order by coalesce(price_cents, -1) desc, id desc offset $2 limit 1`,
    [galleryId, deepRow - 1],
  );
  const deepKey: [string, string] = [deep.rows[0]!.k, deep.rows[0]!.id];
  const deepCursor = await encodeCursor(
    ctx.signingSecret,
    { gallery: galleryId, route: "listArtworks", sort: "price", dir: "desc" },
    deepKey,
  );

  // 50 ids spread over the whole gallery.
  const step = Math.max(1, Math.floor(BENCH_GALLERIES[0]!.artworks / 50));
  const idRows = await pool.query<{ id: string }>(
    `select id from (select id, row_number() over (order by created_at, id) as n from artworks where gallery_id = $1) t
     where n % $2 = 1 order by n limit 50`,
    [galleryId, step],
  );
  const ids = idRows.rows.map((r) => r.id);

  const threeFilters: ArtworkFilters = {
    availability: ["available"],
    medium: ["Oil on canvas"],
    price_min: 100_000,
  };

  // Contacts: the list's SQL as the route builds it (db/queries/contacts listContacts), and the recap's.
  const contactsPage = (after: PageRequest["after"] = null): PageRequest => ({
    route: "listContacts",
    sort: "created",
    dir: "desc",
    limit: 20,
    after,
  });
  const contactsFloor = async (
    filters: ContactListFilters,
    p: PageRequest = contactsPage(),
  ): Promise<Floor> => {
    const q = await capture((db) => listContacts(db, galleryId, filters, p));
    return { statements: () => [q] };
  };
  const benchA = BENCH_GALLERIES[0]!;
  const dynamicListId = benchListId(benchA, "dynamic");
  const staticListId = benchListId(benchA, "static");
  const smallListId = benchListId(benchA, "small");
  const historyId = await historyContactId(pool, benchA);
  const engagedSince = "2025-10-01T00:00Z";
  // A cursor past row 5,000 of the default order, minted by the API from its own pages.
  const contactsDeep = await walkCursor(ctx, "/v1/gallery/contacts", 5_000, (row) => [
    row.created_at as string,
    row.id as string,
  ]);
  const recapFloor = await (async (): Promise<Floor> => {
    const q = await capture((db) => contactRecapText(db, galleryId, historyId));
    return { statements: () => [q] };
  })();

  // The inbox takes member sessions only: its scenarios send the inbox member's session, signed in through the
  // API; the floors are the route's own builders (db/queries/inbox) for that member.
  const inboxMemberId = benchInboxMember(benchA).id;
  const asMember = (path: string): RequestSpec => ({
    method: "GET",
    path,
    headers: { authorization: `Bearer ${ctx.sessionToken}` },
  });
  const inboxFloor = async (filters: ThreadFilters): Promise<Floor> => {
    const p: PageRequest = {
      route: "listInboxThreads",
      sort: "last_message",
      dir: "desc",
      limit: 20,
      after: null,
    };
    const q = await capture((db) => listThreads(db, galleryId, inboxMemberId, filters, p));
    return { statements: () => [q] };
  };
  const priorityFloor = await (async (): Promise<Floor> => {
    const q = await capture((db) => listPriorityThreads(db, galleryId, inboxMemberId, {}, 20));
    return { statements: () => [q] };
  })();
  const invoicesFloor = async (filters: InvoiceFilters): Promise<Floor> => {
    const p: PageRequest = { route: "listInvoices", sort: "created", dir: "desc", limit: 20, after: null };
    const q = await capture((db) => listInvoices(db, galleryId, filters, p));
    return { statements: () => [q] };
  };
  const threads = INBOX_THREADS.toLocaleString("en-US");

  const createBody = { title: "Bench work", price_cents: 1_250_000, currency: "USD", source_system: "bench" };
  const createInput = ArtworkCreate.parse(createBody);
  const principal = {
    kind: "secret",
    credentialId: ctx.keyId,
    credentialHash: "",
    galleryId,
    livemode: false,
    scopes: allScopes,
    memberId: null,
    role: null,
    readOnly: false,
  } as Principal;
  // Statements are only built here (drizzle needs a database object for that), never sent through it.
  const builder = drizzleHttp({ client: neon("postgres://bench:bench@127.0.0.1:1/bench") });
  /** The batch services/write.ts executeWrite sends for POST /gallery/artworks with an Idempotency-Key. */
  const createBatch = (): Query[] => {
    const id = newId("art");
    const key = randomUUID();
    const at = nextTimestamp();
    const object = artworkResource.jsonById(galleryId, id, view);
    return [
      sql.raw("set local lock_timeout = '3s'"),
      sql`insert into idempotency_keys (gallery_id, key, request_hash, method, path, response_status)
        values (${galleryId}, ${key}, ${"floor"}, ${"POST"}, ${"/v1/gallery/artworks"}, ${201})`,
      ...createArtworkStatements(builder, galleryId, id, createInput, at),
      activityInsert(builder, galleryId, id, ctx.keyId, at, {
        eventType: "created",
        summary: `Added “${createInput.title}”`,
        metadata: {},
      }),
      eventInsert(principal, newId("req"), changeEvent("artwork.created", "artwork", id, object)),
      sql`update idempotency_keys set response_body = (${object})::jsonb
        where gallery_id = ${galleryId} and key = ${key} returning response_body::text as body`,
    ].map(toQuery);
  };

  // The public surface as a browser reads it: the publishable token, an Origin (the CORS path).
  const visitor = { authorization: `Bearer ${ctx.publishableToken}`, origin: BROWSER_ORIGIN };
  const roomPath = `/v1/public/viewing-rooms/${BENCH_PUBLIC_ROOM_SLUG}`;
  const coldPath = `/v1/public/viewing-rooms/${COLD_ROOM_SLUG_PREFIX}1`;
  const roomFloor = async (slug: string): Promise<Floor> => {
    const q = await capture((db) => findPublicRoomText(db, galleryId, slug));
    return { statements: () => [q] };
  };
  // The room's current ETag, from the API (this read also puts it in the edge cache).
  const roomEtag = await (async () => {
    const res = await fetch(`${ctx.origin}${roomPath}`, { headers: visitor });
    const body = (await res.json()) as { artworks?: { price_on_request: boolean }[] };
    const etag = res.headers.get("etag");
    if (res.status !== 200 || !etag) throw new Error(`GET ${roomPath} answered ${res.status}, ETag ${etag}`);
    const onRequest = body.artworks?.filter((w) => w.price_on_request).length ?? 0;
    say(`  ${roomPath}: ${body.artworks?.length} works, ${onRequest} at price on request, ETag ${etag}`);
    return etag;
  })();
  const publicListFloor = await (async (): Promise<Floor> => {
    const q = await capture((db) =>
      listPublicRooms(db, galleryId, { ...page("created"), route: "listPublicViewingRooms" }),
    );
    return { statements: () => [q] };
  })();
  const recommendedQuery = toQuery(recommendedRecipientsQuery(galleryId, BENCH_OFFER_ID, 20));
  const offerMatches = await pool.query<{ matches: string; above: string; contacts: string }>(
    `select count(*) as matches, count(*) filter (where rm.probability >= 0.6) as above,
       count(distinct rm.contact_id) filter (where rm.probability >= 0.6) as contacts
     from offer_items oi join recommendation_matches rm on rm.gallery_id = oi.gallery_id and rm.artwork_id = oi.artwork_id
     where oi.offer_id = $1`,
    [BENCH_OFFER_ID],
  );
  const offerStats = offerMatches.rows[0]!;
  const edgeCache = "the edge cache (the isolate's copy, else the Cache API)";

  const json = { ...auth, "content-type": "application/json" };
  const mcpRequest = (message: unknown): RequestSpec => ({
    method: "POST",
    path: MCP_PATH,
    headers: { ...json, accept: "application/json, text/event-stream" },
    body: JSON.stringify(message),
  });
  const mcp = await mcpFacts(ctx);
  say(
    `  ${MCP_PATH}: ${mcp.tools} tools for the bench key, tools/list ${mcp.listBytes.toLocaleString("en-US")} bytes`,
  );
  const replayKey = `bench-replay-${randomUUID()}`;
  const unknownKey = `gpk_${randomBytes(24).toString("base64url")}`;

  return [
    {
      name: "artworks-default",
      title: "artworks list (default, 20 per page)",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/artworks"),
      floor: await artworksFloor({}, page("created")),
      warmup: WARMUP_PER_CONNECTION,
      limits: { cpuOverHealth: 3, pgMs: 2 },
    },
    {
      name: "artworks-limit-100",
      title: "artworks list, limit=100",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/artworks?limit=100"),
      floor: await artworksFloor({}, { ...page("created"), limit: 100 }),
      warmup: WARMUP_PER_CONNECTION,
      limits: { cpuOverHealth: 6 },
    },
    {
      name: "artworks-draft",
      title: "artworks list, draft=true (working copies, 20 per page)",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/artworks?draft=true&limit=20"),
      floor: await artworksFloor({}, page("created"), { draft: true, gatePrices: false }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "artworks-three-filters",
      title: "artworks, 3 filters (availability, medium, price_min)",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/artworks?availability=available&medium=Oil%20on%20canvas&price_min=100000"),
      floor: await artworksFloor(threeFilters, page("created")),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "artworks-q",
      title: "artworks, q free text (`harbor`)",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/artworks?q=harbor"),
      floor: await artworksFloor({ q: "harbor" }, page("created")),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "artworks-price-first",
      title: "artworks sort=price, first page",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/artworks?sort=price"),
      floor: await artworksFloor({}, page("price")),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "artworks-price-deep",
      title: `artworks sort=price, cursor past row ${deepRow.toLocaleString("en-US")}`,
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/artworks?sort=price&cursor=${encodeURIComponent(deepCursor)}`),
      floor: await artworksFloor({}, page("price", deepKey)),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "artworks-ids-50",
      title: "artworks ids=50 ids",
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/artworks?ids=${ids.join(",")}&limit=50`),
      floor: await artworksFloor({ ids }, { ...page("created"), limit: 50 }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "artwork-timeline-first",
      title: `artwork timeline (${TIMELINE_ENTRIES.toLocaleString("en-US")} entries), first page of 20`,
      kind: "read",
      expectStatus: 200,
      request: get(`${timelinePath}?limit=20`),
      floor: await timelineFloor(timelinePage()),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "artwork-timeline-deep",
      title: `artwork timeline, cursor past entry ${timelineDeep.rows.toLocaleString("en-US")}`,
      kind: "read",
      expectStatus: 200,
      request: get(`${timelinePath}?limit=20&cursor=${encodeURIComponent(timelineDeep.cursor)}`),
      floor: await timelineFloor(timelinePage(timelineDeep.key)),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "events-default",
      title: "events list (default)",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/events"),
      floor: await (async () => {
        const q = await capture((db) =>
          listEvents(db, galleryId, { prices: "all" }, {}, { ...page("created"), route: "listEvents" }),
        );
        return { statements: () => [q] };
      })(),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "events-type",
      title: "events type=artwork.price_changed",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/events?type=artwork.price_changed"),
      floor: await (async () => {
        const q = await capture((db) =>
          listEvents(
            db,
            galleryId,
            { prices: "all" },
            { type: "artwork.price_changed" },
            { ...page("created"), route: "listEvents" },
          ),
        );
        return { statements: () => [q] };
      })(),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "contacts-default",
      title: `contacts list (default, 20 per page) at ${benchA.contacts.toLocaleString("en-US")} contacts`,
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/contacts"),
      floor: await contactsFloor({}),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "contacts-q",
      title: `contacts, q free text (\`${CONTACT_Q}\`, a few hundred matches)`,
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/contacts?q=${CONTACT_Q}`),
      floor: await contactsFloor({ q: CONTACT_Q }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "contacts-q-two",
      title: "contacts, q of two characters (`th`)",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/contacts?q=th"),
      floor: await contactsFloor({ q: "th" }),
      warmup: WARMUP_PER_CONNECTION,
      limits: { pgMs: 20 },
    },
    {
      name: "contacts-q-two-rare",
      title: "contacts, q of two characters few contacts have (`zq`)",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/contacts?q=zq"),
      floor: await contactsFloor({ q: "zq" }),
      warmup: WARMUP_PER_CONNECTION,
      limits: { pgMs: 20 },
    },
    {
      name: "contacts-q-one",
      title: "contacts, q of one character (`a`)",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/contacts?q=a"),
      floor: await contactsFloor({ q: "a" }),
      warmup: WARMUP_PER_CONNECTION,
      limits: { pgMs: 20 },
    },
    {
      name: "contacts-price-band-spend",
      title: "contacts, price_band=25k_100k + min_total_spend_cents=5000000",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/contacts?price_band=25k_100k&min_total_spend_cents=5000000"),
      floor: await contactsFloor({ price_band: "25k_100k", min_total_spend_cents: 5_000_000 }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "contacts-engaged",
      title: `contacts, engaged_event=room_opened + engaged_since=${engagedSince}`,
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/contacts?engaged_event=room_opened&engaged_since=${engagedSince}`),
      floor: await contactsFloor({ engaged_event: "room_opened", engaged_since: engagedSince }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "contacts-dynamic-list",
      title: `contacts, list_id of a dynamic list (${Object.entries(DYNAMIC_LIST_QUERY)
        .map(([k, v]) => `${k}=${v}`)
        .join(" + ")})`,
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/contacts?list_id=${dynamicListId}`),
      floor: await contactsFloor({ list_id: dynamicListId }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "contacts-static-list",
      title: "contacts, list_id of a static list (5,000 members)",
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/contacts?list_id=${staticListId}`),
      floor: await contactsFloor({ list_id: staticListId }),
      warmup: WARMUP_PER_CONNECTION,
      limits: { pgMs: 5 },
    },
    {
      name: "contacts-small-static-list",
      title: "contacts, list_id of a static list of 20 members spread over the roster",
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/contacts?list_id=${smallListId}`),
      floor: await contactsFloor({ list_id: smallListId }),
      warmup: WARMUP_PER_CONNECTION,
      limits: { pgMs: 5 },
    },
    {
      name: "contacts-deep",
      title: `contacts list, cursor past row ${contactsDeep.rows.toLocaleString("en-US")}`,
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/contacts?cursor=${encodeURIComponent(contactsDeep.cursor)}`),
      floor: await contactsFloor({}, contactsPage(contactsDeep.key)),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "contact-recap",
      title: `contact recap (${HISTORY_INTERACTIONS.toLocaleString("en-US")}+ interactions, 200+ sales, open tasks, lists)`,
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/contacts/${historyId}/recap`),
      floor: recapFloor,
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "inbox-default",
      title: `inbox threads (default, 20 per page), a member with ${threads} threads, member session`,
      kind: "read",
      expectStatus: 200,
      request: asMember("/v1/gallery/inbox/threads"),
      floor: await inboxFloor({}),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "inbox-unread",
      title: "inbox threads, unread=true (about 20% of them)",
      kind: "read",
      expectStatus: 200,
      request: asMember("/v1/gallery/inbox/threads?unread=true"),
      floor: await inboxFloor({ unread: true }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "inbox-q",
      title: `inbox threads, q free text (\`${CONTACT_Q}\`, a few dozen matches)`,
      kind: "read",
      expectStatus: 200,
      request: asMember(`/v1/gallery/inbox/threads?q=${CONTACT_Q}`),
      floor: await inboxFloor({ q: CONTACT_Q }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "inbox-priority",
      title: "inbox threads, priority=true (triage order, one page of 20)",
      kind: "read",
      expectStatus: 200,
      request: asMember("/v1/gallery/inbox/threads?priority=true"),
      floor: priorityFloor,
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "invoices-default",
      title: `invoices list (default, 20 per page) at ${INVOICES.toLocaleString("en-US")} invoices`,
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/invoices"),
      floor: await invoicesFloor({}),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "invoices-status",
      title: "invoices, status=unpaid",
      kind: "read",
      expectStatus: 200,
      request: get("/v1/gallery/invoices?status=unpaid"),
      floor: await invoicesFloor({ status: "unpaid" }),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "public-room-cold",
      title: `public room read, cold: a different open room of ${ROOM_WORKS} works each request (of ${COLD_ROOMS.toLocaleString("en-US")}, never in the edge cache), publishable token + Origin`,
      kind: "read",
      expectStatus: 200,
      request: { method: "GET", path: coldPath, headers: visitor, setupRequest: SETUP_COLD_ROOM },
      floor: await roomFloor(`${COLD_ROOM_SLUG_PREFIX}1`),
      // One request, to the scenario's own path (cold-room-1): the measured ones each read a room never read.
      warmup: 1,
      limits: { roundTrips: 1 },
    },
    {
      name: "public-room-warm",
      title: `public room read, warm: one room of ${ROOM_WORKS} works, every answer from the edge cache, publishable token + Origin`,
      kind: "read",
      expectStatus: 200,
      request: { method: "GET", path: roomPath, headers: visitor },
      floor: await roomFloor(BENCH_PUBLIC_ROOM_SLUG),
      explainOnly: true,
      cache: edgeCache,
      warmup: WARMUP_PER_CONNECTION,
      limits: { roundTrips: 0 },
    },
    {
      name: "public-room-304",
      title: "public room, If-None-Match with the current ETag (304, no body)",
      kind: "read",
      expectStatus: 304,
      request: { method: "GET", path: roomPath, headers: { ...visitor, "if-none-match": roomEtag } },
      floor: null,
      cache: edgeCache,
      warmup: WARMUP_PER_CONNECTION,
      limits: { roundTrips: 0 },
    },
    {
      name: "public-rooms-list",
      title: "public rooms list (open public rooms, newest first), warm, publishable token + Origin",
      kind: "read",
      expectStatus: 200,
      request: { method: "GET", path: "/v1/public/viewing-rooms", headers: visitor },
      floor: publicListFloor,
      explainOnly: true,
      cache: edgeCache,
      warmup: WARMUP_PER_CONNECTION,
      limits: { roundTrips: 0 },
    },
    {
      name: "offer-recommended",
      title: `recommended recipients, offer of 20 works (${Number(offerStats.matches).toLocaleString("en-US")} matches, ${Number(offerStats.contacts).toLocaleString("en-US")} contacts ≥ 0.6) over ${benchA.contacts.toLocaleString("en-US")} contacts`,
      kind: "read",
      expectStatus: 200,
      request: get(`/v1/gallery/offers/${BENCH_OFFER_ID}/recommended-recipients`),
      floor: { statements: () => [recommendedQuery] },
      warmup: WARMUP_PER_CONNECTION,
      limits: { roundTrips: 1 },
    },
    {
      name: "artworks-create",
      title: "create artwork (fresh Idempotency-Key each)",
      kind: "write",
      expectStatus: 201,
      request: {
        method: "POST",
        path: "/v1/gallery/artworks",
        headers: json,
        body: JSON.stringify(createBody),
        setupRequest: SETUP_IDEMPOTENCY_KEY,
      },
      floor: { statements: createBatch },
      warmup: 2,
    },
    {
      name: "artworks-create-replay",
      title: "idempotent replay (same key and body)",
      kind: "write",
      expectStatus: 201,
      request: {
        method: "POST",
        path: "/v1/gallery/artworks",
        headers: { ...json, "idempotency-key": replayKey },
        body: JSON.stringify(createBody),
      },
      floor: null,
      cache: "the replay in the EDGE_KV KV",
      // One request stores the response; the measured ones replay it.
      warmup: 1,
    },
    {
      name: "mcp-tools-list",
      title: `MCP tools/list (${mcp.tools} tools, ${Math.round(mcp.listBytes / 1024)} KiB answer)`,
      kind: "read",
      expectStatus: 200,
      request: mcpRequest({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      floor: null,
      noFloorReason: "no SQL: the tools are built once per isolate",
      cache: "the EDGE_KV KV (the credential)",
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "mcp-artworks-default",
      title: "MCP tools/call listArtworks (the artworks list, default, as a tool)",
      kind: "read",
      expectStatus: 200,
      request: mcpRequest(MCP_LIST_ARTWORKS),
      floor: await artworksFloor({}, page("created")),
      warmup: WARMUP_PER_CONNECTION,
    },
    {
      name: "bad-credential",
      title: "unknown gpk_ key (cold, then negative-cached)",
      kind: "auth",
      expectStatus: 401,
      request: {
        method: "GET",
        path: "/v1/gallery/artworks",
        headers: { authorization: `Bearer ${unknownKey}` },
      },
      floor: null,
      noFloorReason: "the one credential lookup is amortised over the run",
      cache: "the EDGE_KV KV (negative entries)",
      // Cold: the DB-touch count covers the scenario's very first request.
      warmup: 0,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Measuring

interface LoadResult {
  /**
   * Requests autocannon sent. It counts a request again on every reconnection after a connection error, so a
   * stack that stops answering makes this number run away from the requests the Worker ever saw.
   */
  requests: number;
  /** Responses received (any status). */
  responses: number;
  /**
   * Requests the Worker received: those sent less those a connection error or a timeout dropped (every
   * response, and the requests still in flight when the run stopped, whose round trips are counted too), and
   * never fewer than the responses. What the round trips per request divide by.
   */
  served: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
}

function summarise(r: Result): LoadResult {
  const statuses: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats)) statuses[code] = s.count;
  return {
    requests: r.requests.sent,
    responses: Object.values(statuses).reduce((n, c) => n + c, 0),
    served: Math.max(
      Object.values(statuses).reduce((n, c) => n + c, 0),
      r.requests.sent - r.errors - r.timeouts,
    ),
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    statuses,
    errors: r.errors + r.timeouts,
  };
}

async function load(origin: string, request: RequestSpec, amount?: number): Promise<LoadResult> {
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    ...(amount === undefined ? { duration: DURATION_S } : { amount }),
    timeout: 30,
    ...(WORKERS > 0 ? { workers: WORKERS } : {}),
    requests: [
      WORKERS === 0 && typeof request.setupRequest === "string"
        ? { ...request, setupRequest: createRequire(import.meta.url)(request.setupRequest) }
        : request,
    ],
  });
  return summarise(result);
}

async function warm(origin: string, request: RequestSpec, perConnection: number): Promise<void> {
  if (perConnection === 0) return;
  if (perConnection === 1) {
    const res = await fetch(`${origin}${request.path}`, {
      method: request.method ?? "GET",
      headers: request.headers ?? {},
      body: typeof request.body === "string" ? request.body : undefined,
    });
    await res.arrayBuffer();
    return;
  }
  await load(origin, request, perConnection * CONNECTIONS);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))]!;

/** `run` looped by CONNECTIONS concurrent callers for DURATION_S: latency percentiles in ms. */
async function loop(run: () => Promise<void>): Promise<{ p50: number; p99: number; perSec: number }> {
  const latencies: number[] = [];
  const deadline = performance.now() + DURATION_S * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      await run();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    perSec: latencies.length / DURATION_S,
  };
}

/** The scenario's SQL straight from Node with pg, one client per connection. */
async function sqlFloor(pool: pg.Pool, floor: Floor): Promise<{ p50: number; p99: number; perSec: number }> {
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.connect()));
  const free = [...clients];
  try {
    return await loop(async () => {
      const client = free.pop()!;
      try {
        const statements = floor.statements();
        if (statements.length === 1) {
          await client.query(statements[0]!.sql, statements[0]!.params);
        } else {
          await client.query("begin");
          for (const s of statements) await client.query(s.sql, s.params);
          await client.query("commit");
        }
      } finally {
        free.push(client);
      }
    });
  } finally {
    for (const c of clients) c.release();
  }
}

/**
 * The same SQL sent from Node to the local Neon endpoint's HTTP /sql, as the Worker's driver sends it (one
 * request; a batch for writes): shows what the local stand-in for Neon's proxy adds over plain pg.
 */
async function neonFloor(neon: NeonLocal, url: string, floor: Floor) {
  const headers = {
    "content-type": "application/json",
    "neon-connection-string": url,
    "neon-raw-text-output": "true",
    "neon-array-mode": "true",
  };
  return loop(async () => {
    const statements = floor.statements().map((q) => ({ query: q.sql, params: q.params }));
    const body = statements.length === 1 ? statements[0] : { queries: statements };
    const res = await fetch(`${neon.url}/sql`, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`local Neon endpoint answered ${res.status}: ${text.slice(0, 300)}`);
  });
}

/** EXPLAIN (ANALYZE, BUFFERS) of every statement; writes run inside a rolled-back transaction. */
async function explain(pool: pg.Pool, floor: Floor): Promise<string> {
  const client = await pool.connect();
  const out: string[] = [];
  try {
    const statements = floor.statements();
    const write = statements.length > 1;
    if (write) await client.query("begin");
    for (const s of statements) {
      const params = s.params.length ? `\n-- params: ${JSON.stringify(s.params)}` : "";
      out.push(`-- ${s.sql.replace(/\s+/g, " ").trim()}${params}`);
      if (!EXPLAINABLE.test(s.sql)) {
        await client.query(s.sql, s.params);
        out.push("(not explainable: run as is)\n");
        continue;
      }
      const plan = await client.query<{ "QUERY PLAN": string }>(
        `explain (analyze, buffers) ${s.sql}`,
        s.params,
      );
      out.push(plan.rows.map((r) => r["QUERY PLAN"]).join("\n"), "");
    }
    if (write) await client.query("rollback");
  } finally {
    client.release();
  }
  return out.join("\n");
}

function seqScans(plan: string): string[] {
  const found = new Set<string>();
  for (const m of plan.matchAll(/Seq Scan on (\w+)/g)) if (BIG_TABLES.includes(m[1]!)) found.add(m[1]!);
  return [...found];
}

/** Statements EXPLAIN accepts; anything else (`set local ...`) is run as is. */
const EXPLAINABLE = /^\s*(select|insert|update|delete|with)\b/i;

const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface PgTiming {
  /** Medians over the measured runs, ms; a write's statements are summed per run. */
  planningMs: number;
  executionMs: number;
  totalMs: number;
  runs: number;
}

/**
 * PostgreSQL's own planning and execution time for the scenario's SQL: EXPLAIN (ANALYZE, TIMING OFF, FORMAT
 * JSON) run PG_TIMING_WARMUP + PG_TIMING_RUNS times on one connection, the medians of the measured runs.
 * TIMING OFF leaves out the per-node clock reads, which would otherwise inflate the execution time; the totals
 * are the same "Planning Time" and "Execution Time" EXPLAIN ANALYZE reports. A write's statements run in a
 * transaction that is rolled back each time.
 */
async function pgTiming(pool: pg.Pool, floor: Floor): Promise<PgTiming> {
  const client = await pool.connect();
  const planning: number[] = [];
  const execution: number[] = [];
  const total: number[] = [];
  try {
    for (let i = 0; i < PG_TIMING_WARMUP + PG_TIMING_RUNS; i++) {
      const statements = floor.statements();
      const write = statements.length > 1;
      let plan = 0;
      let exec = 0;
      if (write) await client.query("begin");
      try {
        for (const s of statements) {
          if (!EXPLAINABLE.test(s.sql)) {
            await client.query(s.sql, s.params);
            continue;
          }
          const res = await client.query<{ "QUERY PLAN": unknown }>(
            `explain (analyze, timing off, format json) ${s.sql}`,
            s.params,
          );
          const raw = res.rows[0]!["QUERY PLAN"];
          const doc = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{
            "Planning Time": number;
            "Execution Time": number;
          }>;
          plan += doc[0]!["Planning Time"];
          exec += doc[0]!["Execution Time"];
        }
      } finally {
        if (write) await client.query("rollback");
      }
      if (i >= PG_TIMING_WARMUP) {
        planning.push(plan);
        execution.push(exec);
        total.push(plan + exec);
      }
    }
  } finally {
    client.release();
  }
  return {
    planningMs: median(planning),
    executionMs: median(execution),
    totalMs: median(total),
    runs: total.length,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The Worker's CPU time

interface CpuUse {
  /** Clock ticks of utime + stime over the load run (and SETTLE_MS after it). */
  ticks: number;
  cpuMs: number;
  /** Responses received in the load run. */
  requests: number;
  perRequestMs: number;
  /** One clock tick spread over the run's requests: the figure's resolution. */
  resolutionMs: number;
  pids: number[];
}

interface Measured {
  api: LoadResult;
  /** The API Worker's workerd (null when not found). */
  cpu: CpuUse | null;
  /** wrangler dev's proxy workerd in front of it (information; null when there is none). */
  devProxyCpu: CpuUse | null;
}

/**
 * One measured load run of `request` (see load), with the CPU time workerd spent over it: the same
 * mechanism for every scenario and for the health floor.
 */
async function measure(origin: string, request: RequestSpec): Promise<Measured> {
  const before = workerds(wrangler?.pid, wranglerPort);
  const api = await load(origin, request);
  await sleep(SETTLE_MS);
  const after = new Map(workerds(wrangler?.pid, wranglerPort).map((w) => [w.pid, w]));
  const requests = api.responses;
  const use = (role: Workerd["role"]): CpuUse | null => {
    const pairs = before
      .filter((w) => w.role === role && after.get(w.pid)?.role === role)
      .map((w) => [w, after.get(w.pid)!] as const);
    if (pairs.length === 0 || requests === 0) return null;
    const ticks = pairs.reduce((n, [b, a]) => n + a.ticks - b.ticks, 0);
    const cpuMs = ticks * TICK_MS;
    return {
      ticks,
      cpuMs,
      requests,
      perRequestMs: cpuMs / requests,
      resolutionMs: TICK_MS / requests,
      pids: pairs.map(([b]) => b.pid),
    };
  };
  return { api, cpu: use("worker"), devProxyCpu: use("dev-proxy") };
}

// ---------------------------------------------------------------------------------------------------------
// The stack

let wrangler: ChildProcess | null = null;
/** The port `wrangler dev` serves on (its dev proxy's workerd listens there). */
let wranglerPort: number | null = null;

function killWrangler(signal: NodeJS.Signals): void {
  if (wrangler?.pid === undefined) return;
  try {
    process.kill(-wrangler.pid, signal);
  } catch {
    // Already gone.
  }
}

async function stopWrangler(): Promise<void> {
  const child = wrangler;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  killWrangler("SIGTERM");
  const done = await Promise.race([exited.then(() => true), sleep(8_000).then(() => false)]);
  killWrangler(done ? "SIGTERM" : "SIGKILL");
}

/** Whether the stack answers its health route. */
async function answers(origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/v1/health`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function startWrangler(port: number, vars: Record<string, string>): Promise<number> {
  rmSync(PERSIST_DIR, { recursive: true, force: true });
  const log: string[] = [];
  const started = performance.now();
  if (RATE_LIMITS_COUNTED) {
    // The same bindings, each with a limit no bench reaches: every request is still counted by its binding.
    const raised = readFileSync("wrangler.toml", "utf8").replace(
      /simple = \{ limit = \d+, period = (\d+) \}/g,
      "simple = { limit = 1000000000, period = $1 }",
    );
    writeFileSync(COUNTED_CONFIG, raised);
  }
  const child = await spawnWranglerDev({
    config: RATE_LIMITS_COUNTED ? COUNTED_CONFIG : "wrangler.toml",
    // The Workers its service bindings name: the MCP Worker serves the MCP requests measured here.
    auxiliary: apiServiceConfigs(vars),
    port,
    vars,
    persistTo: PERSIST_DIR,
    extraArgs: ["--log-level", "warn"],
  });
  wrangler = child;
  wranglerPort = port;
  const keep = (chunk: Buffer) => {
    log.push(chunk.toString());
    writeFileSync(WRANGLER_LOG, log.join(""));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`wrangler dev exited (${child.exitCode}); see ${WRANGLER_LOG}`);
    try {
      const res = await fetch(`${origin}/v1/health`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // Not up yet.
    }
    await sleep(100);
  }
  throw new Error(`wrangler dev did not answer within 180 s; see ${WRANGLER_LOG}`);
}

/** Signs `member` in through the API (POST /v1/auth/sessions) and returns the session token. */
async function signIn(origin: string, member: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${origin}/v1/auth/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 201 || !body.token) {
    throw new Error(`signing in ${member.email} answered ${res.status}: ${JSON.stringify(body)}`);
  }
  return body.token;
}

/** Rows the bench itself wrote in gallery A (creates, idempotency claims, its keys). */
async function cleanUp(pool: pg.Pool, galleryId: string): Promise<void> {
  await pool.query(
    `delete from domain_events where gallery_id = $1 and resource_type = 'artwork'
       and resource_id in (select id from artworks where gallery_id = $1 and source_system = 'bench')`,
    [galleryId],
  );
  await pool.query("delete from artworks where gallery_id = $1 and source_system = 'bench'", [galleryId]);
  await pool.query("delete from idempotency_keys where gallery_id = $1", [galleryId]);
  await pool.query("delete from api_keys where gallery_id = $1", [galleryId]);
  await pool.query("delete from sessions where gallery_id = $1", [galleryId]);
}

// ---------------------------------------------------------------------------------------------------------
// Report

interface Row {
  name: string;
  title: string;
  kind: Scenario["kind"];
  requests: number;
  responses: number;
  /** Requests that got no response (connection errors, timeouts). */
  errors: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  unexpected: number;
  statuses: Record<string, number>;
  dbHttpRequests: number;
  dbWsConnections: number;
  /** Round trips over the requests the Worker received (LoadResult.served), not over the requests sent. */
  roundTripsPerRequest: number;
  cache?: string;
  sqlFloorP50: number | null;
  sqlFloorP99: number | null;
  sqlFloorNote?: string;
  /** The same SQL from Node through the local Neon endpoint's HTTP /sql: the SQL part of the ratio's floor. */
  viaNeonLocalP50: number | null;
  healthFloorP50: number;
  /** API p50 / (viaNeonLocalP50 + healthFloorP50); without SQL, API p50 / healthFloorP50. */
  ratio: number;
  /** The API Worker's workerd: CPU time over the scenario's load run, per response (null when not found). */
  workerCpu: CpuUse | null;
  /** wrangler dev's proxy workerd in front of the Worker, measured the same way (information). */
  devProxyCpu: CpuUse | null;
  /** workerCpu.perRequestMs / the health route's. */
  cpuOverHealth: number | null;
  /** PostgreSQL's planning + execution time of the scenario's SQL (null without SQL). */
  pg: PgTiming | null;
  limits?: Limits;
  seqScans: string[];
}

interface Target {
  target: string;
  value: string;
  met: boolean;
  note?: string;
}

const ms = (n: number | null) => (n === null || Number.isNaN(n) ? "—" : `${n.toFixed(n < 10 ? 2 : 1)} ms`);
/** Sub-millisecond figures (CPU time, PostgreSQL's own timings). */
const msFine = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n) ? "—" : `${n.toFixed(n < 1 ? 3 : 2)} ms`;
const num = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
/** autocannon reports whole milliseconds: a 0 ms floor makes the ratio meaningless rather than infinite. */
const ratioOf = (api: number, floors: number) => (floors > 0 ? api / floors : Number.NaN);

/**
 * The MCP endpoint (functions/mcp/): `tools/list` and a tool call's Worker CPU beside the same operation's HTTP
 * request, and what the endpoint adds to the API Worker's bundle.
 */
function mcpSection(rows: Row[], healthCpu: CpuUse | null, share: McpBundleShare | null): string[] {
  const row = (name: string) => rows.find((r) => r.name === name);
  const list = row("mcp-tools-list");
  const call = row("mcp-artworks-default");
  const http = row("artworks-default");
  if (!list && !call) return [];
  const cpu = (r: Row | undefined) => msFine(r?.workerCpu?.perRequestMs);
  const over = (a: Row | undefined, b: Row | undefined) =>
    a?.workerCpu && b?.workerCpu && b.workerCpu.perRequestMs > 0
      ? `${num(a.workerCpu.perRequestMs / b.workerCpu.perRequestMs)}×`
      : "—";
  return [
    "## MCP (`POST /v1/mcp`)",
    "",
    "| request | Worker CPU / req | over | p50 |",
    "| --- | ---: | ---: | ---: |",
    `| \`GET /v1/health\` | ${msFine(healthCpu?.perRequestMs)} | | |`,
    ...(list
      ? [
          `| ${list.title} | ${cpu(list)} | ${list.cpuOverHealth === null ? "—" : `${num(list.cpuOverHealth)}× health`} | ${ms(list.p50)} |`,
        ]
      : []),
    ...(http ? [`| HTTP: ${http.title} | ${cpu(http)} | | ${ms(http.p50)} |`] : []),
    ...(call
      ? [`| ${call.title} | ${cpu(call)} | ${over(call, http)} the HTTP request | ${ms(call.p50)} |`]
      : []),
    "",
    share
      ? `What the endpoint adds to the API Worker's bundle: ${share.minifiedKiB} KiB of the minified ${share.totalKiB} KiB (\`wrangler deploy --dry-run --metafile\`: functions/mcp/, lib/mcp.ts, lib/bundle/mcp-validator.ts, @modelcontextprotocol/sdk, @cfworker/json-schema), the gate and the tools' catalogue; the server and the SDK are the MCP Worker's, in the table above (docs/decisions.md, "Bundles and startup, per Worker").`
      : "What the endpoint adds to the API Worker's bundle: not measured (wrangler wrote no metafile).",
    "",
  ];
}

function markdown(report: {
  when: string;
  mode: string;
  dataset: string;
  seed: string;
  rows: Row[];
  targets: Target[];
  bundle: {
    totalKiB: number | null;
    gzipKiB: number | null;
    mcp: McpBundleShare | null;
    workers: Omit<WorkerBundle, "size" | "top">[];
  };
  startup: string;
  health: LoadResult;
  healthCpu: CpuUse | null;
  healthDevProxyCpu: CpuUse | null;
  cpuClock: { clkTck: number; tickMs: number };
}): string {
  const proxy = report.rows
    .map((r) => r.devProxyCpu?.perRequestMs)
    .filter((n): n is number => n !== undefined);
  const proxyNote =
    report.healthDevProxyCpu && proxy.length
      ? [
          `wrangler dev puts a proxy (a second workerd, on the dev port) in front of the Worker's workerd; it is not`,
          `counted above. It used ${msFine(report.healthDevProxyCpu.perRequestMs)} / request on the health route and ${msFine(Math.min(...proxy))}–${msFine(Math.max(...proxy))} across`,
          "the scenarios (`devProxyCpu` in latest.json). Deployed Workers have no such proxy.",
        ]
      : [];
  const resolutions = [report.healthCpu, ...report.rows.map((r) => r.workerCpu)]
    .filter((c): c is CpuUse => c !== null)
    .map((c) => c.resolutionMs);
  const worstResolution = resolutions.length ? Math.max(...resolutions) : null;
  const healthCpu = report.healthCpu;
  const lines = [
    "# Benchmark results",
    "",
    `${report.when} · ${report.mode} · ${report.dataset}`,
    "",
    "| scenario | req/s | p50 | p99 | DB round trips / req | SQL floor p50 | health floor p50 | ratio API p50 / (Neon /sql + health) | same SQL via local Neon /sql p50 | Worker CPU / req | CPU ÷ health CPU | PostgreSQL plan + exec |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...report.rows.map(
      (r) =>
        `| ${r.title}${r.unexpected ? ` (**${r.unexpected} unexpected statuses**: ${JSON.stringify(r.statuses)})` : ""}${r.errors ? ` (**${r.errors} requests without a response**)` : ""} | ${num(r.reqPerSec, 0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${num(r.roundTripsPerRequest, 3)}${r.dbWsConnections ? ` (+${r.dbWsConnections} ws)` : ""} | ${r.sqlFloorP50 === null ? `— (${r.sqlFloorNote})` : ms(r.sqlFloorP50)} | ${ms(r.healthFloorP50)} | ${num(r.ratio)} | ${ms(r.viaNeonLocalP50)} | ${msFine(r.workerCpu?.perRequestMs)} | ${r.cpuOverHealth === null ? "—" : `${num(r.cpuOverHealth)}×`} | ${r.pg ? `${msFine(r.pg.totalMs)} (plan ${msFine(r.pg.planningMs)}, exec ${msFine(r.pg.executionMs)})` : "—"} |`,
    ),
    "",
    `Health floor: \`GET /v1/health\`, ${num(report.health.reqPerSec, 0)} req/s, p50 ${ms(report.health.p50)}, p99 ${ms(report.health.p99)}, Worker CPU ${healthCpu ? `${msFine(healthCpu.perRequestMs)} / request (${healthCpu.ticks} ticks over ${healthCpu.requests.toLocaleString("en-US")} requests)` : "not measured (workerd not found)"}.`,
    `Bundle: ${report.bundle.totalKiB ?? "?"} KiB, gzip ${report.bundle.gzipKiB ?? "?"} KiB (\`wrangler deploy --dry-run\`). Startup: ${report.startup}.`,
    "",
    "Each Worker's bundle and startup (`npm run bench:bundles` has their largest inputs):",
    "",
    ...bundleTable(report.bundle.workers),
    "",
    ...mcpSection(report.rows, report.healthCpu, report.bundle.mcp),
    "## Targets",
    "",
    "| target | measured | |",
    "| --- | --- | --- |",
    ...report.targets.map(
      (t) => `| ${t.target} | ${t.value} | ${t.met ? "met" : `**missed**${t.note ? `: ${t.note}` : ""}`} |`,
    ),
    "",
    "Round trips are HTTP requests (plus WebSocket connections) counted at the local Neon endpoint during the",
    "scenario, divided by the requests the Worker received (those sent, less those a connection error dropped:",
    "autocannon counts a request again on every reconnection). Fewer round trips than responses fails the run",
    "unless the scenario names the cache that answers it (the SQL floor column says which). The SQL floor runs the",
    "scenario's SQL (rebuilt with the",
    "route's own db/queries builder) directly with `pg` from Node over the same connections and duration",
    '(information only). "Same SQL via local Neon /sql" posts that SQL from Node to the local Neon endpoint\'s',
    "HTTP `/sql`, as the Worker's driver does, over the same connections and duration. The health floor is a",
    "constant-response route of the same Worker. Ratio = API p50 / (same SQL via local Neon /sql p50 + health",
    "floor p50); without SQL, API p50 / health floor p50. autocannon reports whole milliseconds.",
    "",
    "Worker CPU / req: user + system CPU time of the workerd process running the Worker under `wrangler dev`",
    "(found by walking parent links in /proc from wrangler's pid), read from `/proc/<pid>/stat` (utime + stime) just",
    `before the scenario's load run and ${SETTLE_MS} ms after it, divided by the responses received in the run.`,
    `Resolution: one clock tick (${num(report.cpuClock.tickMs, 0)} ms, CLK_TCK ${report.cpuClock.clkTck}) over the whole run${worstResolution === null ? "" : `, at most ${msFine(worstResolution)} per request in this run`}.`,
    'The health route (`GET /v1/health`) measured the same way is the CPU floor; "CPU ÷ health CPU" is the',
    "scenario's figure over it. workerd's CPU time includes its share of the HTTP work on both sides (the",
    "incoming request, the fetch to the local Neon endpoint), not only the route's JavaScript.",
    ...proxyNote,
    "",
    `PostgreSQL plan + exec: "Planning Time" + "Execution Time" of \`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON)\` of`,
    `the scenario's SQL, medians over ${PG_TIMING_RUNS} runs after ${PG_TIMING_WARMUP} unmeasured ones on one connection (a write's`,
    "statements summed, in a rolled-back transaction); the total is the median of the per-run sums, so plan and",
    "exec (their own medians) need not add up to it exactly. TIMING OFF leaves out per-node clock reads. Plans:",
    "`bench/results/plans/<scenario>.txt` (EXPLAIN (ANALYZE, BUFFERS)).",
    "",
    `Seed: ${report.seed}.`,
    "",
  ];
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  process.chdir(ROOT);
  mkdirSync(PLANS_DIR, { recursive: true });
  say(
    `${QUICK ? "quick mode: " : ""}${CONNECTIONS} connections × ${DURATION_S} s per scenario; data in ${BENCH_DATA_DIR}`,
  );
  const db = await startBenchDatabase();
  let neon: NeonLocal | null = null;
  const pool = new pg.Pool({ connectionString: db.url, max: CONNECTIONS + 2 });
  let closing = false;
  // Connections being closed while the bench database stops may be terminated by it first: not a failure.
  pool.on("error", (err) => {
    if (!closing) console.error(`[bench] database connection error: ${err.message}`);
  });
  const gallery = BENCH_GALLERIES[0]!;
  try {
    await migrateDatabase(db.url);
    const seedStarted = performance.now();
    await cleanUp(pool, gallery.id).catch(() => {});
    const seeded = await seedBench(db.url, (m) => say(m));
    const seedNote = seeded.seeded
      ? `seeded in ${seeded.seconds.toFixed(1)} s`
      : `reused (checked in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s)`;
    say(`bench data ${seedNote}`);

    const client = await pool.connect();
    let minted: { id: string; token: string };
    let publishable: { token: string };
    try {
      minted = await insertApiKey(client, {
        galleryId: gallery.id,
        kind: "secret",
        name: "Bench key (all scopes)",
        scopes: allScopes,
      });
      publishable = await insertApiKey(client, {
        galleryId: gallery.id,
        kind: "publishable",
        name: "Bench publishable token",
        scopes: PUBLISHABLE_SCOPES,
      });
    } finally {
      client.release();
    }
    const signingSecret = randomBytes(32).toString("base64url");

    neon = await startNeonLocal({ port: 0, log: (m) => console.error(`[neon-local] ${m}`) });
    const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
    say(`starting wrangler dev on 127.0.0.1:${port}`);
    const wranglerVars = {
      DATABASE_URL: db.url,
      NEON_LOCAL_ENDPOINT: neon.url,
      SIGNING_SECRET: signingSecret,
      ENVIRONMENT: "local",
      // The bench drives one key far past its rate limit on purpose: it measures the API's own cost, so the limits
      // are not counted here (honoured only in local mode; lib/rate-limits.ts), unless BENCH_RATE_LIMITS=counted.
      ...(RATE_LIMITS_COUNTED ? {} : { RATE_LIMITS: "off" }),
    };
    const firstOkMs = await startWrangler(port, wranglerVars);
    const origin = `http://127.0.0.1:${port}`;
    say(`API answered 200 ${(firstOkMs / 1000).toFixed(1)} s after wrangler dev was spawned`);

    const ctx: Context = {
      pool,
      origin,
      galleryId: gallery.id,
      keyId: minted.id,
      secretKey: minted.token,
      publishableToken: publishable.token,
      sessionToken: await signIn(origin, benchInboxMember(gallery)),
      signingSecret,
    };
    const list = (await scenarios(ctx)).filter(
      (s) => ONLY.length === 0 || ONLY.some((name) => s.name === name || s.name.startsWith(name)),
    );
    if (list.length === 0) throw new Error(`BENCH_ONLY=${ONLY.join(",")} names no scenario`);

    say("health floor: GET /v1/health");
    const healthReq: RequestSpec = { method: "GET", path: "/v1/health" };
    await warm(origin, healthReq, WARMUP_PER_CONNECTION);
    const { api: health, cpu: healthCpu, devProxyCpu: healthDevProxyCpu } = await measure(origin, healthReq);
    if (!healthCpu) say("workerd not found under wrangler dev's process: no Worker CPU figures");
    say(
      `  ${num(health.reqPerSec, 0)} req/s, p50 ${ms(health.p50)}, Worker CPU ${msFine(healthCpu?.perRequestMs)}/req`,
    );

    const rows: Row[] = [];
    const failures: string[] = [];
    for (const s of list) {
      say(`${s.title}`);
      // wrangler dev's proxy process has been seen to exit without a word after minutes of load (the Worker
      // behind it keeps running); a scenario is measured against a stack that answers, so restart it.
      if (!(await answers(origin))) {
        say("  wrangler dev stopped answering: restarting it");
        await stopWrangler();
        await startWrangler(port, wranglerVars);
      }
      await warm(origin, s.request, s.warmup);
      await sleep(200);
      neon.resetStats();
      let { api, cpu, devProxyCpu } = await measure(origin, s.request);
      // A stack that stopped answering during the run leaves a run of refused connections, not a measurement:
      // measured again on a restarted one.
      if (api.errors > 0 && !(await answers(origin))) {
        say(
          `  wrangler dev stopped answering during the run (${api.errors} requests unanswered): restarting it, measuring again`,
        );
        await stopWrangler();
        await startWrangler(port, wranglerVars);
        await warm(origin, s.request, s.warmup);
        await sleep(200);
        neon.resetStats();
        ({ api, cpu, devProxyCpu } = await measure(origin, s.request));
      }
      const stats = neon.stats();
      const unexpected = Object.entries(api.statuses)
        .filter(([code]) => Number(code) !== s.expectStatus)
        .reduce((n, [, c]) => n + c, 0);
      if (api.responses === 0 || unexpected > 0 || api.errors > 0) {
        failures.push(
          `${s.name}: ${unexpected} unexpected statuses ${JSON.stringify(api.statuses)}, ${api.errors} requests without a response`,
        );
      }
      let floorP50: number | null = null;
      let floorP99: number | null = null;
      let viaNeonP50: number | null = null;
      let pgTime: PgTiming | null = null;
      let scans: string[] = [];
      if (s.floor) {
        if (!s.explainOnly) {
          const f = await sqlFloor(pool, s.floor);
          floorP50 = f.p50;
          floorP99 = f.p99;
          viaNeonP50 = (await neonFloor(neon, db.url, s.floor)).p50;
        }
        const plan = await explain(pool, s.floor);
        writeFileSync(join(PLANS_DIR, `${s.name}.txt`), `-- scenario: ${s.title}\n${plan}\n`);
        scans = seqScans(plan);
        pgTime = await pgTiming(pool, s.floor);
      }
      const row: Row = {
        name: s.name,
        title: s.title,
        kind: s.kind,
        requests: api.requests,
        responses: api.responses,
        errors: api.errors,
        reqPerSec: api.reqPerSec,
        p50: api.p50,
        p99: api.p99,
        unexpected,
        statuses: api.statuses,
        dbHttpRequests: stats.httpRequests,
        dbWsConnections: stats.wsConnections,
        roundTripsPerRequest: (stats.httpRequests + stats.wsConnections) / Math.max(1, api.served),
        ...(s.cache ? { cache: s.cache } : {}),
        sqlFloorP50: floorP50,
        sqlFloorP99: floorP99,
        viaNeonLocalP50: viaNeonP50,
        ...(s.noFloorReason || s.cache
          ? { sqlFloorNote: s.noFloorReason ?? `answered from ${s.cache}, no SQL` }
          : {}),
        healthFloorP50: health.p50,
        ratio: ratioOf(api.p50, (viaNeonP50 ?? 0) + health.p50),
        workerCpu: cpu,
        devProxyCpu,
        cpuOverHealth:
          cpu && healthCpu && healthCpu.perRequestMs > 0 ? cpu.perRequestMs / healthCpu.perRequestMs : null,
        pg: pgTime,
        ...(s.limits ? { limits: s.limits } : {}),
        seqScans: scans,
      };
      rows.push(row);
      say(
        `  ${num(api.reqPerSec, 0)} req/s, p50 ${ms(api.p50)}, p99 ${ms(api.p99)}, ${num(row.roundTripsPerRequest, 3)} DB round trips/req, SQL floor p50 ${ms(floorP50)}, via local Neon /sql p50 ${ms(viaNeonP50)}, ratio ${num(row.ratio)}, Worker CPU ${msFine(cpu?.perRequestMs)}/req (${row.cpuOverHealth === null ? "—" : `${num(row.cpuOverHealth)}×`} health), PostgreSQL plan + exec ${msFine(pgTime?.totalMs)}${scans.length ? `, SEQ SCAN on ${scans.join(", ")}` : ""}`,
      );
    }

    say("bundles: wrangler deploy --dry-run and wrangler check startup of each Worker");
    const workers = await measureWorkers({ startupRuns: 3 });
    for (const w of workers)
      say(`  ${w.worker}: ${w.totalKiB} KiB, gzip ${w.gzipKiB} KiB, startup ${w.startupMs} ms`);
    const bundle = workers.find((w) => w.worker === "API")!.size;
    const mcpShare = bundleShare(bundle, MCP_BUNDLE_INPUTS);
    const startup = `${bundle.startupMs ?? "?"} ms of the API Worker's global scope (\`wrangler check startup\`, the least of 3 profiles); ${(firstOkMs / 1000).toFixed(1)} s from spawning \`wrangler dev\` to the first 200 of /v1/health`;

    // Targets
    const targets: Target[] = [];
    const byName = new Map(rows.map((r) => [r.name, r]));
    for (const r of rows) {
      if (r.kind === "read") {
        targets.push({
          target: `${r.title}: reads at most ${TARGETS.readRoundTrips} round trip`,
          value: num(r.roundTripsPerRequest, 3),
          met: r.roundTripsPerRequest <= TARGETS.readRoundTrips + 0.01,
          note: "more than one database round trip per read",
        });
      } else if (r.kind === "write") {
        targets.push({
          target: `${r.title}: writes ≤ ${TARGETS.writeRoundTrips} round trips`,
          value: num(r.roundTripsPerRequest, 3),
          met: r.roundTripsPerRequest <= TARGETS.writeRoundTrips + 0.01,
        });
      } else {
        const touches = r.dbHttpRequests + r.dbWsConnections;
        targets.push({
          target: `${r.title}: ≤ ${TARGETS.badCredentialDbTouches} database touch over the whole run`,
          value: `${touches} over ${r.requests.toLocaleString("en-US")} requests`,
          met: touches <= TARGETS.badCredentialDbTouches,
          note:
            touches <= CONNECTIONS
              ? `${touches} lookups for ${CONNECTIONS} connections starting together: each cold request misses the negative cache before the first lookup's KV put (in waitUntil) lands; lookups are not coalesced`
              : `${touches} lookups: the negative cache is not holding`,
        });
      }
    }
    // Fewer round trips than responses means something answered without the database: a scenario must name the
    // cache that does (Scenario.cache), or the figure is wrong, and either way the run says so and fails.
    for (const r of rows) {
      if (r.cache) continue;
      const trips = r.dbHttpRequests + r.dbWsConnections;
      const met = trips >= r.responses;
      targets.push({
        target: `${r.title}: every request reaches the database (no cache answers it), ≥ 1 round trip per request`,
        value: `${num(r.roundTripsPerRequest, 3)} (${trips} over ${r.responses.toLocaleString("en-US")} responses)`,
        met,
        note: "fewer round trips than responses, and the scenario names no cache",
      });
      if (!met) {
        failures.push(
          `${r.name}: ${trips} database round trips for ${r.responses} responses (${num(r.roundTripsPerRequest, 3)} per request), and no cache is declared to answer it`,
        );
      }
    }
    for (const [firstName, deepName] of TARGETS.deepPairs) {
      const first = byName.get(firstName!);
      const deepRow = byName.get(deepName!);
      if (!first || !deepRow) continue;
      const factor = deepRow.p50 / first.p50;
      targets.push({
        target: `${deepRow.title}: deep page p50 ≤ ${TARGETS.deepOverFirst} × first page p50`,
        value: `${ms(deepRow.p50)} vs ${ms(first.p50)} = ${num(factor)}×`,
        met: factor <= TARGETS.deepOverFirst,
        note: `${num((factor / TARGETS.deepOverFirst - 1) * 100, 0)}% over`,
      });
    }
    for (const r of rows) {
      const viaNeon = r.viaNeonLocalP50;
      targets.push({
        target:
          viaNeon === null
            ? `${r.title}: API p50 ≤ ${TARGETS.apiOverFloors} × health floor p50 (no SQL), ${CONNECTIONS} connections`
            : `${r.title}: API p50 ≤ ${TARGETS.apiOverFloors} × (same SQL via local Neon /sql p50 + health floor p50), ${CONNECTIONS} connections`,
        value:
          viaNeon === null
            ? `${ms(r.p50)} / ${ms(r.healthFloorP50)} = ${num(r.ratio)}×`
            : `${ms(r.p50)} / (${ms(viaNeon)} + ${ms(r.healthFloorP50)}) = ${num(r.ratio)}×`,
        met: r.ratio <= TARGETS.apiOverFloors,
        note: `${num((r.ratio / TARGETS.apiOverFloors - 1) * 100, 0)}% over`,
      });
    }
    // Per-scenario limits (Scenario.limits): Worker CPU against the health route's, PostgreSQL's own time.
    for (const r of rows) {
      const tripsLimit = r.limits?.roundTrips;
      if (tripsLimit !== undefined) {
        targets.push({
          target: `${r.title}: ${tripsLimit} database round trip${tripsLimit === 1 ? "" : "s"} per request`,
          value: `${num(r.roundTripsPerRequest, 3)} (${r.dbHttpRequests + r.dbWsConnections} over ${r.requests.toLocaleString("en-US")} requests)`,
          met: Math.abs(r.roundTripsPerRequest - tripsLimit) <= 0.01,
          note: tripsLimit === 0 ? "the edge cache is not answering" : "not one round trip per request",
        });
      }
      const cpuLimit = r.limits?.cpuOverHealth;
      if (cpuLimit !== undefined) {
        targets.push({
          target: `${r.title}: Worker CPU / request ≤ ${cpuLimit} × health's`,
          value:
            r.cpuOverHealth === null
              ? "not measured (workerd not found)"
              : `${msFine(r.workerCpu?.perRequestMs)} / ${msFine(healthCpu?.perRequestMs)} = ${num(r.cpuOverHealth)}×`,
          met: r.cpuOverHealth !== null && r.cpuOverHealth <= cpuLimit,
          ...(r.cpuOverHealth !== null
            ? { note: `${num((r.cpuOverHealth / cpuLimit - 1) * 100, 0)}% over` }
            : {}),
        });
      }
      const pgLimit = r.limits?.pgMs;
      if (pgLimit !== undefined) {
        targets.push({
          target: `${r.title}: PostgreSQL planning + execution ≤ ${pgLimit} ms at ${gallery.artworks.toLocaleString("en-US")} artworks and ${gallery.contacts.toLocaleString("en-US")} contacts`,
          value: r.pg
            ? `${msFine(r.pg.totalMs)} (plan ${msFine(r.pg.planningMs)}, exec ${msFine(r.pg.executionMs)}; medians of ${r.pg.runs} runs)`
            : "no SQL",
          met: r.pg !== null && r.pg.totalMs <= pgLimit,
          ...(r.pg ? { note: `${num((r.pg.totalMs / pgLimit - 1) * 100, 0)}% over` } : {}),
        });
      }
    }
    targets.push({
      target: `bundle ≤ ${TARGETS.bundleGzipKiB} KB gzip`,
      value: bundle.gzipKiB === null ? "not reported" : `${bundle.gzipKiB} KiB gzip`,
      met: bundle.gzipKiB !== null && bundle.gzipKiB <= TARGETS.bundleGzipKiB,
    });
    const scans = rows.filter((r) => r.seqScans.length > 0);
    targets.push({
      target: `no sequential scan of ${BIG_TABLES.join(", ")} in any plan`,
      value: scans.length ? scans.map((r) => `${r.name}: ${r.seqScans.join(", ")}`).join("; ") : "none",
      met: scans.length === 0,
    });

    const counts = `gallery A ${gallery.artworks.toLocaleString("en-US")} artworks / ${gallery.events.toLocaleString("en-US")} events / ${gallery.contacts.toLocaleString("en-US")} contacts, gallery B ${BENCH_GALLERIES[1]!.artworks.toLocaleString("en-US")} / ${BENCH_GALLERIES[1]!.events.toLocaleString("en-US")} / ${BENCH_GALLERIES[1]!.contacts.toLocaleString("en-US")}`;
    const report = {
      when: new Date().toISOString(),
      mode: `${QUICK ? "quick mode, " : ""}${CONNECTIONS} connections × ${DURATION_S} s, autocannon ${WORKERS ? `in ${WORKERS} worker thread(s)` : "on the main thread"}, ${os.cpus().length} CPUs`,
      dataset: counts,
      seed: seedNote,
      rows,
      targets,
      bundle: {
        totalKiB: bundle.totalKiB,
        gzipKiB: bundle.gzipKiB,
        mcp: mcpShare,
        workers: workers.map(({ size: _, top: __, ...w }) => w),
      },
      startup,
      health,
      healthCpu,
      healthDevProxyCpu,
      cpuClock: { clkTck: CLK_TCK, tickMs: TICK_MS },
    };
    writeFileSync(
      join(RESULTS_DIR, `${RESULTS_NAME}.json`),
      `${JSON.stringify({ ...report, node: process.version }, null, 2)}\n`,
    );
    writeFileSync(join(RESULTS_DIR, `${RESULTS_NAME}.md`), markdown(report));
    console.log(`\n${readFileSync(join(RESULTS_DIR, `${RESULTS_NAME}.md`), "utf8")}`);
    say(`wrote bench/results/${RESULTS_NAME}.md, ${RESULTS_NAME}.json and plans/`);

    for (const r of scans) {
      failures.push(
        `the plan of ${r.name} sequentially scans ${r.seqScans.join(", ")} — see bench/results/plans/${r.name}.txt`,
      );
    }
    for (const f of failures) console.error(`[bench] FAIL: ${f}`);
    return failures.length ? 1 : 0;
  } finally {
    await stopWrangler();
    rmSync(COUNTED_CONFIG, { force: true });
    await neon?.close();
    await cleanUp(pool, gallery.id).catch((err: Error) => console.error(`[bench] clean-up: ${err.message}`));
    closing = true;
    await pool.end();
    await db.stop();
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    killWrangler("SIGKILL");
    process.exit(130);
  });
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`[bench] failed: ${err.stack ?? err.message}`);
    killWrangler("SIGKILL");
    process.exit(1);
  },
);
