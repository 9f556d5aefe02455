/**
 * `npm run bench:webhooks`: webhook delivery at platform scale, measured locally end to end.
 *
 * - Its own embedded PostgreSQL (.data/bench-webhooks-postgres, BENCH_WEBHOOK_DATA_DIR), migrated, the local Neon
 *   endpoint, and the cron Worker under `wrangler dev` as `npm start` runs it (scripts/wrangler.ts
 *   `localCronConfig()`, `--test-scheduled`); one tick is `GET /__scheduled`, called every BENCH_WEBHOOK_TICK_MS
 *   (default 60,000, the production cadence).
 * - A real HTTP receiver in this process: every request is verified with the `standardwebhooks` package and
 *   recorded with its arrival time and `webhook-id`; an endpoint answers 200 at once, 200 after a delay (beyond the
 *   15 s send timeout, or within it), or 500.
 * - Galleries inserted in SQL, endpoints with sealed secrets as the API stores them: a bursting gallery (one
 *   healthy endpoint, BENCH_WEBHOOK_BURST events written to the outbox in a few large inserts), quiet galleries
 *   (one event every BENCH_WEBHOOK_QUIET_MS each), a gallery whose endpoint times out beside a healthy one, one
 *   whose endpoint answers 500 beside a healthy one, and one whose endpoint is slow but within the timeout.
 * - Phases: (a) baseline, the quiet galleries alone for BENCH_WEBHOOK_BASELINE_TICKS ticks; (b) the burst beside
 *   them with the slow and failing endpoints, until every healthy endpoint has every event, or
 *   BENCH_WEBHOOK_TIMEOUT_S.
 * - Reports deliveries per minute, per gallery lag (first successful arrival − the event's created_at), the quiet
 *   galleries' lag beside the burst against their baseline, counts (nothing lost, nothing doubled), verification
 *   failures, what the slow and failing endpoints got, and the peak memory (VmHWM) of the cron session's workerd.
 *
 * Results: bench/results/webhooks.md and webhooks.json (BENCH_WEBHOOK_RESULTS names others). Wrangler's output: .data/bench-webhooks-wrangler.log.
 * Everything it starts is stopped on exit, on failure and on Ctrl-C.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { text } from "node:stream/consumers";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { newId } from "../lib/ids";
import { migrateDatabase } from "../scripts/migrate";
import { startNeonLocal } from "../scripts/neon-local";
import { type Database, freePort, startDatabase } from "../scripts/postgres";
import { localCronConfig, spawnWranglerDev, stopChild } from "../scripts/wrangler";
import { DEFAULT_TIMEOUT_MS } from "../services/webhooks/delivery";
import { newWebhookSecret, sealWebhookSecret } from "../services/webhooks/secret";
import { lifecycle } from "./lifecycle";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS_DIR = join(ROOT, "bench", "results");
const WRANGLER_LOG = join(ROOT, ".data", "bench-webhooks-wrangler.log");
const PERSIST_DIR = ".data/bench-webhooks-wrangler";
/** The results' file name, without extension (BENCH_WEBHOOK_RESULTS): a comparison run can keep its own. */
const RESULTS_NAME = process.env.BENCH_WEBHOOK_RESULTS ?? "webhooks";

const envNum = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
};
const DATA_DIR = process.env.BENCH_WEBHOOK_DATA_DIR ?? ".data/bench-webhooks-postgres";
const BURST = Math.round(envNum("BENCH_WEBHOOK_BURST", 10_000));
const TICK_MS = envNum("BENCH_WEBHOOK_TICK_MS", 60_000);
const QUIET_MS = envNum("BENCH_WEBHOOK_QUIET_MS", 2_000);
const QUIET_GALLERIES = Math.max(3, Math.round(envNum("BENCH_WEBHOOK_QUIET_GALLERIES", 3)));
const BASELINE_TICKS = Math.max(1, Math.round(envNum("BENCH_WEBHOOK_BASELINE_TICKS", 2)));
/** The slow endpoint's answer: by default beyond the send timeout, so every send to it times out. */
const SLOW_MS = envNum("BENCH_WEBHOOK_SLOW_MS", DEFAULT_TIMEOUT_MS + 5_000);
/** The slow-but-within-timeout endpoint's answer (gallery W); 0 leaves that gallery out. */
const SLOW_OK_MS = envNum("BENCH_WEBHOOK_SLOW_OK_MS", 2_000);
/** Longest phase (b) may take, from the burst's insert. */
const TIMEOUT_S = envNum("BENCH_WEBHOOK_TIMEOUT_S", 360);
/** The burst is written in this many inserts. */
const BURST_INSERTS = 4;
const MEMORY_SAMPLE_MS = 1_000;
const READY_TIMEOUT_MS = 120_000;
/** Gallery ids of this bench start with it; an earlier run's galleries are deleted at the start. */
const GALLERY_PREFIX = "gal_whbench_";
const RUN = Date.now().toString(36);

