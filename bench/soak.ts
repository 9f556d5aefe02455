/**
 * `npm run bench:soak`: the local stack under a day's mixed load for a while, with the database restarted once.
 *
 *   npm run bench:soak                    600 s of load (the full run)
 *   npm run bench:soak -- --duration 60   the short run (development; CI runs it with --results-dir .data)
 *
 * 1. The stack as `npm start` runs it, on data of its own: an embedded PostgreSQL in .data/bench-soak-postgres
 *    (the demo gallery seeded on the first run, reused afterwards), the local Neon endpoint in this process, and
 *    `wrangler dev` three times: the API Worker with the engine Worker beside it, the cron Worker (with an engine
 *    Worker of its own), and the engine Worker alone for its scheduled fits; each of the last two has its
 *    `/__scheduled` called every 10 s, as `npm start` does. Rate limits are not
 *    counted (RATE_LIMITS=off, local mode): every request of a class comes from one key or token on one address.
 * 2. A webhook endpoint subscribed through the API to every event type, at a receiver in this process that
 *    verifies each delivery with `standardwebhooks` and records it by `webhook-id`.
 * 3. Load by class, each a fixed number of loops (its concurrency bound) paced to a target rate: public
 *    viewing-room reads as a browser sends them (publishable token, `Origin`), an integrator's list and read
 *    calls (secret key), creates with an Idempotency-Key (contacts and artworks; a 5xx or a dropped connection is
 *    retried after `Retry-After` with the same key, as the 503's detail asks), and connector ingest (signed
 *    WhatsApp webhooks and mails through the email handler, retried with the same provider message id as the
 *    provider would). The writes and the ingest give the engine its judgments and the outbox its events.
 * 4. Halfway through (`--restart-at`), the embedded PostgreSQL is stopped (SIGINT to the postmaster: a fast
 *    shutdown), kept down `--down` seconds and started again on the same port and data.
 * 5. Every 10 s window: per class requests, statuses, p50/p99; deliveries received; the engine backlog and the
 *    pending deliveries. At the end: throughput and latency per class, 5xx by class and by cause, RSS and PSS of
 *    every runtime process at the start, at a baseline a minute in and at the end of the load, the project's
 *    runtimes held to a stated bound (wrangler's dev proxy and tooling reported), a bounded wait
 *    (`--drain`) for the outbox and the engine backlog, then what remains; every write acknowledged 2xx counted
 *    in the database (exactly once), every ingested message likewise, and every delivery the database has for the
 *    endpoint checked against the receiver (missing, doubled, unverified).
 *
 * Results: bench/results/soak.md and soak.json (`--results <name>` and `--results-dir <dir>` name others). Wrangler's output:
 * .data/bench-soak-wrangler-{api,cron}.log. Everything it starts is stopped on exit, on failure and on Ctrl-C.
 * Exits non-zero when a target is missed.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { join, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { text } from "node:stream/consumers";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { WebSocket } from "ws";
import { allScopes, PUBLISHABLE_SCOPES } from "../lib/scopes";
import { insertApiKey, localSigningSecret, localWebhookSecretKey } from "../scripts/local-keys";
import { migrateDatabase } from "../scripts/migrate";
import { startNeonLocal } from "../scripts/neon-local";
import { type EmbeddedDatabase, freePort, startEmbeddedDatabase } from "../scripts/postgres";
import { markDemoForEngine } from "../scripts/seed/engine";
import { DEMO_EDITOR, DEMO_SLUG, seedDemo } from "../scripts/seed/index";
import {
  apiServiceConfigs,
  lazyLocalBucket,
  localCronConfig,
  localEngineConfig,
  spawnWranglerDev,
  stopChild,
} from "../scripts/wrangler";
import { lifecycle } from "./lifecycle";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const DATA_DIR = ".data/bench-soak-postgres";
const DATABASE = "gallery_soak";
const PERSIST_DIR = ".data/bench-soak-wrangler";
const FIXTURES = join(ROOT, "test", "connectors", "fixtures");
const BROWSER_ORIGIN = "https://collector.soak.example";
const SAMPLE_NUMBER = "+442079460999";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "600" },
    "restart-at": { type: "string" },
    down: { type: "string", default: "5" },
    drain: { type: "string", default: "180" },
    scale: { type: "string", default: "1" },
    results: { type: "string", default: "soak" },
    "results-dir": { type: "string", default: "bench/results" },
  },
});
const positive = (name: string, raw: string | undefined, fallback: number) => {
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got "${raw}"`);
  return n;
};
const DURATION_S = positive("duration", args.duration, 600);
const RESTART_AT_S = positive("restart-at", args["restart-at"], Math.round(DURATION_S / 2));
const DOWN_S = positive("down", args.down, 5);
const DRAIN_S = positive("drain", args.drain, 180);
/** Multiplies every class's target rate (not its concurrency). */
const SCALE = positive("scale", args.scale, 1);
const RESULTS_NAME = args.results ?? "soak";
/** Where the report goes, relative to the project's root (CI's short run writes under .data/, not into the tree). */
const RESULTS_DIR = resolve(ROOT, args["results-dir"] ?? "bench/results");
const WINDOW_MS = 10_000;
const CRON_POLL_MS = 10_000;
const WARMUP_S = 10;
/** A write or an ingest is retried with the same key for at most this long. */
const RETRY_FOR_MS = 90_000;
/** Retry-After is honoured up to this; without one, a retry waits RETRY_DEFAULT_MS. */
const RETRY_AFTER_CAP_S = 10;
const RETRY_DEFAULT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * The memory bound: a runtime process's RSS at the end of the load ≤ its RSS at the start (after the warm-up)
 * × MEMORY_FACTOR + MEMORY_SLACK_MIB.
 */
const MEMORY_FACTOR = 1.25;
/**
 * When the memory baseline is taken, in seconds of load: the Workers load the engine's models and fill their
 * caches as the first writes are judged, a one-time cost that is not growth. A minute in, or a third of a shorter
 * run; the start (after the warm-up) is reported beside it.
 */
const SETTLE_S = Math.min(60, DURATION_S / 3);
const MEMORY_SLACK_MIB = 64;
/** The slack of the Workers' heap bound: a heap is sampled between collections, so it moves by a few MiB anyway. */
const HEAP_SLACK_MIB = 16;
const RUN = Date.now().toString(36);
/**
 * wrangler's words when it rebuilds or reloads a session's Worker. A rebuild's custom build (the API Worker's docs
 * assets) prints as it runs; the reload follows it without a word, so its lines count as activity.
 */
const RELOAD_LINE = /changed, restarting build|\[custom build\]|Reloading local server|Starting local server/;
/** The load starts once no session has rebuilt or reloaded for this long. */
const QUIET_BEFORE_LOAD_MS = 15_000;