const say = (msg: string) => console.log(`[bench:webhooks] ${msg}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// Lifecycle (bench/lifecycle.ts): every part registers how to stop it; stopping runs those in reverse order, once.

const { parts, stopping: isStopping, stopAll, takeSignals } = lifecycle("bench:webhooks");
takeSignals();
process.on("uncaughtException", (err) => void stopAll(1, `unexpected error: ${err.stack ?? err.message}`));
process.on(
  "unhandledRejection",
  (err) => void stopAll(1, `unexpected error: ${(err as Error)?.stack ?? err}`),
);

/** A terminal Ctrl-C reaches Postgres too; its pid file going away is the sign that it is down. */
async function stopDatabase(db: Database): Promise<void> {
  const pidFile = resolve(ROOT, DATA_DIR, "postmaster.pid");
  await Promise.race([
    db.stop(),
    (async () => {
      const deadline = Date.now() + 20_000;
      while (existsSync(pidFile) && Date.now() < deadline) await sleep(100);
    })(),
  ]);
}

// ---------------------------------------------------------------------------------------------------------
// The receiver

type Mode = "ok" | "slow" | "fail";

interface BenchEndpoint {
  id: string;
  galleryKey: string;
  role: string;
  mode: Mode;
  delayMs: number;
  secret: string;
  /** Healthy endpoints must get every event of their gallery. */
  healthy: boolean;
}

interface Arrival {
  webhookId: string;
  at: number;
  verified: boolean;
  /** The receiver's answer reached the sender as a 2xx (not cut off by the sender's timeout). */
  ok: boolean;
  /** The sender closed the connection before the answer. */
  cutOff: boolean;
}

interface Receiver {
  url: string;
  arrivals: Map<string, Arrival[]>;
  verificationFailures: { endpointId: string; error: string }[];
  unknownPaths: number;
  close(): Promise<void>;
}

/** Each endpoint at its own path `/<endpoint id>`, answering as its mode says. */
async function startReceiver(endpoints: Map<string, BenchEndpoint>): Promise<Receiver> {
  const arrivals = new Map<string, Arrival[]>();
  const verificationFailures: Receiver["verificationFailures"] = [];
  const hooks = new Map<string, Webhook>();
  let unknownPaths = 0;

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const at = Date.now();
    let closedEarly = false;
    res.on("close", () => {
      if (!res.writableFinished) closedEarly = true;
    });
    const body = await text(req).catch(() => "");
    const endpoint = endpoints.get((req.url ?? "/").slice(1));
    if (!endpoint) {
      unknownPaths += 1;
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    let verified = false;
    try {
      let hook = hooks.get(endpoint.id);
      if (!hook) {
        hook = new Webhook(endpoint.secret);
        hooks.set(endpoint.id, hook);
      }
      const event = hook.verify(body, headers) as { id?: string };
      verified = event.id === headers["webhook-id"];
      if (!verified) verificationFailures.push({ endpointId: endpoint.id, error: "body id ≠ webhook-id" });
    } catch (err) {
      verificationFailures.push({ endpointId: endpoint.id, error: (err as Error).message });
    }
    const arrival: Arrival = {
      webhookId: headers["webhook-id"] ?? "",
      at,
      verified,
      ok: false,
      cutOff: false,
    };
    const list = arrivals.get(endpoint.id) ?? [];
    list.push(arrival);
    arrivals.set(endpoint.id, list);

    if (endpoint.mode === "fail") {
      res.writeHead(500, { "content-type": "text/plain" }).end("bench: failing endpoint");
      return;
    }
    if (endpoint.delayMs > 0) await sleep(endpoint.delayMs);
    if (closedEarly || res.destroyed) {
      arrival.cutOff = true;
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("ok", () => {
      arrival.ok = !closedEarly;
      arrival.cutOff = closedEarly;
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => r());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    verificationFailures,
    get unknownPaths() {
      return unknownPaths;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The galleries and their events

interface BenchGallery {
  key: string;
  id: string;
  kind: "burst" | "quiet" | "slow" | "failing" | "slow-ok";
  endpoints: BenchEndpoint[];
}

type Phase = "baseline" | "burst";

interface EventInfo {
  galleryKey: string;
  createdMs: number;
  phase: Phase;
  burst: boolean;
}

const events = new Map<string, EventInfo>();

async function seedGalleries(
  client: pg.Client,
  receiverUrl: string,
  webhookKey: string,
  endpointsById: Map<string, BenchEndpoint>,
): Promise<BenchGallery[]> {
  const plan: { key: string; kind: BenchGallery["kind"]; endpoints: [string, Mode, number][] }[] = [
    { key: "A", kind: "burst", endpoints: [["healthy", "ok", 0]] },
    ...Array.from({ length: QUIET_GALLERIES }, (_, i) => ({
      key: `Q${i + 1}`,
      kind: "quiet" as const,
      endpoints: [["healthy", "ok", 0]] as [string, Mode, number][],
    })),
    {
      key: "S",
      kind: "slow",
      endpoints: [
        ["slow", "slow", SLOW_MS],
        ["healthy", "ok", 0],
      ],
    },
    {
      key: "F",
      kind: "failing",
      endpoints: [
        ["failing", "fail", 0],
        ["healthy", "ok", 0],
      ],
    },
    // BENCH_WEBHOOK_SLOW_OK_MS=0 leaves this gallery out.
    ...(SLOW_OK_MS > 0
      ? [
          {
            key: "W",
            kind: "slow-ok" as const,
            endpoints: [["slow within timeout", "slow", SLOW_OK_MS]] as [string, Mode, number][],
          },
        ]
      : []),
  ];
  const galleries: BenchGallery[] = [];
  for (const p of plan) {
    const id = `${GALLERY_PREFIX}${RUN}_${p.key.toLowerCase()}`;
    await client.query("insert into galleries (id, name, slug, livemode) values ($1, $2, $1, false)", [
      id,
      `Webhook bench ${p.key}`,
    ]);
    const endpoints: BenchEndpoint[] = [];
    for (const [role, mode, delayMs] of p.endpoints) {
      const endpointId = newId("we");
      const secret = newWebhookSecret();
      const sealed = await sealWebhookSecret({ WEBHOOK_SECRET_KEY: webhookKey }, endpointId, secret);
      await client.query(
        `insert into webhook_endpoints (id, gallery_id, url, event_types, secret, description)
          values ($1, $2, $3, '{*}', $4, $5)`,
        [endpointId, id, `${receiverUrl}/${endpointId}`, sealed, `bench ${p.key} ${role}`],
      );
      // The slow-within-timeout endpoint is one whose every event must arrive, as a healthy one's.
      const endpoint: BenchEndpoint = {
        id: endpointId,
        galleryKey: p.key,
        role,
        mode,
        delayMs,
        secret,
        healthy: mode === "ok" || (mode === "slow" && delayMs < DEFAULT_TIMEOUT_MS),
      };
      endpoints.push(endpoint);
      endpointsById.set(endpointId, endpoint);
    }
    galleries.push({ key: p.key, id, kind: p.kind, endpoints });
  }
  return galleries;
}

/**
 * One event as an API write records it (the fan-out trigger makes one delivery per subscribed endpoint). An
 * invoice's update: a type the engine does not judge and the public surface does not show, so the run measures
 * delivery alone (no engine subjects marked, no sweep onto the engine Queue, no public generation renewed).
 */
const EVENT_INSERT = `insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
  select new_id('evt'), $1, 'invoice.updated', false, 'invoice', r.id,
    jsonb_build_object('object', jsonb_build_object('id', r.id, 'object', 'invoice', 'number', 'INV-' || r.n,
      'status', 'sent'))
  from (select 'inv_whbench_' || $2 || '_' || n as id, n from generate_series($3::int, $4::int) n) r
  returning id, (extract(epoch from created_at) * 1000)::float8 as created_ms`;

let eventSeq = 0;

async function writeEvents(
  db: pg.Pool | pg.Client,
  gallery: BenchGallery,
  count: number,
  phase: Phase,
  burst: boolean,
): Promise<void> {
  const first = eventSeq + 1;
  eventSeq += count;
  const result = await db.query<{ id: string; created_ms: number }>(EVENT_INSERT, [
    gallery.id,
    `${RUN}${gallery.key.toLowerCase()}`,
    first,
    first + count - 1,
  ]);
  for (const row of result.rows)
    events.set(row.id, { galleryKey: gallery.key, createdMs: Number(row.created_ms), phase, burst });
}

/** Each gallery writes one event every QUIET_MS (staggered) until stopped; returns the stop function. */
function quietWriters(pool: pg.Pool, galleries: BenchGallery[], phase: () => Phase): () => Promise<void> {
  let running = true;
  const loops = galleries.map(async (g, i) => {
    await sleep((QUIET_MS * i) / galleries.length);
    while (running) {
      const started = Date.now();
      await writeEvents(pool, g, 1, phase(), false);
      await sleep(Math.max(0, QUIET_MS - (Date.now() - started)));
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
  };
}

// ---------------------------------------------------------------------------------------------------------
// Ticks and memory

interface TickRecord {
  at: number;
  status: number | string;
}

function ticker(port: number, ticks: TickRecord[]): { stop: () => void; count: () => number } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const start = Date.now();
  let n = 0;
  const fire = async () => {
    if (stopped) return;
    n += 1;
    const at = Date.now();
    const record: TickRecord = { at, status: "pending" };
    ticks.push(record);
    timer = setTimeout(fire, Math.max(0, start + (n + 1) * TICK_MS - Date.now()));
    try {
      const res = await fetch(`http://127.0.0.1:${port}/__scheduled?cron=*+*+*+*+*`, {
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      record.status = res.status;
    } catch (err) {
      record.status = (err as Error).message;
    }
  };
  timer = setTimeout(fire, TICK_MS);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    count: () => n,
  };
}

/** workerd processes in wrangler's process group (the cron session). */
function workerdPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && comm.startsWith("workerd")) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

function memoryOf(pid: number): { rssKiB: number; hwmKiB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return { rssKiB: kib("VmRSS"), hwmKiB: kib("VmHWM") };
  } catch {
    return null;
  }
}

interface MemorySamples {
  pids: Set<number>;
  samples: { at: number; rssKiB: number }[];
  /** Each workerd process's own peak (VmHWM), by pid. */
  hwmKiB: Map<number, number>;
  /** The largest sum of the processes' RSS in one sample. */
  peakRssKiB: number;
}

function sampleMemory(pgid: number, into: MemorySamples): () => void {
  const take = () => {
    let rss = 0;
    for (const pid of workerdPids(pgid)) {
      const m = memoryOf(pid);
      if (!m) continue;
      into.pids.add(pid);
      rss += m.rssKiB;
      into.hwmKiB.set(pid, Math.max(into.hwmKiB.get(pid) ?? 0, m.hwmKiB));
    }
    into.peakRssKiB = Math.max(into.peakRssKiB, rss);
    into.samples.push({ at: Date.now(), rssKiB: rss });
  };
  take();
  const timer = setInterval(take, MEMORY_SAMPLE_MS);
  return () => {
    clearInterval(timer);
    take();
  };
}

/**
 * The cron Worker's own summaries, as it logs them (one JSON line per drain and per consumer batch, e.g.
 * `{"webhook_drain": {...}}`, `{"webhook_tickets": {...}}`): per key, how many lines and the sum of each number.
 */
type WorkerLogTotals = Record<string, { lines: number; sums: Record<string, number> }>;

const LOGGED_KEYS = ["webhook_drain", "webhook_tickets"];

function workerLogTotals(stream: NodeJS.ReadableStream): WorkerLogTotals {
  const totals: WorkerLogTotals = {};
  createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    const text = line.trim();
    if (!text.startsWith("{")) return;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    for (const key of LOGGED_KEYS) {
      const value = parsed[key];
      if (typeof value !== "object" || value === null) continue;
      const entry = totals[key] ?? { lines: 0, sums: {} };
      totals[key] = entry;
      entry.lines += 1;
      for (const [field, n] of Object.entries(value))
        if (typeof n === "number") entry.sums[field] = (entry.sums[field] ?? 0) + n;
    }
  });
  return totals;
}

// ---------------------------------------------------------------------------------------------------------
// Measures

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

interface LagStats {
  n: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

function lagStats(lags: number[]): LagStats {
  const sorted = [...lags].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : null,
  };
}

/** The first successful arrival of each webhook-id at an endpoint. */
function firstSuccess(arrivals: Arrival[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const a of arrivals) {
    if (!a.ok) continue;
    const seen = first.get(a.webhookId);
    if (seen === undefined || a.at < seen) first.set(a.webhookId, a.at);
  }
  return first;
}

/** The most successful arrivals within any 60 s window. */
function peakPerMinute(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi]! - sorted[lo]! >= 60_000) lo += 1;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

function expectedFor(galleryKey: string): string[] {
  const ids: string[] = [];
  for (const [id, info] of events) if (info.galleryKey === galleryKey) ids.push(id);
  return ids;
}

function complete(receiver: Receiver, endpoint: BenchEndpoint): boolean {
  const got = firstSuccess(receiver.arrivals.get(endpoint.id) ?? []);
  for (const id of expectedFor(endpoint.galleryKey)) if (!got.has(id)) return false;
  return true;
}