const say = (msg: string) => console.log(`[bench:soak] ${msg}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// Lifecycle (bench/lifecycle.ts): every part registers how to stop it; stopping runs those in reverse order, once.

const { parts, stopping: isStopping, stopAll, takeSignals } = lifecycle("bench:soak");
takeSignals();
/**
 * A PostgreSQL connection ended by the restart can reach a pg client of this process (the local Neon endpoint's,
 * the bench's) as an error with no listener; during the restart that is the restart, counted and reported, not a
 * reason to stop. Anything else stops the run.
 */
const DB_GONE = /^(57P0[123]|08\d{3}|ECONNRESET|ECONNREFUSED|EPIPE)$/;
const strayDatabaseErrors: { atS: number; code: string; message: string }[] = [];
let restarting = false;
process.on("uncaughtException", (err: Error & { code?: string }) => {
  if (restarting && typeof err.code === "string" && DB_GONE.test(err.code)) {
    strayDatabaseErrors.push({ atS: (Date.now() - loadStart) / 1000, code: err.code, message: err.message });
    return;
  }
  void stopAll(1, `unexpected error: ${err.stack ?? err.message}`);
});
process.on(
  "unhandledRejection",
  (err) => void stopAll(1, `unexpected error: ${(err as Error)?.stack ?? err}`),
);

/** The bench's database, started in main(); its postmaster is measured with the other runtimes. */
let database: EmbeddedDatabase | null = null;

// ---------------------------------------------------------------------------------------------------------
// Processes and their memory

/**
 * What a process is, for the memory bound: `workers` is a workerd that runs the project's Workers (the API Worker
 * with the engine Worker beside it, the cron Worker with its own), `dev-proxy` the workerd of wrangler's dev proxy
 * in front of them (it binds the session's public port), `wrangler` wrangler's own node and esbuild. Only the
 * project's runtimes (the Workers, this driver, PostgreSQL) are held to the bound: the dev proxy and wrangler are
 * local tooling, not deployed, and are reported.
 */
type Role = "workers" | "dev-proxy" | "wrangler" | "driver" | "postgres";

interface ProcMemory {
  pid: number;
  comm: string;
  rssKiB: number;
  pssKiB: number | null;
  role: Role;
}

function procStat(pid: number): { comm: string; ppid: number; pgid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { comm, ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return null;
  }
}

function roleOf(pid: number, comm: string): Role {
  if (comm !== "workerd") return "wrangler";
  try {
    // The dev proxy listens on the session's port; the Workers' runtime on a port of its own choosing (`:0`).
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return /--socket-addr=entry=[^\0]*:(?!0\b)\d+/.test(cmdline) ? "dev-proxy" : "workers";
  } catch {
    return "workers";
  }
}

function memoryOf(pid: number, role?: Role): ProcMemory | null {
  const stat = procStat(pid);
  if (!stat) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rssKiB = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
    let pssKiB: number | null = null;
    try {
      pssKiB = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {
      // smaps_rollup needs a newer kernel; RSS alone then.
    }
    return { pid, comm: stat.comm, rssKiB, pssKiB, role: role ?? roleOf(pid, stat.comm) };
  } catch {
    return null;
  }
}

function allPids(): number[] {
  return readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .map(Number);
}

interface Runtime {
  key: string;
  /** workerd, wrangler's node and the rest of a `wrangler dev` session; the postmaster and its backends. */
  group: string;
  processes: ProcMemory[];
}

/** A `wrangler dev` session of the bench, and the port of its inspector (its primary Worker's isolate). */
interface Session {
  name: string;
  child: ChildProcess;
  inspectorPort: number;
}

/**
 * The JavaScript heap in use of a session's primary Worker (the API Worker, the cron Worker, the fits' engine
 * Worker), in MiB, read through
 * wrangler's inspector with the DevTools protocol (`Runtime.getHeapUsage`); null when two connections of 30 s each
 * give nothing.
 * The process's RSS also holds what `wrangler dev` runs beside the Workers in the same workerd (the local Cache API,
 * KV, R2 and Queues), which production does not; the heap is the Worker's own.
 */
async function workerHeapMiB(inspectorPort: number): Promise<number | null> {
  // A long run's Worker has logged a lot, and `Runtime.enable` replays what the inspector kept of it first: a
  // generous wait, and a second connection when the first gives nothing.
  for (let attempt = 0; attempt < 2; attempt++) {
    const heap = await readHeapOnce(inspectorPort);
    if (heap !== null) return heap;
  }
  return null;
}

function readHeapOnce(inspectorPort: number): Promise<number | null> {
  return new Promise((done) => {
    const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`);
    const finish = (value: number | null) => {
      clearTimeout(timer);
      socket.terminate();
      done(value);
    };
    const timer = setTimeout(() => finish(null), 30_000);
    socket.on("error", () => finish(null));
    socket.on("open", () => {
      socket.send(JSON.stringify({ id: 1, method: "Runtime.enable" }));
      socket.send(JSON.stringify({ id: 2, method: "Runtime.getHeapUsage" }));
    });
    socket.on("message", (data) => {
      const text = String(data);
      // Only the answer to the heap request is parsed; the replayed events are skipped unread.
      if (!text.startsWith('{"id":2,')) return;
      const message = JSON.parse(text) as { id?: number; result?: { usedSize?: number } };
      if (message.id === 2)
        finish(message.result?.usedSize == null ? null : message.result.usedSize / 2 ** 20);
    });
  });
}

async function workerHeaps(sessions: Session[]): Promise<Record<string, number | null>> {
  const entries = await Promise.all(
    sessions.map(async (s) => [s.name, await workerHeapMiB(s.inspectorPort)] as const),
  );
  return Object.fromEntries(entries);
}