const fmtS = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------------------------------------------------

/** The commit the run measured (and whether tracked files differ from it), or why it is not known. */
function treeOf(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: ROOT, stdio: "pipe" }).toString().trim();
    const head = git("log", "-1", "--format=%h (%cs)");
    return `${head}${git("status", "--porcelain", "--untracked-files=no") ? " with uncommitted changes" : ""}`;
  } catch {
    return "a tree outside git";
  }
}

async function waitForWorker(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`wrangler exited (code ${child.exitCode}); see ${WRANGLER_LOG}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(3_000) });
      await res.arrayBuffer();
      return;
    } catch {
      // Not listening yet.
    }
    await sleep(300);
  }
  throw new Error(`the cron Worker did not answer on port ${port} within ${READY_TIMEOUT_MS / 1000} s`);
}

async function main(): Promise<void> {
  process.chdir(ROOT);
  const startedAt = Date.now();
  // Read at the start: the tree the Worker is built from.
  const tree = treeOf();
  say(
    `burst ${BURST} events, tick every ${TICK_MS / 1000} s (BENCH_WEBHOOK_TICK_MS), quiet events every ${QUIET_MS / 1000} s in ${QUIET_GALLERIES} quiet galleries, slow endpoint ${SLOW_MS / 1000} s (send timeout ${DEFAULT_TIMEOUT_MS / 1000} s), slow-within-timeout ${SLOW_OK_MS / 1000} s, baseline ${BASELINE_TICKS} ticks, phase (b) at most ${TIMEOUT_S} s`,
  );

  // Its own database, never one named by DATABASE_URL (the bench deletes galleries and fills the outbox).
  delete process.env.DATABASE_URL;
  const db = await startDatabase({ dataDir: DATA_DIR, database: "bench_webhooks" });
  takeSignals();
  parts.push({ name: "PostgreSQL", stop: () => stopDatabase(db) });
  await migrateDatabase(db.url);

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  parts.push({ name: "database client", stop: () => client.end() });
  const removed = await client.query(`delete from galleries where id like '${GALLERY_PREFIX}%'`);
  if (removed.rowCount) say(`removed ${removed.rowCount} galleries of an earlier run`);
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  parts.push({ name: "database pool", stop: () => pool.end() });

  const neon = await startNeonLocal({
    port: 0,
    log: (msg) => {
      if (!isStopping()) console.error(`[neon-local] ${msg}`);
    },
  });
  parts.push({ name: "local Neon endpoint", stop: () => neon.close() });

  const endpointsById = new Map<string, BenchEndpoint>();
  const receiver = await startReceiver(endpointsById);
  parts.push({ name: "receiver", stop: () => receiver.close() });

  const webhookKey = randomBytes(32).toString("base64");
  const galleries = await seedGalleries(client, receiver.url, webhookKey, endpointsById);
  say(
    `${galleries.length} galleries, ${endpointsById.size} endpoints at ${receiver.url} (${galleries.map((g) => `${g.key}: ${g.endpoints.map((e) => e.role).join(" + ")}`).join("; ")})`,
  );

  // The cron Worker as npm start runs it.
  const port = await freePort();
  mkdirSync(join(ROOT, ".data"), { recursive: true });
  const log = createWriteStream(WRANGLER_LOG);
  const child = await spawnWranglerDev({
    config: localCronConfig(),
    port,
    vars: {
      DATABASE_URL: db.url,
      NEON_LOCAL_ENDPOINT: neon.url,
      ENVIRONMENT: "local",
      WEBHOOK_SECRET_KEY: webhookKey,
    },
    persistTo: PERSIST_DIR,
    extraArgs: ["--test-scheduled"],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const workerLog = workerLogTotals(child.stdout);
  child.on("exit", (code, signal) => {
    if (!isStopping())
      void stopAll(1, `wrangler exited unexpectedly (${signal ?? `code ${code}`}); see ${WRANGLER_LOG}`);
  });
  parts.push({
    name: "wrangler (cron)",
    stop: async () => {
      await stopChild(child);
      log.end();
    },
  });
  say(`starting the cron Worker (wrangler dev --test-scheduled) on 127.0.0.1:${port}`);
  await waitForWorker(port, child);
  const memory: MemorySamples = { pids: new Set(), samples: [], hwmKiB: new Map(), peakRssKiB: 0 };
  const stopSampling = sampleMemory(child.pid!, memory);
  parts.push({ name: "memory sampler", stop: async () => stopSampling() });
  const idleRssKiB = memory.samples[0]?.rssKiB ?? 0;
  say(`cron Worker ready; workerd RSS ${(idleRssKiB / 1024).toFixed(0)} MiB idle`);

  // Phase (a): the quiet galleries alone.
  let phase: Phase = "baseline";
  const quiet = galleries.filter((g) => g.kind === "quiet");
  const others = galleries.filter((g) => g.kind === "slow" || g.kind === "failing" || g.kind === "slow-ok");
  const burstGallery = galleries.find((g) => g.kind === "burst")!;
  const ticks: TickRecord[] = [];
  const phaseAStart = Date.now();
  const stopQuiet = quietWriters(pool, quiet, () => phase);
  parts.push({ name: "quiet writers", stop: stopQuiet });
  const tick = ticker(port, ticks);
  parts.push({ name: "ticker", stop: async () => tick.stop() });
  say(`phase (a) baseline: ${quiet.length} quiet galleries, ${BASELINE_TICKS} ticks`);
  while (tick.count() < BASELINE_TICKS) await sleep(200);
  // The boundary tick claims the baseline's events before the burst is written.
  await sleep(2_000);

  // Phase (b): the burst beside the quiet galleries, with the slow and failing endpoints writing too.
  phase = "burst";
  const burstStart = Date.now();
  const per = Math.ceil(BURST / BURST_INSERTS);
  for (let written = 0; written < BURST; written += per)
    await writeEvents(client, burstGallery, Math.min(per, BURST - written), "burst", true);
  const burstWrittenMs = Date.now() - burstStart;
  say(`phase (b): ${BURST} events written to gallery A in ${burstWrittenMs} ms (${BURST_INSERTS} inserts)`);
  const stopOthers = quietWriters(pool, others, () => phase);
  parts.push({ name: "slow and failing galleries' writers", stop: stopOthers });

  const healthy = [...endpointsById.values()].filter((e) => e.healthy);
  const burstEndpoint = burstGallery.endpoints[0]!;
  const deadline = burstStart + TIMEOUT_S * 1000;
  let burstDoneAt: number | null = null;
  let writersStopped = false;
  let lastReport = Date.now();
  while (Date.now() < deadline) {
    if (!writersStopped && complete(receiver, burstEndpoint)) {
      burstDoneAt = Date.now();
      say(
        `gallery A has all ${BURST} burst events after ${((burstDoneAt - burstStart) / 1000).toFixed(1)} s`,
      );
      await stopQuiet();
      await stopOthers();
      writersStopped = true;
    }
    if (writersStopped && healthy.every((e) => complete(receiver, e))) break;
    if (Date.now() - lastReport >= 30_000) {
      lastReport = Date.now();
      const a = firstSuccess(receiver.arrivals.get(burstEndpoint.id) ?? []).size;
      say(
        `  ${((Date.now() - burstStart) / 1000).toFixed(0)} s: gallery A ${a}/${expectedFor("A").length} delivered, ${tick.count()} ticks`,
      );
    }
    await sleep(500);
  }
  const timedOut = Date.now() >= deadline;
  if (!writersStopped) {
    await stopQuiet();
    await stopOthers();
  }
  const phaseBEnd = Date.now();
  tick.stop();
  if (timedOut) say(`phase (b) reached its limit of ${TIMEOUT_S} s`);
  await sleep(1_000);
  stopSampling();

  // What the database says.
  const perEndpoint = await client.query<{
    endpoint_id: string;
    deliveries: string;
    succeeded: string;
    pending: string;
    failed: string;
    abandoned: string;
    attempts: string;
    attempt_rows: string;
    max_attempt_count: number | null;
    backoff_until: string | null;
    backoff_streak: number | null;
    failing_since: string | null;
    enabled: boolean;
    disabled_reason: string | null;
  }>(
    `select w.id as endpoint_id, count(d.id) as deliveries,
        count(d.id) filter (where d.status = 'succeeded') as succeeded,
        count(d.id) filter (where d.status = 'pending') as pending,
        count(d.id) filter (where d.status = 'failed') as failed,
        count(d.id) filter (where d.status = 'abandoned') as abandoned,
        coalesce(sum(d.attempt_count), 0) as attempts,
        (select count(*) from webhook_delivery_attempts a join webhook_deliveries x on x.id = a.delivery_id
          where x.endpoint_id = w.id) as attempt_rows,
        max(d.attempt_count) as max_attempt_count,
        iso_ms(w.backoff_until) as backoff_until, w.backoff_streak, iso_ms(w.failing_since) as failing_since,
        w.enabled, w.disabled_reason
      from webhook_endpoints w left join webhook_deliveries d on d.endpoint_id = w.id
      where w.gallery_id like '${GALLERY_PREFIX}${RUN}_%'
      group by w.id`,
  );
  const dbBy = new Map(perEndpoint.rows.map((r) => [r.endpoint_id, r]));

  // Measures per endpoint.
  const lagOf = (endpoint: BenchEndpoint, filter: (info: EventInfo) => boolean) => {
    const first = firstSuccess(receiver.arrivals.get(endpoint.id) ?? []);
    const lags: number[] = [];
    for (const [id, at] of first) {
      const info = events.get(id);
      if (info && filter(info)) lags.push(at - info.createdMs);
    }
    return lagStats(lags);
  };
  const endpointsReport = [...endpointsById.values()].map((e) => {
    const arrivals = receiver.arrivals.get(e.id) ?? [];
    const okArrivals = arrivals.filter((a) => a.ok);
    const first = firstSuccess(arrivals);
    const expected = expectedFor(e.galleryKey);
    const missing = expected.filter((id) => !first.has(id)).length;
    const row = dbBy.get(e.id);
    return {
      gallery: e.galleryKey,
      role: e.role,
      endpointId: e.id,
      mode: e.mode,
      delayMs: e.delayMs,
      healthy: e.healthy,
      events: expected.length,
      fannedOut: Number(row?.deliveries ?? 0),
      arrivals: arrivals.length,
      successfulArrivals: okArrivals.length,
      cutOffArrivals: arrivals.filter((a) => a.cutOff).length,
      distinctRequested: new Set(arrivals.map((a) => a.webhookId)).size,
      distinctDelivered: first.size,
      successfulDuplicates: okArrivals.length - first.size,
      notDelivered: missing,
      unverified: arrivals.filter((a) => !a.verified).length,
      lagBaseline: lagOf(e, (i) => i.phase === "baseline"),
      lagBurstPhase: lagOf(e, (i) => i.phase === "burst"),
      database: row
        ? {
            succeeded: Number(row.succeeded),
            pending: Number(row.pending),
            failed: Number(row.failed),
            abandoned: Number(row.abandoned),
            attemptCountSum: Number(row.attempts),
            attemptRows: Number(row.attempt_rows),
            maxAttemptCount: row.max_attempt_count,
            backoffUntil: row.backoff_until,
            backoffStreak: row.backoff_streak,
            failingSince: row.failing_since,
            enabled: row.enabled,
            disabledReason: row.disabled_reason,
          }
        : null,
    };
  });

  // Throughput over phase (b): successful arrivals at every endpoint.
  const phaseBArrivals: number[] = [];
  for (const list of receiver.arrivals.values())
    for (const a of list) if (a.ok && a.at >= burstStart) phaseBArrivals.push(a.at);
  const lastArrival = phaseBArrivals.length ? Math.max(...phaseBArrivals) : phaseBEnd;
  const phaseBSeconds = (lastArrival - burstStart) / 1000;
  const burstFirst = firstSuccess(receiver.arrivals.get(burstEndpoint.id) ?? []);
  const burstLast = burstFirst.size ? Math.max(...burstFirst.values()) : null;
  // The longest pause in gallery A's deliveries while its burst was outstanding (between consecutive arrivals).
  const burstTimes = [...burstFirst.values()].sort((a, b) => a - b);
  let burstLongestPauseMs = 0;
  for (let i = 1; i < burstTimes.length; i++)
    burstLongestPauseMs = Math.max(burstLongestPauseMs, burstTimes[i]! - burstTimes[i - 1]!);
  // The tick times, to split a lag into the wait for the next tick (the cadence) and what follows it (dispatch and
  // delivery, where a burst or a slow endpoint could delay a quiet gallery).
  const tickTimes = ticks.map((t) => t.at).sort((a, b) => a - b);
  const quietLag = (p: Phase, sinceTick: boolean) => {
    const lags: number[] = [];
    for (const g of quiet) {
      const first = firstSuccess(receiver.arrivals.get(g.endpoints[0]!.id) ?? []);
      for (const [id, at] of first) {
        const info = events.get(id);
        if (info?.phase !== p) continue;
        if (!sinceTick) lags.push(at - info.createdMs);
        else {
          const next = tickTimes.find((t) => t >= info.createdMs);
          if (next !== undefined && next <= at) lags.push(at - next);
        }
      }
    }
    return lagStats(lags);
  };
  const quietBaseline = quietLag("baseline", false);
  const quietBurst = quietLag("burst", false);
  const quietBaselineAfterTick = quietLag("baseline", true);
  const quietBurstAfterTick = quietLag("burst", true);
  const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? a / b : null);

  const healthyReport = endpointsReport.filter((e) => e.healthy);
  const totals = {
    events: events.size,
    eventsTimesSubscribed: endpointsReport.reduce((s, e) => s + e.events, 0),
    fannedOut: endpointsReport.reduce((s, e) => s + e.fannedOut, 0),
    healthyExpected: healthyReport.reduce((s, e) => s + e.events, 0),
    healthyDistinctDelivered: healthyReport.reduce((s, e) => s + e.distinctDelivered, 0),
    healthyNotDelivered: healthyReport.reduce((s, e) => s + e.notDelivered, 0),
    healthySuccessfulDuplicates: healthyReport.reduce((s, e) => s + e.successfulDuplicates, 0),
    healthyDatabaseSucceeded: healthyReport.reduce((s, e) => s + (e.database?.succeeded ?? 0), 0),
    verificationFailures: receiver.verificationFailures.length,
    arrivals: endpointsReport.reduce((s, e) => s + e.arrivals, 0),
    unknownPaths: receiver.unknownPaths,
  };

  const report = {
    at: new Date().toISOString(),
    tree,
    settings: {
      burst: BURST,
      tickMs: TICK_MS,
      quietMs: QUIET_MS,
      quietGalleries: QUIET_GALLERIES,
      baselineTicks: BASELINE_TICKS,
      slowMs: SLOW_MS,
      slowOkMs: SLOW_OK_MS,
      sendTimeoutMs: DEFAULT_TIMEOUT_MS,
      phaseBLimitS: TIMEOUT_S,
    },
    timings: {
      setupSeconds: (phaseAStart - startedAt) / 1000,
      baselineSeconds: (burstStart - phaseAStart) / 1000,
      burstInsertMs: burstWrittenMs,
      phaseBSeconds: (phaseBEnd - burstStart) / 1000,
      burstDeliveredAfterSeconds: burstDoneAt === null ? null : (burstDoneAt - burstStart) / 1000,
      timedOut,
      ticks: ticks.map((t) => ({ atSeconds: (t.at - phaseAStart) / 1000, status: t.status })),
    },
    throughput: {
      successfulInPhaseB: phaseBArrivals.length,
      phaseBSecondsToLastDelivery: phaseBSeconds,
      perMinute: phaseBSeconds > 0 ? (phaseBArrivals.length / phaseBSeconds) * 60 : null,
      peakPerMinute: peakPerMinute(phaseBArrivals),
      burstGalleryDelivered: burstFirst.size,
      burstLongestPauseMs,
      burstGalleryPerMinute:
        burstLast !== null && burstLast > burstStart
          ? (burstFirst.size / (burstLast - burstStart)) * 60_000
          : null,
    },
    quiet: {
      baseline: quietBaseline,
      besideBurst: quietBurst,
      p50Ratio: ratio(quietBurst.p50, quietBaseline.p50),
      p99Ratio: ratio(quietBurst.p99, quietBaseline.p99),
      afterTick: { baseline: quietBaselineAfterTick, besideBurst: quietBurstAfterTick },
    },
    totals,
    endpoints: endpointsReport,
    verificationFailureSamples: receiver.verificationFailures.slice(0, 5),
    workerLog,
    memory: {
      workerdPids: [...memory.pids],
      idleRssMiB: idleRssKiB / 1024,
      peakRssMiB: memory.peakRssKiB / 1024,
      peakVmHwmMiB: Math.max(0, ...memory.hwmKiB.values()) / 1024,
      vmHwmMiBByPid: Object.fromEntries([...memory.hwmKiB].map(([pid, kib]) => [pid, kib / 1024])),
      vmHwmSumMiB: [...memory.hwmKiB.values()].reduce((a, b) => a + b, 0) / 1024,
      samples: memory.samples.length,
    },
  };

  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${RESULTS_NAME}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(RESULTS_DIR, `${RESULTS_NAME}.md`), markdown(report));

  say(
    `phase (b): ${phaseBArrivals.length} successful deliveries in ${phaseBSeconds.toFixed(1)} s: ${report.throughput.perMinute?.toFixed(0) ?? "–"} a minute, peak ${report.throughput.peakPerMinute} in a minute; gallery A ${burstFirst.size}/${BURST}`,
  );
  for (const e of endpointsReport) {
    say(
      `  ${e.gallery} ${e.role}: ${e.distinctDelivered}/${e.events} delivered, ${e.arrivals} arrivals, lag baseline p50 ${fmtS(e.lagBaseline.p50)} p99 ${fmtS(e.lagBaseline.p99)} | phase (b) p50 ${fmtS(e.lagBurstPhase.p50)} p99 ${fmtS(e.lagBurstPhase.p99)} max ${fmtS(e.lagBurstPhase.max)}`,
    );
  }
  say(
    `quiet galleries: p50 ${fmtS(quietBaseline.p50)} → ${fmtS(quietBurst.p50)} (×${report.quiet.p50Ratio?.toFixed(2) ?? "–"}), p99 ${fmtS(quietBaseline.p99)} → ${fmtS(quietBurst.p99)} (×${report.quiet.p99Ratio?.toFixed(2) ?? "–"}); after the tick p99 ${fmtS(quietBaselineAfterTick.p99)} → ${fmtS(quietBurstAfterTick.p99)}`,
  );
  say(
    `healthy endpoints: ${totals.healthyDistinctDelivered}/${totals.healthyExpected} delivered, ${totals.healthySuccessfulDuplicates} successful duplicates; ${totals.verificationFailures} verification failures; fanned out ${totals.fannedOut} of ${totals.eventsTimesSubscribed} events × subscribed endpoints`,
  );
  say(
    `workerd (cron session, ${report.memory.workerdPids.length} processes): peak VmHWM ${report.memory.peakVmHwmMiB.toFixed(0)} MiB (summed ${report.memory.vmHwmSumMiB.toFixed(0)} MiB), peak RSS together ${report.memory.peakRssMiB.toFixed(0)} MiB (idle ${report.memory.idleRssMiB.toFixed(0)} MiB)`,
  );
  say(`results in bench/results/${RESULTS_NAME}.md and ${RESULTS_NAME}.json`);
}

type Report = {
  at: string;
  tree: string;
  settings: {
    burst: number;
    tickMs: number;
    quietMs: number;
    quietGalleries: number;
    baselineTicks: number;
    slowMs: number;
    slowOkMs: number;
    sendTimeoutMs: number;
    phaseBLimitS: number;
  };
  timings: {
    setupSeconds: number;
    baselineSeconds: number;
    burstInsertMs: number;
    phaseBSeconds: number;
    burstDeliveredAfterSeconds: number | null;
    timedOut: boolean;
    ticks: { atSeconds: number; status: number | string }[];
  };
  throughput: {
    successfulInPhaseB: number;
    phaseBSecondsToLastDelivery: number;
    perMinute: number | null;
    peakPerMinute: number;
    burstGalleryDelivered: number;
    burstLongestPauseMs: number;
    burstGalleryPerMinute: number | null;
  };
  quiet: {
    baseline: LagStats;
    besideBurst: LagStats;
    p50Ratio: number | null;
    p99Ratio: number | null;
    /** Arrival − the first tick after the event was written: the delivery's own delay, without the cadence. */
    afterTick: { baseline: LagStats; besideBurst: LagStats };
  };
  totals: Record<string, number>;
  workerLog: WorkerLogTotals;
  endpoints: {
    gallery: string;
    role: string;
    healthy: boolean;
    events: number;
    fannedOut: number;
    arrivals: number;
    successfulArrivals: number;
    cutOffArrivals: number;
    distinctRequested: number;
    distinctDelivered: number;
    successfulDuplicates: number;
    notDelivered: number;
    unverified: number;
    lagBaseline: LagStats;
    lagBurstPhase: LagStats;
    database: {
      succeeded: number;
      pending: number;
      failed: number;
      abandoned: number;
      attemptCountSum: number;
      attemptRows: number;
      maxAttemptCount: number | null;
      backoffUntil: string | null;
      backoffStreak: number | null;
      failingSince: string | null;
      enabled: boolean;
      disabledReason: string | null;
    } | null;
  }[];
  memory: {
    workerdPids: number[];
    idleRssMiB: number;
    peakRssMiB: number;
    peakVmHwmMiB: number;
    vmHwmMiBByPid: Record<string, number>;
    vmHwmSumMiB: number;
    samples: number;
  };
};

function markdown(r: Report): string {
  const s = r.settings;
  const t = r.throughput;
  const lag = (l: LagStats) => `${fmtS(l.p50)} | ${fmtS(l.p99)} | ${fmtS(l.max)} | ${l.n}`;
  const kinds: Record<string, string> = { A: "bursting" };
  const special = r.endpoints.filter((e) => !e.healthy);
  return [
    "# Webhook delivery at platform scale",
    "",
    `Run ${r.at} on \`${r.tree}\` (\`npm run bench:webhooks\`): the cron Worker under \`wrangler dev --test-scheduled\` (localCronConfig), \`/__scheduled\` every ${s.tickMs / 1000} s (BENCH_WEBHOOK_TICK_MS${s.tickMs === 60_000 ? ", the production cadence" : ""}), embedded PostgreSQL through the local Neon endpoint, a real local receiver verifying every request with \`standardwebhooks\`. Burst ${s.burst} events in gallery A; ${s.quietGalleries} quiet galleries and galleries S (an endpoint answering after ${s.slowMs / 1000} s, beyond the ${s.sendTimeoutMs / 1000} s send timeout, beside a healthy one), F (an endpoint answering 500 beside a healthy one)${s.slowOkMs > 0 ? ` and W (one endpoint answering after ${s.slowOkMs / 1000} s, within the timeout)` : ""} writing one event every ${s.quietMs / 1000} s each. Phase (a): quiet galleries alone for ${s.baselineTicks} ticks (${r.timings.baselineSeconds.toFixed(0)} s); phase (b): the burst beside them, ${r.timings.timedOut ? `stopped at its limit of ${s.phaseBLimitS} s with deliveries outstanding` : `until every healthy endpoint had every event (${r.timings.phaseBSeconds.toFixed(0)} s)`}.`,
    "",
    "## Throughput (phase b)",
    "",
    "| measure | value |",
    "| --- | ---: |",
    `| successful deliveries, all endpoints | ${t.successfulInPhaseB} in ${t.phaseBSecondsToLastDelivery.toFixed(1)} s |`,
    `| deliveries a minute (mean over phase b) | ${t.perMinute?.toFixed(0) ?? "–"} |`,
    `| peak deliveries in any 60 s | ${t.peakPerMinute} |`,
    `| gallery A delivered | ${t.burstGalleryDelivered} of ${s.burst}${r.timings.burstDeliveredAfterSeconds !== null ? `, all after ${r.timings.burstDeliveredAfterSeconds.toFixed(1)} s` : ""} |`,
    `| gallery A deliveries a minute | ${t.burstGalleryPerMinute?.toFixed(0) ?? "–"} |`,
    `| longest pause between two of gallery A's deliveries | ${fmtS(t.burstLongestPauseMs)} |`,
    `| burst written to the outbox | ${r.timings.burstInsertMs} ms |`,
    `| ticks | ${r.timings.ticks.length} (${[...new Set(r.timings.ticks.map((x) => String(x.status)))].join(", ")}) |`,
    "",
    "## Lag per gallery (first successful arrival − the event's created_at)",
    "",
    "| gallery | endpoint | phase (a) p50 | p99 | max | n | phase (b) p50 | p99 | max | n |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...r.endpoints
      .filter((e) => e.healthy)
      .map(
        (e) =>
          `| ${e.gallery}${kinds[e.gallery] ? ` (${kinds[e.gallery]})` : e.gallery.startsWith("Q") ? " (quiet)" : ""} | ${e.role} | ${lag(e.lagBaseline)} | ${lag(e.lagBurstPhase)} |`,
      ),
    "",
    `Quiet galleries together: p50 ${fmtS(r.quiet.baseline.p50)} in the baseline, ${fmtS(r.quiet.besideBurst.p50)} beside the burst (×${r.quiet.p50Ratio?.toFixed(2) ?? "–"}); p99 ${fmtS(r.quiet.baseline.p99)} → ${fmtS(r.quiet.besideBurst.p99)} (×${r.quiet.p99Ratio?.toFixed(2) ?? "–"}).`,
    "",
    `Most of that lag is the wait for the next tick (a minute's cadence). From the first tick after an event was written to its arrival, quiet galleries: p50 ${fmtS(r.quiet.afterTick.baseline.p50)} / p99 ${fmtS(r.quiet.afterTick.baseline.p99)} / max ${fmtS(r.quiet.afterTick.baseline.max)} in the baseline, p50 ${fmtS(r.quiet.afterTick.besideBurst.p50)} / p99 ${fmtS(r.quiet.afterTick.besideBurst.p99)} / max ${fmtS(r.quiet.afterTick.besideBurst.max)} beside the burst.`,
    "",
    "## Counts",
    "",
    "| measure | value |",
    "| --- | ---: |",
    `| events written | ${r.totals.events} |`,
    `| events × subscribed endpoints | ${r.totals.eventsTimesSubscribed} |`,
    `| deliveries fanned out (webhook_deliveries rows) | ${r.totals.fannedOut} |`,
    `| healthy endpoints: expected | ${r.totals.healthyExpected} |`,
    `| healthy endpoints: distinct delivered (receiver) | ${r.totals.healthyDistinctDelivered} |`,
    `| healthy endpoints: succeeded (database) | ${r.totals.healthyDatabaseSucceeded} |`,
    `| healthy endpoints: not delivered | ${r.totals.healthyNotDelivered} |`,
    `| healthy endpoints: successful duplicates | ${r.totals.healthySuccessfulDuplicates} |`,
    `| requests received | ${r.totals.arrivals} |`,
    `| verification failures (standardwebhooks) | ${r.totals.verificationFailures} |`,
    "",
    "| gallery | endpoint | events | fanned out | delivered | not delivered | successful duplicates | requests |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...r.endpoints.map(
      (e) =>
        `| ${e.gallery} | ${e.role} | ${e.events} | ${e.fannedOut} | ${e.distinctDelivered} | ${e.notDelivered} | ${e.successfulDuplicates} | ${e.arrivals} |`,
    ),
    "",
    "## The slow and failing endpoints",
    "",
    "| gallery | endpoint | requests (distinct events) | cut off by the send timeout | deliveries: succeeded / pending / failed | attempts (rows) | most attempts on one | failing_since | backoff_until | backoff_streak |",
    "| --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- | ---: |",
    ...special.map(
      (e) =>
        `| ${e.gallery} | ${e.role} | ${e.arrivals} (${e.distinctRequested}) | ${e.cutOffArrivals} | ${e.database ? `${e.database.succeeded} / ${e.database.pending} / ${e.database.failed}` : "–"} | ${e.database?.attemptRows ?? "–"} | ${e.database?.maxAttemptCount ?? "–"} | ${e.database?.failingSince ?? "–"} | ${e.database?.backoffUntil ?? "–"} | ${e.database?.backoffStreak ?? "–"} |`,
    ),
    "",
    "## What the cron Worker logged",
    "",
    "Its summary lines over the whole run (drains: one per tick that had work; consumer batches: one per batch of tickets), each number summed:",
    "",
    ...Object.entries(r.workerLog).map(
      ([key, v]) =>
        `- \`${key}\`: ${v.lines} lines; ${Object.entries(v.sums)
          .map(([field, n]) => `${field} ${n}`)
          .join(", ")}`,
    ),
    "",
    "## Memory of the cron session",
    "",
    `The workerd processes of the cron session (${r.memory.workerdPids.length}: ${Object.entries(
      r.memory.vmHwmMiBByPid,
    )
      .map(([pid, mib]) => `pid ${pid} VmHWM ${mib.toFixed(0)} MiB`)
      .join(
        ", ",
      )}), read from /proc every ${MEMORY_SAMPLE_MS / 1000} s (${r.memory.samples} samples): the largest process peak (VmHWM) ${r.memory.peakVmHwmMiB.toFixed(0)} MiB, the peaks summed ${r.memory.vmHwmSumMiB.toFixed(0)} MiB; their RSS together at most ${r.memory.peakRssMiB.toFixed(0)} MiB, ${r.memory.idleRssMiB.toFixed(0)} MiB idle before phase (a).`,
    "",
  ].join("\n");
}

main()
  .then(() => stopAll(0))
  .catch((err: Error) => void stopAll(1, `bench:webhooks failed: ${err.stack ?? err.message}`));