function runtimeSnapshot(sessions: Session[]): Runtime[] {
  const pids = allPids();
  const stats = new Map(pids.map((pid) => [pid, procStat(pid)]));
  const out: Runtime[] = [];
  const self = memoryOf(process.pid, "driver");
  if (self)
    out.push({
      key: "driver",
      group: "node (this driver: load, receiver, local Neon endpoint)",
      processes: [self],
    });
  for (const s of sessions) {
    const members = pids.filter((pid) => stats.get(pid)?.pgid === s.child.pid);
    out.push({
      key: s.name,
      group: `wrangler dev (${s.name})`,
      processes: members.map((pid) => memoryOf(pid)).filter((m): m is ProcMemory => m !== null),
    });
  }
  const master = database?.pid() ?? null;
  if (master) {
    const members = [master, ...pids.filter((pid) => stats.get(pid)?.ppid === master)];
    out.push({
      key: "postgres",
      group: `PostgreSQL (postmaster ${master} and its processes)`,
      processes: members.map((pid) => memoryOf(pid, "postgres")).filter((m): m is ProcMemory => m !== null),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The receiver

interface Arrival {
  webhookId: string;
  at: number;
  verified: boolean;
  type: string;
}

interface Receiver {
  url: string;
  arrivals: Arrival[];
  failures: string[];
  setSecret(secret: string): void;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const failures: string[] = [];
  let hook: Webhook | null = null;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await text(req).catch(() => "");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    let verified = false;
    let type = "";
    try {
      if (!hook) throw new Error("no secret yet");
      const event = hook.verify(body, headers) as { id?: string; type?: string };
      type = event.type ?? "";
      verified = event.id === headers["webhook-id"];
      if (!verified) failures.push("body id ≠ webhook-id");
    } catch (err) {
      failures.push((err as Error).message);
    }
    arrivals.push({ webhookId: headers["webhook-id"] ?? "", at: Date.now(), verified, type });
    res.writeHead(verified ? 200 : 400, { "content-type": "text/plain" }).end(verified ? "ok" : "unverified");
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => r());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    failures,
    setSecret: (secret) => {
      hook = new Webhook(secret);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Requests

type ClassName = "public" | "integrator" | "write" | "ingest";

interface Sample {
  cls: ClassName;
  op: string;
  /** ms since the load started, when the answer (or the failure) came. */
  at: number;
  ms: number;
  /** 0: no answer (connection refused or reset, timeout). */
  status: number;
  /** For a 5xx or no answer: the problem's code (and dependency), or the error. */
  cause?: string;
  retryAfter?: string | null;
}

interface Call {
  op: string;
  url: string;
  init: RequestInit;
}

let loadStart = 0;
const samples: Sample[] = [];

async function call(cls: ClassName, c: Call): Promise<Sample> {
  const started = performance.now();
  let sample: Sample;
  try {
    const res = await fetch(c.url, { ...c.init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    sample = { cls, op: c.op, at: 0, ms: performance.now() - started, status: res.status };
    if (res.status >= 500) {
      let cause = `${res.status}`;
      try {
        const problem = JSON.parse(text) as { code?: string; details?: { dependency?: string } };
        cause = `${res.status} ${problem.code ?? "(no code)"}${problem.details?.dependency ? ` (${problem.details.dependency})` : ""}`;
      } catch {
        cause = `${res.status} ${text.slice(0, 60).replace(/\s+/g, " ") || "(empty body)"}`;
      }
      sample.cause = cause;
      sample.retryAfter = res.headers.get("retry-after");
    }
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    sample = {
      cls,
      op: c.op,
      at: 0,
      ms: performance.now() - started,
      status: 0,
      cause: `no answer: ${e.cause?.code ?? e.name}`,
    };
  }
  sample.at = Date.now() - loadStart;
  if (loadStart > 0) samples.push(sample);
  return sample;
}

interface Logical {
  cls: ClassName;
  op: string;
  key: string;
  /** What finds it in the database: the contact's name, the work's title, the provider's message id. */
  marker: string;
  attempts: number;
  acknowledged: boolean;
  finalStatus: number;
  /** A 503 answered without Retry-After. */
  missingRetryAfter: number;
}

/** A write or a delivery retried as its client would, with the same key, until 2xx, a 4xx or RETRY_FOR_MS. */
async function untilAccepted(
  cls: ClassName,
  key: string,
  marker: string,
  make: () => Call,
): Promise<Logical> {
  const first = Date.now();
  const logical: Logical = {
    cls,
    op: "",
    key,
    marker,
    attempts: 0,
    acknowledged: false,
    finalStatus: 0,
    missingRetryAfter: 0,
  };
  for (;;) {
    const c = make();
    logical.op = c.op;
    logical.attempts += 1;
    const s = await call(cls, c);
    logical.finalStatus = s.status;
    if (s.status >= 200 && s.status < 300) {
      logical.acknowledged = true;
      return logical;
    }
    if (s.status >= 400 && s.status < 500) return logical;
    if (s.status === 503 && !s.retryAfter) logical.missingRetryAfter += 1;
    if (Date.now() - first > RETRY_FOR_MS || stopLoad) return logical;
    const after = Number(s.retryAfter);
    await sleep(
      Number.isFinite(after) && after > 0 ? Math.min(after, RETRY_AFTER_CAP_S) * 1000 : RETRY_DEFAULT_MS,
    );
  }
}

let stopLoad = false;

/** `concurrency` loops, together paced to `rate` per second; a loop that falls behind does not burst to catch up. */
async function paced(
  concurrency: number,
  rate: number,
  deadline: number,
  step: (i: number) => Promise<void>,
) {
  const interval = (concurrency / rate) * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      let next = Date.now() + (interval * loop) / concurrency;
      let n = 0;
      while (!stopLoad && Date.now() < deadline) {
        const wait = next - Date.now();
        if (wait > 0) await sleep(wait);
        if (stopLoad || Date.now() >= deadline) break;
        next = Math.max(next + interval, Date.now());
        await step(n * concurrency + loop);
        n += 1;
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Stats

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

interface ClassStats {
  requests: number;
  ok2xx: number;
  c4xx: number;
  c5xx: number;
  noAnswer: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
}

function statsOf(list: Sample[]): ClassStats {
  const sorted = list
    .filter((s) => s.status > 0)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  return {
    requests: list.length,
    ok2xx: list.filter((s) => s.status >= 200 && s.status < 300).length,
    c4xx: list.filter((s) => s.status >= 400 && s.status < 500).length,
    c5xx: list.filter((s) => s.status >= 500).length,
    noAnswer: list.filter((s) => s.status === 0).length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : null,
  };
}

function treeOf(): string {
  try {
    const git = (...a: string[]) => execFileSync("git", a, { cwd: ROOT, stdio: "pipe" }).toString().trim();
    const head = git("log", "-1", "--format=%h (%cs)");
    return `${head}${git("status", "--porcelain", "--untracked-files=no") ? " with uncommitted changes" : ""}`;
  } catch {
    return "a tree outside git";
  }
}

/** The load of the machine from other processes: the 1-minute load average and the CPUs. */
function machineLoad(): string {
  const [one] = os.loadavg();
  return `load average ${one!.toFixed(2)} on ${os.cpus().length} CPUs`;
}

/** Other users' busy processes (CPU time > 0 over a second), to say whether the machine was shared. */
function otherBusyProcesses(ours: Set<number>): string[] {
  const ticks = () => {
    const m = new Map<number, number>();
    for (const pid of allPids()) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        m.set(pid, Number(f[11]) + Number(f[12]));
      } catch {
        // Gone.
      }
    }
    return m;
  };
  const a = ticks();
  execFileSync("sleep", ["1"]);
  const b = ticks();
  const busy: string[] = [];
  for (const [pid, t] of b) {
    if (ours.has(pid)) continue;
    const before = a.get(pid);
    if (before !== undefined && t - before >= 5) busy.push(procStat(pid)?.comm ?? String(pid));
  }
  const counts = new Map<string, number>();
  for (const comm of busy) counts.set(comm, (counts.get(comm) ?? 0) + 1);
  return [...counts].map(([comm, n]) => (n > 1 ? `${comm} ×${n}` : comm));
}

// ---------------------------------------------------------------------------------------------------------

async function api<T>(origin: string, path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await fetch(`${origin}/v1${path}`, { ...init, headers });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function waitFor(origin: string, child: ChildProcess, path: string, log: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler exited (code ${child.exitCode}); see ${log}`);
    try {
      const res = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await sleep(500);
  }
  throw new Error(`${origin} did not answer within 180 s; see ${log}`);
}

interface Connection {
  id: string;
  channel: string;
  provider: string;
  inbound_address: string | null;
  webhook_url: string | null;
}

async function main(): Promise<number> {
  process.chdir(ROOT);
  const startedAt = new Date();
  const tree = treeOf();
  say(
    `${DURATION_S} s of load, the database restarted at ${RESTART_AT_S} s (down ${DOWN_S} s), drain up to ${DRAIN_S} s, rate × ${SCALE}`,
  );

  // Its own database, never one named by DATABASE_URL: the bench stops and starts it.
  delete process.env.DATABASE_URL;
  const pgPort = await freePort();
  const db = await startEmbeddedDatabase({ dataDir: DATA_DIR, database: DATABASE, port: pgPort });
  database = db;
  takeSignals();
  parts.push({ name: "PostgreSQL", stop: () => db.shutdown("fast") });
  await migrateDatabase(db.url);

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const bucket = lazyLocalBucket(PERSIST_DIR);
  const seedStarted = Date.now();
  const seeded = await seedDemo(db.url, { bucket: bucket.open, publicBaseUrl: origin });
  await bucket.close();
  if (seeded) say(`seeded the demo gallery in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

  const pool = new pg.Pool({ connectionString: db.url, max: 3, connectionTimeoutMillis: 3_000 });
  // The restart drops the pool's idle connections; the pool replaces them.
  pool.on("error", () => {});
  parts.push({ name: "database pool", stop: () => pool.end() });
  const galleryId = (
    await pool.query<{ id: string }>("select id from galleries where slug = $1", [DEMO_SLUG])
  ).rows[0]?.id;
  if (!galleryId) throw new Error(`no demo gallery (${DEMO_SLUG}) in ${DATA_DIR}`);
  const client = await pool.connect();
  const secretKey = (
    await insertApiKey(client, { galleryId, kind: "secret", name: `Soak ${RUN}`, scopes: allScopes })
  ).token;
  const publishable = (
    await insertApiKey(client, {
      galleryId,
      kind: "publishable",
      name: `Soak ${RUN}`,
      scopes: PUBLISHABLE_SCOPES,
    })
  ).token;
  client.release();
  // As npm start does: what the engine has not judged yet waits for it (the drain before the load takes it).
  const c2 = new pg.Client({ connectionString: db.url });
  await c2.connect();
  await markDemoForEngine(c2, galleryId);
  await c2.end();

  const neonLog: string[] = [];
  const neon = await startNeonLocal({
    port: 0,
    log: (msg) => {
      if (!isStopping()) neonLog.push(msg);
    },
  });
  parts.push({ name: "local Neon endpoint", stop: () => neon.close() });

  const vars = {
    PUBLIC_BASE_URL: origin,
    DATABASE_URL: db.url,
    NEON_LOCAL_ENDPOINT: neon.url,
    // Kept beside the bench's data: the connections' and endpoints' secrets are sealed under them.
    SIGNING_SECRET: localSigningSecret(".data/bench-soak-secret"),
    WEBHOOK_SECRET_KEY: localWebhookSecretKey(".data/bench-soak-webhook-secret-key"),
    ENVIRONMENT: "local",
    RATE_LIMITS: "off",
  };
  const engineVars = { DATABASE_URL: db.url, NEON_LOCAL_ENDPOINT: neon.url, ENVIRONMENT: "local" };
  const engineConfig = localEngineConfig(engineVars);
  mkdirSync(join(ROOT, ".data"), { recursive: true });
  const sessions: Session[] = [];
  /** wrangler's rebuilds and reloads of a session's Worker: a POST in flight then is answered 503 by its proxy. */
  const reloads: { session: string; at: number; line: string }[] = [];
  const spawnSession = async (
    name: string,
    config: string,
    sessionPort: number,
    extraArgs: string[],
    // The engine Worker's own session (its scheduled fits) runs it alone, with its own settings, as npm start does.
    alone?: { vars: Record<string, string> },
    // Further Workers beside the engine Worker: the API Worker's session has those its service bindings name.
    beside: string[] = [],
  ) => {
    const logPath = join(ROOT, ".data", `bench-soak-wrangler-${name}.log`);
    const log = createWriteStream(logPath);
    const inspectorPort = await freePort();
    const child = await spawnWranglerDev({
      config,
      auxiliary: alone ? [] : [...beside, engineConfig],
      port: sessionPort,
      inspectorPort,
      vars: alone ? alone.vars : vars,
      persistTo: PERSIST_DIR,
      extraArgs,
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
        if (RELOAD_LINE.test(line)) reloads.push({ session: name, at: Date.now(), line: line.trim() });
      });
    }
    child.on("exit", (code, signal) => {
      if (!isStopping())
        void stopAll(
          1,
          `wrangler (${name}) exited unexpectedly (${signal ?? `code ${code}`}); see ${logPath}`,
        );
    });
    parts.push({
      name: `wrangler (${name})`,
      stop: async () => {
        await stopChild(child);
        log.end();
      },
    });
    sessions.push({ name, child, inspectorPort });
    return { child, logPath };
  };
  say(
    `starting wrangler dev: the API Worker (with the Email, MCP and engine Workers) on ${origin}, the cron Worker, and the engine Worker for its fits`,
  );
  const apiSession = await spawnSession("api", "wrangler.toml", port, [], undefined, apiServiceConfigs(vars));
  const cronPort = await freePort();
  const cronSession = await spawnSession("cron", localCronConfig(), cronPort, ["--test-scheduled"]);
  await waitFor(origin, apiSession.child, "/v1/health", apiSession.logPath);
  const fitsPort = await freePort();
  const fitsSession = await spawnSession("engine", engineConfig, fitsPort, ["--test-scheduled"], {
    vars: engineVars,
  });
  await waitFor(`http://127.0.0.1:${cronPort}`, cronSession.child, "/", cronSession.logPath);
  await waitFor(`http://127.0.0.1:${fitsPort}`, fitsSession.child, "/", fitsSession.logPath);
  say("the three sessions answer");

  // The cron Worker's minute, every 10 s as under npm start.
  const ticks: { at: number; status: number }[] = [];
  const tickTimer = setInterval(async () => {
    let status = 0;
    try {
      const res = await fetch(`http://127.0.0.1:${cronPort}/__scheduled?cron=*+*+*+*+*`, {
        signal: AbortSignal.timeout(CRON_POLL_MS * 3),
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 0;
    }
    ticks.push({ at: Date.now(), status });
  }, CRON_POLL_MS);
  parts.push({ name: "cron poller", stop: async () => clearInterval(tickTimer) });
  // The engine Worker's scheduled run (the fits), every 10 s as under npm start.
  const fitsTimer = setInterval(async () => {
    try {
      const res = await fetch(`http://127.0.0.1:${fitsPort}/__scheduled?cron=*+*+*+*+*`, {
        signal: AbortSignal.timeout(CRON_POLL_MS * 3),
      });
      await res.arrayBuffer();
    } catch {
      // The next call tries again; the fits are due once a day.
    }
  }, CRON_POLL_MS);
  parts.push({ name: "engine poller", stop: async () => clearInterval(fitsTimer) });

  // The receiver and its endpoint, subscribed through the API.
  const receiver = await startReceiver();
  parts.push({ name: "receiver", stop: () => receiver.close() });
  // An earlier run's endpoint (a run stopped hard) would keep failing at a receiver that is gone.
  await pool.query(
    "update webhook_endpoints set enabled = false where gallery_id = $1 and description like 'soak %' and enabled",
    [galleryId],
  );
  const endpoint = await api<{ id: string; secret: string }>(origin, "/gallery/webhook-endpoints", {
    method: "POST",
    token: secretKey,
    body: JSON.stringify({ url: receiver.url, event_types: ["*"], description: `soak ${RUN}` }),
  });
  receiver.setSecret(endpoint.secret);
  parts.push({
    name: "webhook endpoint",
    stop: async () => {
      await pool.query("update webhook_endpoints set enabled = false where id = $1", [endpoint.id]);
    },
  });
  say(`webhook endpoint ${endpoint.id} → ${receiver.url} (every event type)`);

  // The connectors: the editor's sample connections of WhatsApp and email, as npm run inbox:sample makes them.
  const session = (
    await api<{ token: string }>(origin, "/auth/sessions", {
      method: "POST",
      body: JSON.stringify(DEMO_EDITOR),
    })
  ).token;
  const connections = (
    await api<{ data: Connection[] }>(origin, "/gallery/inbox/connections?limit=100", { token: session })
  ).data;
  const sampleConnection = async (channel: "whatsapp" | "email", secrets: Record<string, string>) => {
    let c = connections.find((x) => x.channel === channel && x.provider === "sample");
    c ??= await api<Connection>(origin, "/gallery/inbox/connections", {
      method: "POST",
      token: session,
      body: JSON.stringify({
        provider: "sample",
        channel,
        address: channel === "email" ? `soak-${RUN}@gallery.example` : SAMPLE_NUMBER,
      }),
    });
    if (Object.keys(secrets).length === 0) return c;
    return api<Connection>(origin, `/gallery/inbox/connections/${c.id}`, {
      method: "PATCH",
      token: session,
      body: JSON.stringify({ secrets }),
    });
  };
  const appSecret = randomBytes(24).toString("base64url");
  const whatsapp = await sampleConnection("whatsapp", {
    app_secret: appSecret,
    verify_token: `verify-${appSecret.slice(0, 12)}`,
  });
  const email = await sampleConnection("email", {});

  // What the readers read.
  const rooms = (
    await pool.query<{ slug: string }>(
      `select slug from viewing_rooms where gallery_id = $1 and visibility = 'public'
         and coalesce(opens_at <= now(), true) and coalesce(closes_at > now(), true)
       order by created_at desc, id desc limit 3`,
      [galleryId],
    )
  ).rows.map((r) => r.slug);
  if (rooms.length === 0) throw new Error("the demo gallery has no open public viewing room");
  const artworkIds = (
    await pool.query<{ id: string }>("select id from artworks where gallery_id = $1 order by id limit 50", [
      galleryId,
    ])
  ).rows.map((r) => r.id);
  const contactIds = (
    await pool.query<{ id: string }>(
      "select id from contacts where gallery_id = $1 and archived_at is null order by id limit 50",
      [galleryId],
    )
  ).rows.map((r) => r.id);

  const backlog = async () => {
    const r = await pool.query<{ engine: string; pending: string; oldest_s: number | null }>(
      `select (select count(*) from judgment_subjects where gallery_id = $1 and judged_version < version) as engine,
          (select count(*) from webhook_deliveries where endpoint_id = $2 and status = 'pending') as pending,
          (select extract(epoch from now() - min(stale_since))::float8 from judgment_subjects
             where gallery_id = $1 and judged_version < version) as oldest_s`,
      [galleryId, endpoint.id],
    );
    return {
      engine: Number(r.rows[0]!.engine),
      pending: Number(r.rows[0]!.pending),
      oldestStaleS: r.rows[0]!.oldest_s,
    };
  };
  // Whatever the engine has not judged from before (a first run: the whole demo) is judged before the load.
  const settleDeadline = Date.now() + 300_000;
  let before = await backlog();
  while (before.engine > 0 && Date.now() < settleDeadline) {
    say(`  the engine judges what was waiting: ${before.engine} subjects`);
    await sleep(5_000);
    before = await backlog();
  }

  // Requests of each class.
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const pick = <T>(list: T[], i: number) => list[i % list.length]!;
  const publicCall = (i: number): Call =>
    i % 4 === 3
      ? {
          op: "GET /public/viewing-rooms",
          url: `${origin}/v1/public/viewing-rooms`,
          init: { headers: { ...auth(publishable), origin: BROWSER_ORIGIN } },
        }
      : {
          op: "GET /public/viewing-rooms/{slug}",
          url: `${origin}/v1/public/viewing-rooms/${pick(rooms, i)}`,
          init: { headers: { ...auth(publishable), origin: BROWSER_ORIGIN } },
        };
  const integratorCalls: ((i: number) => Call)[] = [
    () => ({ op: "GET /gallery/artworks", url: `${origin}/v1/gallery/artworks?limit=20`, init: {} }),
    (i) => ({
      op: "GET /gallery/artworks/{id}",
      url: `${origin}/v1/gallery/artworks/${pick(artworkIds, i)}`,
      init: {},
    }),
    () => ({ op: "GET /gallery/contacts", url: `${origin}/v1/gallery/contacts?limit=20`, init: {} }),
    (i) => ({
      op: "GET /gallery/contacts/{id}",
      url: `${origin}/v1/gallery/contacts/${pick(contactIds, i)}`,
      init: {},
    }),
    () => ({ op: "GET /gallery/events", url: `${origin}/v1/gallery/events?limit=20`, init: {} }),
  ];
  const integratorCall = (i: number): Call => {
    const c = integratorCalls[i % integratorCalls.length]!(Math.floor(i / integratorCalls.length));
    return { ...c, init: { headers: auth(secretKey) } };
  };
  const writeMarker = (i: number) => `Soak ${RUN} ${i % 2 === 0 ? "c" : "w"}${i}`;
  const writeCall = (i: number, key: string): Call => {
    const contact = i % 2 === 0;
    const marker = writeMarker(i);
    return {
      op: contact ? "POST /gallery/contacts" : "POST /gallery/artworks",
      url: `${origin}/v1/gallery/${contact ? "contacts" : "artworks"}`,
      init: {
        method: "POST",
        headers: { ...auth(secretKey), "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify(
          contact
            ? {
                name: marker,
                contact_type: "collector",
                notes: "Asked about the large blue canvas from the spring show; wants the price and a visit.",
              }
            : {
                title: marker,
                medium: "Oil on canvas",
                year: 2024,
                description: "A large blue canvas from the spring show, in very good condition.",
              },
        ),
      },
    };
  };
  const waTemplate = JSON.parse(readFileSync(join(FIXTURES, "whatsapp", "text.json"), "utf8"));
  const mailTemplate = readFileSync(join(FIXTURES, "email", "gmail-enquiry.eml"), "latin1");
  const mailFrom = /^From:.*<([^>]+)>/im.exec(mailTemplate)?.[1] ?? "sender@example.com";
  const ingestCall = (i: number, id: string): Call => {
    if (i % 2 === 0) {
      const payload = structuredClone(waTemplate);
      const message = payload.entry[0].changes[0].value.messages[0];
      message.id = id;
      message.timestamp = String(Math.floor(Date.now() / 1000));
      // One sender per few messages: new threads and replies to existing ones.
      message.from = `1650555${String(1000 + (i % 40)).padStart(4, "0")}`;
      payload.entry[0].changes[0].value.contacts[0].wa_id = message.from;
      const body = JSON.stringify(payload);
      const signature = `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
      return {
        op: "POST /connectors/whatsapp/{id}",
        url: whatsapp.webhook_url!,
        init: {
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": signature },
          body,
        },
      };
    }
    const raw = mailTemplate.replace(/^Message-ID:.*$/im, `Message-ID: <${id}>`);
    return {
      op: "email handler",
      url: `${origin}/cdn-cgi/handler/email?from=${encodeURIComponent(mailFrom)}&to=${encodeURIComponent(email.inbound_address!)}`,
      init: { method: "POST", body: Buffer.from(raw, "latin1") },
    };
  };

  const classes: {
    name: ClassName;
    title: string;
    concurrency: number;
    rate: number;
    step: (i: number) => Promise<void>;
  }[] = [];
  const writes: Logical[] = [];
  const ingests: Logical[] = [];
  classes.push(
    {
      name: "public",
      title: "public viewing-room reads (browser: publishable token, Origin)",
      concurrency: 4,
      rate: 12 * SCALE,
      step: async (i) => {
        await call("public", publicCall(i));
      },
    },
    {
      name: "integrator",
      title: "integrator list and read calls (secret key)",
      concurrency: 3,
      rate: 6 * SCALE,
      step: async (i) => {
        await call("integrator", integratorCall(i));
      },
    },
    {
      name: "write",
      title: "creates with an Idempotency-Key (contacts, artworks), retried with the same key",
      concurrency: 2,
      rate: 2 * SCALE,
      step: async (i) => {
        const key = randomUUID();
        writes.push(await untilAccepted("write", key, writeMarker(i), () => writeCall(i, key)));
      },
    },
    {
      name: "ingest",
      title: "connector ingest (signed WhatsApp webhooks, mails through the email handler), retried as sent",
      concurrency: 1,
      rate: 1 * SCALE,
      step: async (i) => {
        const id =
          i % 2 === 0
            ? `wamid.soak${RUN}${i}${randomBytes(8).toString("hex")}`
            : `${randomUUID()}@soak.example`;
        ingests.push(await untilAccepted("ingest", id, id, () => ingestCall(i, id)));
      },
    },
  );

  // wrangler rebuilds a session once its watcher settles (the API Worker's [build] watch_dir): the load starts
  // once neither session has rebuilt or reloaded for a while.
  const quietDeadline = Date.now() + 180_000;
  const lastReload = () => Math.max(0, ...reloads.map((r) => r.at));
  while (Date.now() - lastReload() < QUIET_BEFORE_LOAD_MS && Date.now() < quietDeadline) await sleep(1_000);
  await waitFor(origin, apiSession.child, "/v1/health", apiSession.logPath);
  const reloadsBeforeLoad = reloads.length;

  // Warm-up, unmeasured: every class at its pace.
  say(`warm-up ${WARMUP_S} s`);
  const warmDeadline = Date.now() + WARMUP_S * 1000;
  await Promise.all(
    classes
      .filter((c) => c.name === "public" || c.name === "integrator")
      .map((c) => paced(c.concurrency, c.rate, warmDeadline, c.step)),
  );

  const ourPids = new Set<number>([process.pid]);
  for (const r of runtimeSnapshot(sessions)) for (const p of r.processes) ourPids.add(p.pid);
  const busyBefore = otherBusyProcesses(ourPids);
  const loadBefore = machineLoad();
  const memStart = runtimeSnapshot(sessions);
  const receivedBefore = receiver.arrivals.length;
  const backlogStart = await backlog();

  // The load, with the restart in the middle and a sample of the backlogs at every window's end.
  loadStart = Date.now();
  const loadDeadline = loadStart + DURATION_S * 1000;
  say(
    `load for ${DURATION_S} s: ${classes.map((c) => `${c.name} ${c.rate}/s (≤ ${c.concurrency})`).join(", ")}`,
  );
  const windowBacklogs: {
    window: number;
    engine: number | null;
    pending: number | null;
    rssMiB: Record<string, number>;
  }[] = [];
  let window = 0;
  let memSettled: Runtime[] | null = null;
  let heapSettled: Record<string, number | null> | null = null;
  const windowTimer = setInterval(async () => {
    const w = window++;
    if (!memSettled && Date.now() - loadStart >= SETTLE_S * 1000) {
      memSettled = runtimeSnapshot(sessions);
      heapSettled = await workerHeaps(sessions);
    }
    const rssMiB = Object.fromEntries(
      runtimeSnapshot(sessions).map((g) => [g.key, g.processes.reduce((n, p) => n + p.rssKiB, 0) / 1024]),
    );
    try {
      const b = await Promise.race([
        backlog(),
        sleep(3_000).then(() => {
          throw new Error("timeout");
        }),
      ]);
      windowBacklogs.push({ window: w, engine: b.engine, pending: b.pending, rssMiB });
    } catch {
      windowBacklogs.push({ window: w, engine: null, pending: null, rssMiB });
    }
    const s = samples.filter((x) => x.at >= w * WINDOW_MS && x.at < (w + 1) * WINDOW_MS);
    const bad = s.filter((x) => x.status >= 500 || x.status === 0).length;
    say(`  ${(w + 1) * 10} s: ${s.length} requests, ${bad} 5xx or unanswered`);
  }, WINDOW_MS);

  const restart: {
    atS: number | null;
    stopMs: number | null;
    downMs: number | null;
    startMs: number | null;
    pidBefore: number | null;
    pidAfter: number | null;
    error: string | null;
  } = { atS: null, stopMs: null, downMs: null, startMs: null, pidBefore: null, pidAfter: null, error: null };
  const restarter = (async () => {
    if (RESTART_AT_S >= DURATION_S) return;
    await sleep(loadStart + RESTART_AT_S * 1000 - Date.now());
    if (stopLoad) return;
    restart.pidBefore = db.pid();
    restarting = true;
    const t0 = Date.now();
    restart.atS = (t0 - loadStart) / 1000;
    say(`restarting PostgreSQL (postmaster ${restart.pidBefore}) at ${restart.atS.toFixed(1)} s`);
    try {
      await db.shutdown("fast");
      const t1 = Date.now();
      restart.stopMs = t1 - t0;
      await sleep(DOWN_S * 1000);
      const t2 = Date.now();
      restart.downMs = t2 - t0;
      await db.restart();
      restart.startMs = Date.now() - t2;
      restart.pidAfter = db.pid();
      setTimeout(() => {
        restarting = false;
      }, 30_000);
      say(
        `PostgreSQL stopped in ${restart.stopMs} ms, down ${(restart.downMs / 1000).toFixed(1)} s, started in ${restart.startMs} ms (postmaster ${restart.pidAfter})`,
      );
    } catch (err) {
      restart.error = (err as Error).message;
      say(`restart failed: ${restart.error}`);
    }
  })();
  await Promise.all(classes.map((c) => paced(c.concurrency, c.rate, loadDeadline, c.step)));
  const loadEnd = Date.now();
  stopLoad = true;
  await restarter;
  clearInterval(windowTimer);
  const memEnd = runtimeSnapshot(sessions);
  const heapEnd = await workerHeaps(sessions);
  const loadAfter = machineLoad();
  say(`load done after ${((loadEnd - loadStart) / 1000).toFixed(1)} s; draining (up to ${DRAIN_S} s)`);

  // Drain: the outbox (pending deliveries of the endpoint) and the engine backlog.
  const drainStart = Date.now();
  let drained = await backlog().catch(() => null);
  while (Date.now() - drainStart < DRAIN_S * 1000) {
    if (drained && drained.engine === 0 && drained.pending === 0) break;
    await sleep(2_000);
    drained = await backlog().catch(() => null);
  }
  const drainMs = Date.now() - drainStart;
  // The last deliveries' answers reach the database after the receiver got them; a moment for that.
  await sleep(2_000);
  const remaining = await backlog();
  const busyAfter = otherBusyProcesses(ourPids);
  say(
    `after ${(drainMs / 1000).toFixed(0)} s: ${remaining.engine} subjects unjudged, ${remaining.pending} deliveries pending`,
  );

  // Every write and every message acknowledged 2xx is stored exactly once.
  const stored = await pool.query<{ marker: string; n: string }>(
    `select name as marker, count(*) as n from contacts where gallery_id = $1 and name like $2 group by name
     union all
     select title, count(*) from artworks where gallery_id = $1 and title like $2 group by title
     union all
     select trim(both '<>' from provider_message_id), count(*) from inbox_messages
       where gallery_id = $1 and trim(both '<>' from provider_message_id) = any($3::text[]) group by 1`,
    [galleryId, `Soak ${RUN} %`, ingests.map((l) => l.marker)],
  );
  const storedBy = new Map(stored.rows.map((r) => [r.marker, Number(r.n)]));
  const exactlyOnce = (list: Logical[]) => {
    const c = {
      logical: list.length,
      attempts: list.reduce((n, l) => n + l.attempts, 0),
      retried: list.filter((l) => l.attempts > 1).length,
      acknowledged: 0,
      storedOnce: 0,
      missing: 0,
      doubled: 0,
      unacknowledged: 0,
      unacknowledgedStored: 0,
      missingRetryAfter: list.reduce((n, l) => n + l.missingRetryAfter, 0),
      unacknowledgedStatuses: {} as Record<string, number>,
    };
    for (const l of list) {
      const n = storedBy.get(l.marker) ?? 0;
      if (l.acknowledged) {
        c.acknowledged += 1;
        if (n === 1) c.storedOnce += 1;
        else if (n === 0) c.missing += 1;
        else c.doubled += 1;
      } else {
        c.unacknowledged += 1;
        if (n > 0) c.unacknowledgedStored += 1;
        c.unacknowledgedStatuses[l.finalStatus] = (c.unacknowledgedStatuses[l.finalStatus] ?? 0) + 1;
      }
    }
    return c;
  };
  const writeCheck = exactlyOnce(writes);
  const ingestCheck = exactlyOnce(ingests);

  // Deliveries: what the database fanned out to the endpoint against what the receiver verified.
  const rows = await pool.query<{ event_id: string; status: string; attempts: number; type: string }>(
    `select d.event_id, d.status, d.attempt_count as attempts, e.type from webhook_deliveries d
       join domain_events e on e.id = d.event_id where d.endpoint_id = $1`,
    [endpoint.id],
  );
  const verifiedBy = new Map<string, number>();
  for (const a of receiver.arrivals)
    if (a.verified) verifiedBy.set(a.webhookId, (verifiedBy.get(a.webhookId) ?? 0) + 1);
  const dbIds = new Set(rows.rows.map((r) => r.event_id));
  const byStatus: Record<string, number> = {};
  const byType: Record<string, number> = {};
  for (const r of rows.rows) {
    byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    byType[r.type] = (byType[r.type] ?? 0) + 1;
  }
  const deliveryCheck = {
    fannedOut: rows.rows.length,
    byStatus,
    byType,
    requests: receiver.arrivals.length,
    verifiedDistinct: verifiedBy.size,
    notReceived: rows.rows.filter((r) => !verifiedBy.has(r.event_id)).length,
    notReceivedButSucceeded: rows.rows.filter((r) => r.status === "succeeded" && !verifiedBy.has(r.event_id))
      .length,
    doubled: [...verifiedBy.values()].filter((n) => n > 1).length,
    unknown: [...verifiedBy.keys()].filter((id) => !dbIds.has(id)).length,
    unverified: receiver.arrivals.filter((a) => !a.verified).length,
    verificationFailures: receiver.failures.slice(0, 5),
    retriedRows: rows.rows.filter((r) => r.attempts > 1).length,
  };

  // The engine's work over the run.
  const judged = await pool.query<{ kind: string; n: string }>(
    `select kind, count(*) as n from judgment_subjects where gallery_id = $1 and judged_at >= $2 group by kind
     order by kind`,
    [galleryId, new Date(loadStart).toISOString()],
  );

  // Per window: each class, the deliveries received, the backlogs.
  const windows = Math.ceil((loadEnd - loadStart) / WINDOW_MS);
  const perWindow = Array.from({ length: windows }, (_, w) => {
    const from = w * WINDOW_MS;
    const to = from + WINDOW_MS;
    const inWindow = samples.filter((s) => s.at >= from && s.at < to);
    const cls = Object.fromEntries(
      classes.map((c) => [c.name, statsOf(inWindow.filter((s) => s.cls === c.name))]),
    ) as Record<ClassName, ClassStats>;
    const b = windowBacklogs.find((x) => x.window === w);
    return {
      fromS: from / 1000,
      classes: cls,
      requests: inWindow.length,
      ok2xx: inWindow.filter((s) => s.status >= 200 && s.status < 300).length,
      c5xx: inWindow.filter((s) => s.status >= 500).length,
      noAnswer: inWindow.filter((s) => s.status === 0).length,
      deliveries: receiver.arrivals.filter((a) => a.at - loadStart >= from && a.at - loadStart < to).length,
      engineBacklog: b?.engine ?? null,
      pendingDeliveries: b?.pending ?? null,
      rssMiB: b?.rssMiB ?? null,
      reloads: reloads.filter((x) => x.at - loadStart >= from && x.at - loadStart < to).length,
      restart: restart.atS !== null && restart.atS * 1000 >= from && restart.atS * 1000 < to,
    };
  });

  // Failures: 5xx and no answer, by class and by cause, inside and outside the restart's dip.
  const backAtS =
    restart.atS !== null && restart.downMs !== null && restart.startMs !== null
      ? restart.atS + (restart.downMs + restart.startMs) / 1000
      : null;
  const failures = samples.filter((s) => s.status >= 500 || s.status === 0);
  /** The API's answer for an unreachable database: 503 `service_unavailable` with Retry-After. */
  const proper503 = (x: Sample) =>
    x.status === 503 && (x.cause ?? "").startsWith("503 service_unavailable") && !!x.retryAfter;
  const lastFailureS = failures.length ? Math.max(...failures.map((s) => s.at)) / 1000 : null;
  const firstFailureS = failures.length ? Math.min(...failures.map((s) => s.at)) / 1000 : null;
  /** The dip: from the stop to 60 s after the database was back; a failure outside it misses the target. */
  const inDip = (s: Sample) =>
    restart.atS !== null && backAtS !== null && s.at / 1000 >= restart.atS && s.at / 1000 <= backAtS + 60;
  const causes: Record<string, number> = {};
  for (const s of failures) {
    const key = `${s.cls} · ${s.op} · ${s.cause ?? s.status}${s.status === 503 ? (s.retryAfter ? ` · Retry-After ${s.retryAfter}` : " · no Retry-After") : ""}${inDip(s) ? "" : " · OUTSIDE the restart"}`;
    causes[key] = (causes[key] ?? 0) + 1;
  }
  const outsideDip = failures.filter((s) => !inDip(s)).length;
  /** Answers of wrangler's dev proxy while it restarted the Worker (local only), outside the restart. */
  const fromDevProxy = (s: Sample) => (s.cause ?? "").includes("restarted mid-request");
  const devProxy = failures.filter((s) => !inDip(s) && fromDevProxy(s)).length;
  const lastFailureAfterBackS = lastFailureS !== null && backAtS !== null ? lastFailureS - backAtS : null;
  // The first window from which no class saw a failure again: the recovery.
  let recoveredWindow: number | null = null;
  for (let w = perWindow.length - 1; w >= 0; w--) {
    if (perWindow[w]!.c5xx + perWindow[w]!.noAnswer > 0) break;
    recoveredWindow = w;
  }

  const loadSeconds = (loadEnd - loadStart) / 1000;
  const byClass = classes.map((c) => {
    const list = samples.filter((s) => s.cls === c.name);
    const st = statsOf(list);
    const steady = statsOf(list.filter((s) => !inDip(s)));
    return {
      name: c.name,
      title: c.title,
      concurrency: c.concurrency,
      targetRate: c.rate,
      perSecond: st.requests / loadSeconds,
      ...st,
      steady,
      ops: [...new Set(list.map((s) => s.op))],
    };
  });

  // Memory against the bound.
  const sameGroup = (a: Runtime, b: Runtime) => a.group.replace(/\d+/g, "") === b.group.replace(/\d+/g, "");
  const memory = (memSettled ?? memStart).map((g) => {
    const endGroup = memEnd.find((e) => sameGroup(e, g));
    const startGroup = memStart.find((e) => sameGroup(e, g));
    const processes = g.processes.map((p) => {
      const end = endGroup?.processes.find((q) => q.pid === p.pid) ?? null;
      const start = startGroup?.processes.find((q) => q.pid === p.pid) ?? null;
      const bound = (p.rssKiB * MEMORY_FACTOR) / 1024 + MEMORY_SLACK_MIB;
      return {
        pid: p.pid,
        comm: p.comm,
        role: p.role,
        gated: p.role === "driver",
        startRssMiB: start ? start.rssKiB / 1024 : null,
        settledRssMiB: p.rssKiB / 1024,
        endRssMiB: end ? end.rssKiB / 1024 : null,
        baselinePssMiB: p.pssKiB === null ? null : p.pssKiB / 1024,
        endPssMiB: end?.pssKiB == null ? null : end.pssKiB / 1024,
        boundMiB: bound,
        within: end ? end.rssKiB / 1024 <= bound : null,
      };
    });
    const sum = (list: ProcMemory[] | undefined, k: "rssKiB" | "pssKiB") =>
      (list ?? []).reduce((n, p) => n + (p[k] ?? 0), 0) / 1024;
    const baselinePss = sum(g.processes, "pssKiB");
    const endPss = sum(endGroup?.processes, "pssKiB");
    return {
      group: g.group,
      endGroup: endGroup?.group ?? null,
      processes,
      baselineCount: g.processes.length,
      endCount: endGroup?.processes.length ?? 0,
      baselinePssMiB: baselinePss,
      endPssMiB: endPss,
      groupBoundMiB: baselinePss * MEMORY_FACTOR + MEMORY_SLACK_MIB,
    };
  });

  const targets: { target: string; value: string; met: boolean }[] = [];
  // wrangler's dev proxy answers "Your worker restarted mid-request" itself when its pooled connection to the
  // Workers' runtime closes under a request (an idle-timeout race of wrangler's, not an answer of the Workers):
  // counted and named, not held against the project.
  targets.push({
    target:
      "no 5xx and no unanswered request from the Workers outside the restart (from the stop to 60 s after the database is back)",
    value: `${outsideDip - devProxy} (of ${failures.length} failures in all)${devProxy ? `; besides, wrangler's dev proxy answered ${devProxy} itself ("Your worker restarted mid-request"), each retried` : ""}`,
    met: outsideDip - devProxy === 0,
  });
  const dip503 = failures.filter((s) => inDip(s) && proper503(s)).length;
  // As above, an answer of wrangler's dev proxy is not one of the Workers': named, not held.
  const writeFailures = failures.filter((x) => x.cls === "write" && !fromDevProxy(x));
  const proxyWrites = failures.filter((x) => x.cls === "write" && fromDevProxy(x)).length;
  targets.push({
    target: "every write the Workers failed was 503 service_unavailable with Retry-After",
    value: `${writeFailures.filter((x) => !proper503(x)).length} otherwise, of ${writeFailures.length} failed attempts${proxyWrites ? `; besides, ${proxyWrites} answered by wrangler's dev proxy itself, each retried` : ""}`,
    met: writeFailures.every(proper503),
  });
  targets.push({
    target: "every write acknowledged 2xx is stored exactly once",
    value: `${writeCheck.storedOnce} of ${writeCheck.acknowledged} (missing ${writeCheck.missing}, doubled ${writeCheck.doubled})`,
    met: writeCheck.missing === 0 && writeCheck.doubled === 0,
  });
  targets.push({
    target: "every write is acknowledged in the end (retried with its key)",
    value: `${writeCheck.acknowledged} of ${writeCheck.logical}`,
    met: writeCheck.unacknowledged === 0,
  });
  targets.push({
    target: "every message acknowledged 2xx is stored exactly once",
    value: `${ingestCheck.storedOnce} of ${ingestCheck.acknowledged} (missing ${ingestCheck.missing}, doubled ${ingestCheck.doubled}; ${ingestCheck.unacknowledged} never acknowledged)`,
    met: ingestCheck.missing === 0 && ingestCheck.doubled === 0 && ingestCheck.unacknowledged === 0,
  });
  targets.push({
    target: `outbox and engine backlog drained within ${DRAIN_S} s of the load's end`,
    value: `${remaining.pending} deliveries pending, ${remaining.engine} subjects unjudged after ${(drainMs / 1000).toFixed(0)} s`,
    met: remaining.pending === 0 && remaining.engine === 0,
  });
  targets.push({
    target: "every delivery verified, none missing, none doubled",
    value: `${deliveryCheck.verifiedDistinct} verified of ${deliveryCheck.fannedOut} fanned out; ${deliveryCheck.notReceived} not received, ${deliveryCheck.doubled} doubled, ${deliveryCheck.unverified} unverified, ${deliveryCheck.unknown} unknown`,
    met:
      deliveryCheck.notReceived === 0 &&
      deliveryCheck.doubled === 0 &&
      deliveryCheck.unverified === 0 &&
      deliveryCheck.unknown === 0,
  });
  for (const g of memory) {
    if (g.group.startsWith("PostgreSQL")) {
      targets.push({
        target: `PostgreSQL, its processes' PSS summed ≤ baseline × ${MEMORY_FACTOR} + ${MEMORY_SLACK_MIB} MiB (a new postmaster after the restart)`,
        value: `${g.baselinePssMiB.toFixed(0)} → ${g.endPssMiB.toFixed(0)} MiB (bound ${g.groupBoundMiB.toFixed(0)})`,
        met: g.endPssMiB <= g.groupBoundMiB,
      });
      continue;
    }
    for (const p of g.processes) {
      if (!p.gated || p.settledRssMiB < 20) continue;
      targets.push({
        target: `${g.group}: ${p.comm} ${p.pid} (${p.role}) RSS ≤ baseline × ${MEMORY_FACTOR} + ${MEMORY_SLACK_MIB} MiB`,
        value: `${p.settledRssMiB.toFixed(0)} → ${p.endRssMiB === null ? "gone" : p.endRssMiB.toFixed(0)} MiB (bound ${p.boundMiB.toFixed(0)})`,
        met: p.within === true,
      });
    }
  }

  const heaps = sessions.map((session) => {
    const baseline = heapSettled?.[session.name] ?? null;
    const end = heapEnd[session.name] ?? null;
    const bound = baseline === null ? null : baseline * MEMORY_FACTOR + HEAP_SLACK_MIB;
    return { session: session.name, baselineMiB: baseline, endMiB: end, boundMiB: bound };
  });
  for (const h of heaps) {
    const mib1 = (v: number | null) => (v === null ? "not read" : v.toFixed(1));
    targets.push({
      target: `wrangler dev (${h.session}): the primary Worker's JavaScript heap in use ≤ baseline × ${MEMORY_FACTOR} + ${HEAP_SLACK_MIB} MiB`,
      value: `${mib1(h.baselineMiB)} → ${mib1(h.endMiB)} MiB (bound ${mib1(h.boundMiB)})`,
      met: h.endMiB !== null && h.boundMiB !== null && h.endMiB <= h.boundMiB,
    });
  }

  const report = {
    at: startedAt.toISOString(),
    tree,
    node: process.version,
    settings: {
      durationS: DURATION_S,
      restartAtS: RESTART_AT_S,
      downS: DOWN_S,
      drainS: DRAIN_S,
      scale: SCALE,
      windowS: WINDOW_MS / 1000,
      cronPollS: CRON_POLL_MS / 1000,
      warmupS: WARMUP_S,
      retryForS: RETRY_FOR_MS / 1000,
      memoryBound: { factor: MEMORY_FACTOR, slackMiB: MEMORY_SLACK_MIB, baselineAtS: SETTLE_S },
    },
    machine: {
      cpus: os.cpus().length,
      loadBefore,
      loadAfter,
      otherBusyBefore: busyBefore,
      otherBusyAfter: busyAfter,
    },
    loadSeconds,
    backlogStart,
    engineBeforeLoad: before,
    restart: { ...restart, backAtS },
    byClass,
    failures: {
      total: failures.length,
      c5xx: failures.filter((s) => s.status >= 500).length,
      noAnswer: failures.filter((s) => s.status === 0).length,
      outsideDip,
      dip503WithRetryAfter: dip503,
      firstS: firstFailureS,
      lastS: lastFailureS,
      lastAfterBackS: lastFailureAfterBackS,
      recoveredFromS: recoveredWindow === null ? null : recoveredWindow * (WINDOW_MS / 1000),
      causes,
    },
    writes: writeCheck,
    ingest: ingestCheck,
    deliveries: { ...deliveryCheck, receivedBeforeLoad: receivedBefore },
    engine: {
      judgedSinceLoadStart: Object.fromEntries(judged.rows.map((r) => [r.kind, Number(r.n)])),
    },
    drain: { ms: drainMs, remaining },
    ticks: {
      count: ticks.length,
      statuses: ticks.reduce<Record<string, number>>((m, t) => {
        m[t.status] = (m[t.status] ?? 0) + 1;
        return m;
      }, {}),
    },
    memory,
    heaps,
    windows: perWindow,
    neonLocalLog: { lines: neonLog.length, sample: neonLog.slice(0, 5) },
    strayDatabaseErrors,
    wranglerReloads: {
      beforeLoad: reloadsBeforeLoad,
      duringLoad: reloads.filter((x) => x.at >= loadStart && x.at <= loadEnd).length,
      lines: reloads.map((x) => ({ session: x.session, atS: (x.at - loadStart) / 1000, line: x.line })),
    },
    targets,
  };
  const ms = (v: number | null) => (v === null ? "–" : `${v.toFixed(0)} ms`);
  const mib = (v: number | null) => (v === null ? "–" : `${v.toFixed(0)} MiB`);
  const r = report;
  const shared =
    r.machine.otherBusyBefore.length || r.machine.otherBusyAfter.length
      ? `The machine was shared: other processes busy just before the load (${r.machine.otherBusyBefore.join(", ") || "none"}) and after it (${r.machine.otherBusyAfter.join(", ") || "none"}); ${r.machine.loadBefore} before, ${r.machine.loadAfter} at the end.`
      : `No other process was busy just before or after the load (${r.machine.loadBefore} before, ${r.machine.loadAfter} at the end).`;
  const md = [
    "# Sustained load, measured",
    "",
    `Run ${r.at} on \`${r.tree}\` (\`npm run bench:soak${DURATION_S === 600 ? "" : ` -- --duration ${DURATION_S}`}\`): **${r.loadSeconds.toFixed(0)} s of mixed load** (${DURATION_S === 600 ? "the full run" : `a shorter run than the full 600 s`}), the database restarted at ${r.restart.atS?.toFixed(1) ?? "– (no restart)"} s. The stack as \`npm start\` runs it: embedded PostgreSQL (the demo gallery), the local Neon endpoint in the bench's own Node process, \`wrangler dev\` for the API Worker with the engine Worker beside it, for the cron Worker (its \`/__scheduled\` every ${r.settings.cronPollS} s) with an engine Worker of its own, and for the engine Worker alone (its scheduled fits, the same); rate limits not counted. ${r.machine.cpus} CPUs. ${shared}`,
    "",
    "## Targets",
    "",
    "| target | measured | met |",
    "| --- | --- | --- |",
    ...r.targets.map((t) => `| ${t.target} | ${t.value} | ${t.met ? "yes" : "**no**"} |`),
    "",
    "## Throughput and latency per class",
    "",
    `Each class runs a fixed number of loops (its concurrency bound) paced to a target rate; a write or a message that fails with a 5xx or no answer is retried with the same key after \`Retry-After\` (at most ${RETRY_AFTER_CAP_S} s; ${RETRY_DEFAULT_MS / 1000} s without one), for at most ${r.settings.retryForS} s. Every attempt is a request below. Latency is the client's (sending to the body read), on the whole run and outside the restart's dip.`,
    "",
    "| class | loops | target /s | requests | /s | 2xx | 4xx | 5xx | no answer | p50 | p90 | p99 | max | p50 / p99 outside the dip |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...r.byClass.map(
      (c) =>
        `| ${c.title} | ${c.concurrency} | ${c.targetRate} | ${c.requests} | ${c.perSecond.toFixed(1)} | ${c.ok2xx} | ${c.c4xx} | ${c.c5xx} | ${c.noAnswer} | ${ms(c.p50)} | ${ms(c.p90)} | ${ms(c.p99)} | ${ms(c.max)} | ${ms(c.steady.p50)} / ${ms(c.steady.p99)} |`,
    ),
    "",
    `Operations: ${r.byClass.map((c) => `${c.name}: ${c.ops.join(", ")}`).join("; ")}.`,
    "",
    "## The restart",
    "",
    r.restart.atS === null
      ? "No restart in this run."
      : `At ${r.restart.atS.toFixed(1)} s the postmaster (pid ${r.restart.pidBefore}) was sent SIGINT (fast shutdown): down after ${r.restart.stopMs} ms, kept down ${DOWN_S} s, started again on the same port and data in ${r.restart.startMs} ms (new postmaster pid ${r.restart.pidAfter}); back at ${r.restart.backAtS?.toFixed(1)} s.${r.restart.error ? ` The restart failed: ${r.restart.error}.` : ""} Failed requests: ${r.failures.total} (${r.failures.c5xx} 5xx, ${r.failures.noAnswer} without an answer), the first at ${r.failures.firstS?.toFixed(1) ?? "–"} s, the last at ${r.failures.lastS?.toFixed(1) ?? "–"} s (${r.failures.lastAfterBackS === null ? "–" : `${r.failures.lastAfterBackS.toFixed(1)} s after the database was back`}); no failure from ${r.failures.recoveredFromS ?? "–"} s on.`,
    "",
    "5xx and unanswered requests by class, operation and cause:",
    "",
    "| class · operation · cause | count |",
    "| --- | ---: |",
    ...(Object.keys(r.failures.causes).length
      ? Object.entries(r.failures.causes)
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `| ${k} | ${n} |`)
      : ["| none | 0 |"]),
    "",
    "## Per 10 s window",
    "",
    `Requests of every class per window (2xx / 5xx / no answer), each class's count and p99, webhook deliveries received, and the backlogs at the window's end (– when the database could not be asked).`,
    "",
    `| from | requests | 2xx | 5xx | no answer | ${r.byClass.map((c) => `${c.name} n / p99`).join(" | ")} | deliveries | engine backlog | pending deliveries | RSS MiB: driver / api / cron / PostgreSQL |`,
    `| ---: | ---: | ---: | ---: | ---: | ${r.byClass.map(() => "---:").join(" | ")} | ---: | ---: | ---: | ---: |`,
    ...r.windows.map(
      (w) =>
        `| ${w.fromS} s${w.restart ? " (restart)" : ""}${w.reloads ? ` (${w.reloads} wrangler reload${w.reloads > 1 ? "s" : ""})` : ""} | ${w.requests} | ${w.ok2xx} | ${w.c5xx} | ${w.noAnswer} | ${r.byClass.map((c) => `${w.classes[c.name].requests} / ${ms(w.classes[c.name].p99)}`).join(" | ")} | ${w.deliveries} | ${w.engineBacklog ?? "–"} | ${w.pendingDeliveries ?? "–"} | ${w.rssMiB ? ["driver", "api", "cron", "postgres"].map((k) => (w.rssMiB?.[k] === undefined ? "–" : w.rssMiB[k]!.toFixed(0))).join(" / ") : "–"} |`,
    ),
    "",
    "## Writes, messages, deliveries, judgments",
    "",
    "| measure | writes | messages |",
    "| --- | ---: | ---: |",
    `| sent (distinct keys) | ${r.writes.logical} | ${r.ingest.logical} |`,
    `| attempts | ${r.writes.attempts} | ${r.ingest.attempts} |`,
    `| retried with the same key | ${r.writes.retried} | ${r.ingest.retried} |`,
    `| acknowledged 2xx | ${r.writes.acknowledged} | ${r.ingest.acknowledged} |`,
    `| acknowledged and stored exactly once | ${r.writes.storedOnce} | ${r.ingest.storedOnce} |`,
    `| acknowledged, not stored | ${r.writes.missing} | ${r.ingest.missing} |`,
    `| acknowledged, stored more than once | ${r.writes.doubled} | ${r.ingest.doubled} |`,
    `| never acknowledged (stored anyway) | ${r.writes.unacknowledged} (${r.writes.unacknowledgedStored}) | ${r.ingest.unacknowledged} (${r.ingest.unacknowledgedStored}) |`,
    `| 503 without Retry-After | ${r.writes.missingRetryAfter} | ${r.ingest.missingRetryAfter} |`,
    "",
    `Webhook deliveries to the endpoint: ${r.deliveries.fannedOut} fanned out (${Object.entries(
      r.deliveries.byStatus,
    )
      .map(([k, n]) => `${n} ${k}`)
      .join(
        ", ",
      )}; ${r.deliveries.retriedRows} needed more than one attempt), ${r.deliveries.requests} requests received, ${r.deliveries.verifiedDistinct} distinct \`webhook-id\`s verified with \`standardwebhooks\`; not received ${r.deliveries.notReceived}, doubled ${r.deliveries.doubled}, unverified ${r.deliveries.unverified}, unknown ${r.deliveries.unknown}. By type: ${Object.entries(
      r.deliveries.byType,
    )
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}.`,
    "",
    `Engine: ${r.engineBeforeLoad.engine} subjects waiting before the load, ${r.backlogStart.engine} at its start; judged since the load started (subjects whose latest judgment is from the run): ${
      Object.entries(r.engine.judgedSinceLoadStart)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ") || "none"
    }. Cron ticks: ${r.ticks.count} (${Object.entries(r.ticks.statuses)
      .map(([k, n]) => `${n} × ${k === "0" ? "no answer" : k}`)
      .join(", ")}).`,
    "",
    `Errors of ended database connections that reached a pg client of the bench's own process with no listener (the local Neon endpoint's or the bench's; counted during the restart, not fatal): ${r.strayDatabaseErrors.length}${r.strayDatabaseErrors.length ? ` (${[...new Set(r.strayDatabaseErrors.map((e) => `${e.code} ${e.message}`))].join("; ")})` : ""}. The local Neon endpoint logged ${r.neonLocalLog.lines} lines${r.neonLocalLog.sample.length ? ` (first: ${r.neonLocalLog.sample[0]})` : ""}.`,
    "",
    `wrangler printed ${r.wranglerReloads.beforeLoad} lines of starting, rebuilding or reloading a session's Worker before the load (the API Worker's [build] watcher rebuilds once after start; the load waited until neither session had printed one for ${QUIET_BEFORE_LOAD_MS / 1000} s) and ${r.wranglerReloads.duringLoad} during it (a POST in flight during a reload is answered 503 by wrangler's proxy, not by the API).`,
    "",
    `Drain: ${r.drain.remaining.pending} deliveries pending and ${r.drain.remaining.engine} subjects unjudged ${(r.drain.ms / 1000).toFixed(0)} s after the load ended (bound ${DRAIN_S} s).`,
    "",
    "## Memory",
    "",
    `RSS (and PSS, which shares shared pages out among the processes that map them) of every runtime process after the ${WARMUP_S} s warm-up (start), ${SETTLE_S.toFixed(0)} s into the load (baseline: by then the engine has loaded its models and the caches have filled, a one-time cost) and when the load ended (end). Bound: a process's RSS at the end ≤ its baseline × ${MEMORY_FACTOR} + ${MEMORY_SLACK_MIB} MiB; PostgreSQL, whose processes are new after the restart, by its processes' PSS summed. Held to it: this process (\`driver\`) and PostgreSQL. The Workers are held by their own memory instead, the JavaScript heap in use of each session's primary Worker (the API Worker, the cron Worker, the engine Worker of the fits' session) read through wrangler's inspector, to its baseline × ${MEMORY_FACTOR} + ${HEAP_SLACK_MIB} MiB (the table after this one): the RSS of the workerd that runs them (\`workers\`) also holds what \`wrangler dev\` runs beside them in that process (the local Cache API, KV, R2 and Queues), which production does not, so it is reported. So are wrangler's \`dev-proxy\` (the workerd in front of the Workers on the session's port) and wrangler's own node and esbuild, local tooling that is not deployed. The engine Workers that judge share the \`workers\` process of the API and cron sessions and are not inspected: their memory shows only in that RSS; the engine Worker of the fits' session is that session's primary, and is.`,
    "",
    "| group | process | role | start RSS | baseline RSS | end RSS | baseline PSS | end PSS | bound | within |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...r.memory.flatMap((g) =>
      g.group.startsWith("PostgreSQL")
        ? [
            `| ${g.group} → ${g.endGroup ?? "–"} | ${g.baselineCount} → ${g.endCount} processes | postgres | | | | ${mib(g.baselinePssMiB)} | ${mib(g.endPssMiB)} | ${mib(g.groupBoundMiB)} (PSS) | ${g.endPssMiB <= g.groupBoundMiB ? "yes" : "**no**"} |`,
          ]
        : g.processes.map(
            (p) =>
              `| ${g.group} | ${p.comm} ${p.pid} | ${p.role} | ${mib(p.startRssMiB)} | ${mib(p.settledRssMiB)} | ${mib(p.endRssMiB)} | ${mib(p.baselinePssMiB)} | ${mib(p.endPssMiB)} | ${p.gated ? mib(p.boundMiB) : "–"} | ${!p.gated ? "not held" : p.within === null ? "gone" : p.within ? "yes" : "**no**"} |`,
          ),
    ),
    "",
    "The Workers' JavaScript heap in use (MiB), at the baseline and when the load ended, against the bound:",
    "",
    "| session | primary Worker's heap, baseline | end | bound | within |",
    "| --- | ---: | ---: | ---: | --- |",
    ...r.heaps.map(
      (h) =>
        `| ${h.session} | ${h.baselineMiB?.toFixed(1) ?? "not read"} | ${h.endMiB?.toFixed(1) ?? "not read"} | ${h.boundMiB?.toFixed(1) ?? "–"} | ${h.endMiB !== null && h.boundMiB !== null && h.endMiB <= h.boundMiB ? "yes" : "**no**"} |`,
    ),
    "",
  ].join("\n");
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${RESULTS_NAME}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(RESULTS_DIR, `${RESULTS_NAME}.md`), md);
  for (const t of targets) say(`${t.met ? "met " : "MISS"}  ${t.target}: ${t.value}`);
  say(`results in ${relative(ROOT, join(RESULTS_DIR, RESULTS_NAME))}.md and ${RESULTS_NAME}.json`);
  return targets.every((t) => t.met) ? 0 : 1;
}

main().then(
  (code) => stopAll(code),
  (err: Error) => void stopAll(1, `bench:soak failed: ${err.stack ?? err.message}`),
);
