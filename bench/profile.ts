/**
 * `npm run bench:profile`: where the API Worker spends its CPU, per request, on the demo gallery.
 *
 * The local stack as `npm start` runs it (its own embedded PostgreSQL in .data/bench-profile-postgres, migrated and
 * seeded with the demo gallery; the local Neon endpoint; `wrangler dev` of the API Worker alone, unminified so that
 * the profile names its functions; `--minified` for the bundle as deployed), then per scenario, sequentially (one request at a time, as the black-box measurement is made):
 *
 * 1. a warm-up of WARMUP requests;
 * 2. N requests with the V8 sampling profiler of the API Worker's isolate running (wrangler's inspector, the
 *    DevTools protocol's `Profiler` domain, 100 µs sampling): the isolate's busy time per request (every sample
 *    that is not `(idle)`), split by where the samples' functions live (this project's files by folder, each
 *    package of node_modules) and the top functions by self time;
 * 3. N requests with the profiler off, in rounds alternating with as many of `GET /v1/health`: the CPU of the
 *    workerd process that runs the Worker (utime + stime from /proc; not wrangler's dev proxy), per request, less
 *    what the same process spends idle over the same wall time, and its ratio to the health route's.
 *
 * Writes bench/results/profile.md and profile.json (`--results NAME` for another name), and with `--cpuprofile`
 * each scenario's profile as .data/bench-profile/<scenario>.cpuprofile (open it in Chrome DevTools' Performance
 * panel). Options: `--requests N` (default 1000), `--only a,b` (scenario names), `--results NAME`.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { WebSocket } from "ws";
import { allScopes, PUBLISHABLE_SCOPES } from "../lib/scopes";
import { insertApiKey, localSigningSecret, localWebhookSecretKey } from "../scripts/local-keys";
import { migrateDatabase } from "../scripts/migrate";
import { startNeonLocal } from "../scripts/neon-local";
import { freePort, startEmbeddedDatabase } from "../scripts/postgres";
import { DEMO_SLUG, seedDemo } from "../scripts/seed/index";
import { lazyLocalBucket, spawnWranglerDev, stopChild } from "../scripts/wrangler";
import { procStat, TICK_MS, type Workerd, workerds } from "./proc";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DATA_DIR = ".data/bench-profile-postgres";
const DATABASE = "gallery_profile";
const PERSIST_DIR = ".data/bench-profile-wrangler";
const BROWSER_ORIGIN = "https://collector.profile.example";
const WARMUP = 200;
const SAMPLING_US = Number(process.env.PROFILE_SAMPLING_US ?? 1000);
/** Rounds of a scenario's requests, each after as many of the health route's. */
const ROUNDS = 5;

const { values: args } = parseArgs({
  options: {
    requests: { type: "string" },
    only: { type: "string" },
    results: { type: "string" },
    cpuprofile: { type: "boolean" },
    minified: { type: "boolean" },
  },
});
const REQUESTS = Number(args.requests ?? 1000);
const ONLY = args.only?.split(",").map((s) => s.trim());
const RESULTS = args.results ?? "profile";

const say = (msg: string) => console.log(`[profile] ${msg}`);

interface Scenario {
  name: string;
  title: string;
  /** Builds one request; `i` counts from 0 over the scenario's requests. */
  request: (i: number) => { method?: string; path: string; headers?: Record<string, string>; body?: string };
  status: number;
}

// --- the DevTools protocol ------------------------------------------------------------------------------------

class Inspector {
  private next = 1;
  private pending = new Map<number, (v: { result?: unknown; error?: unknown }) => void>();
  private constructor(private socket: WebSocket) {
    socket.on("message", (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
      if (msg.id !== undefined) this.pending.get(msg.id)?.(msg);
    });
  }
  static open(port: number): Promise<Inspector> {
    return new Promise((res, rej) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      socket.once("open", () => res(new Inspector(socket)));
      socket.once("error", rej);
    });
  }
  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    return new Promise((res, rej) => {
      this.pending.set(id, (msg) => {
        this.pending.delete(id);
        if (msg.error) rej(new Error(`${method}: ${JSON.stringify(msg.error)}`));
        else res(msg.result as T);
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }
  close() {
    this.socket.close();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives: this project's folder (http/, lib/, db/…), a package of node_modules, or V8's own. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] as string;
  const own = /(?:^|\/)(functions|http|lib|services|db)\/([^/?#]+)/.exec(url);
  if (own) return `${own[1]}/${own[1] === "lib" || own[1] === "http" ? own[2] : ""}`.replace(/\/$/, "/");
  return url.replace(/^.*\//, "");
}

interface Summary {
  samples: number;
  busyMs: number;
  perRequestMs: number;
  places: { place: string; ms: number; share: number }[];
  functions: { fn: string; place: string; ms: number; share: number }[];
}

function summarise(profile: CpuProfile, requests: number): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    // timeDeltas[i] is the time before sample i; the sample stands for the interval that follows it.
    const dt = profile.timeDeltas[i + 1] ?? SAMPLING_US;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  }
  let busy = 0;
  const places = new Map<string, number>();
  const fns = new Map<string, { place: string; us: number }>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") continue;
    busy += us;
    const place = placeOf(url, functionName);
    places.set(place, (places.get(place) ?? 0) + us);
    const key = `${functionName || "(anonymous)"} ${url ? `${url.replace(/^.*?(node_modules\/|\/(?=functions|http|lib|services|db)\/)/, "$1")}:${lineNumber + 1}` : ""}`;
    const f = fns.get(key) ?? { place, us: 0 };
    f.us += us;
    fns.set(key, f);
  }
  const share = (us: number) => Math.round((us / busy) * 1000) / 10;
  return {
    samples: profile.samples.length,
    busyMs: busy / 1000,
    perRequestMs: busy / 1000 / requests,
    places: [...places]
      .sort((a, b) => b[1] - a[1])
      .map(([place, us]) => ({ place, ms: us / 1000 / requests, share: share(us) })),
    functions: [...fns]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, 25)
      .map(([fn, { place, us }]) => ({ fn, place, ms: us / 1000 / requests, share: share(us) })),
  };
}

// --- the workerd process's CPU ----------------------------------------------------------------------------------

/** The workerd that runs the Worker under a wrangler process (not wrangler's dev proxy in front of it). */
function workerPid(root: number, devPort: number): number {
  const found = workerds(root, devPort).filter((w) => w.role === "worker");
  if (found.length !== 1) throw new Error(`expected one workerd running the Worker, found ${found.length}`);
  return (found[0] as Workerd).pid;
}

/** utime + stime of a process, in clock ticks. */
function ticksOf(pid: number): number {
  const stat = procStat(pid);
  if (!stat) throw new Error(`process ${pid} is gone`);
  return stat.ticks;
}

// --- the run ------------------------------------------------------------------------------------------------------

async function main() {
  process.chdir(ROOT);
  const parts: { name: string; stop: () => Promise<void> | void }[] = [];
  const stopAll = async () => {
    for (const part of parts.reverse()) await part.stop();
  };
  process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    delete process.env.DATABASE_URL;
    const db = await startEmbeddedDatabase({ dataDir: DATA_DIR, database: DATABASE, port: await freePort() });
    parts.push({ name: "PostgreSQL", stop: () => db.shutdown("fast") });
    await migrateDatabase(db.url);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const bucket = lazyLocalBucket(PERSIST_DIR);
    if (await seedDemo(db.url, { bucket: bucket.open, publicBaseUrl: origin }))
      say("seeded the demo gallery");
    await bucket.close();

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const galleryId = (
      await client.query<{ id: string }>("select id from galleries where slug = $1", [DEMO_SLUG])
    ).rows[0]?.id;
    if (!galleryId) throw new Error("no demo gallery");
    const secret = (
      await insertApiKey(client, { galleryId, kind: "secret", name: "Profile", scopes: allScopes })
    ).token;
    const publishable = (
      await insertApiKey(client, {
        galleryId,
        kind: "publishable",
        name: "Profile",
        scopes: PUBLISHABLE_SCOPES,
      })
    ).token;
    await client.end();

    const neon = await startNeonLocal({ port: 0 });
    parts.push({ name: "local Neon endpoint", stop: () => neon.close() });
    const inspectorPort = await freePort();
    const child = await spawnWranglerDev({
      config: "wrangler.toml",
      // The API Worker alone: the engine's judging of a write runs in its own Worker (`npm run bench:engine`), and
      // no profiled request reaches the Email or MCP Worker its service bindings name.
      port,
      inspectorPort,
      vars: {
        PUBLIC_BASE_URL: origin,
        DATABASE_URL: db.url,
        NEON_LOCAL_ENDPOINT: neon.url,
        SIGNING_SECRET: localSigningSecret(".data/bench-profile-secret"),
        WEBHOOK_SECRET_KEY: localWebhookSecretKey(".data/bench-profile-webhook-secret-key"),
        ENVIRONMENT: "local",
        RATE_LIMITS: "off",
      },
      persistTo: PERSIST_DIR,
      // Unminified, so that the profile names the project's functions (wrangler.toml minifies the deployed bundle).
      extraArgs: args.minified ? [] : ["--minify=false"],
    });
    let wranglerLog = "";
    child.stdout.on("data", (c: Buffer) => {
      wranglerLog = (wranglerLog + c.toString()).slice(-20_000);
    });
    child.stderr.on("data", (c: Buffer) => {
      wranglerLog = (wranglerLog + c.toString()).slice(-20_000);
    });
    parts.push({ name: "wrangler", stop: () => stopChild(child) });
    const deadline = Date.now() + 180_000;
    for (;;) {
      try {
        const res = await fetch(`${origin}/v1/health`);
        await res.arrayBuffer();
        if (res.status === 200) break;
      } catch {
        // Not yet.
      }
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`wrangler did not start:\n${wranglerLog}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    say(`the API Worker answers on ${origin}`);

    const authz = { authorization: `Bearer ${secret}` };
    const visitor = { authorization: `Bearer ${publishable}`, origin: BROWSER_ORIGIN };
    const get = async (path: string, headers: Record<string, string>) => {
      const res = await fetch(`${origin}${path}`, { headers });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const rooms = (await get("/v1/public/viewing-rooms", visitor)) as { data?: { slug: string }[] };
    const roomSlug = rooms.data?.[0]?.slug;
    const contacts = (await get("/v1/gallery/contacts?limit=1", authz)) as { data: { id: string }[] };
    const artworks = (await get("/v1/gallery/artworks?limit=1", authz)) as { data: { id: string }[] };
    say(`the demo gallery: public room ${roomSlug ?? "(none)"}`);

    const run = randomUUID().slice(0, 8);
    const scenarios: Scenario[] = [
      { name: "health", title: "GET /v1/health", request: () => ({ path: "/v1/health" }), status: 200 },
      {
        name: "unauthenticated-401",
        title: "no credential (401): the problem answer without the credential's KV read",
        request: () => ({ path: "/v1/gallery/artworks?limit=0" }),
        status: 401,
      },
      {
        name: "authenticated-400",
        title: "an authenticated request refused before the database (limit=0: 400)",
        request: () => ({ path: "/v1/gallery/artworks?limit=0", headers: authz }),
        status: 400,
      },
      {
        name: "artworks-20",
        title: "artworks list, 20 per page",
        request: () => ({ path: "/v1/gallery/artworks", headers: authz }),
        status: 200,
      },
      {
        name: "artworks-100",
        title: "artworks list, limit=100",
        request: () => ({ path: "/v1/gallery/artworks?limit=100", headers: authz }),
        status: 200,
      },
      {
        name: "artwork",
        title: "one artwork",
        request: () => ({ path: `/v1/gallery/artworks/${artworks.data[0]?.id}`, headers: authz }),
        status: 200,
      },
      {
        name: "contacts-20",
        title: "contacts list, 20 per page",
        request: () => ({ path: "/v1/gallery/contacts", headers: authz }),
        status: 200,
      },
      {
        name: "contact",
        title: "one contact",
        request: () => ({ path: `/v1/gallery/contacts/${contacts.data[0]?.id}`, headers: authz }),
        status: 200,
      },
      {
        name: "events-20",
        title: "events list, 20 per page",
        request: () => ({ path: "/v1/gallery/events", headers: authz }),
        status: 200,
      },
      {
        name: "create-artwork",
        title: "create artwork (fresh Idempotency-Key each)",
        request: (i: number) => ({
          method: "POST",
          path: "/v1/gallery/artworks",
          headers: { ...authz, "content-type": "application/json", "idempotency-key": `profile-${run}-${i}` },
          body: JSON.stringify({ title: `Profile work ${i}`, price_cents: 1_250_000, currency: "USD" }),
        }),
        status: 201,
      },
      ...(roomSlug
        ? [
            {
              name: "public-room-warm",
              title: "public viewing room, warm (edge-cache hit)",
              request: () => ({ path: `/v1/public/viewing-rooms/${roomSlug}`, headers: visitor }),
              status: 200,
            },
            {
              name: "public-rooms-warm",
              title: "public viewing rooms list, warm (edge-cache hit)",
              request: () => ({ path: "/v1/public/viewing-rooms", headers: visitor }),
              status: 200,
            },
          ]
        : []),
    ].filter((s) => !ONLY || s.name === "health" || ONLY.includes(s.name));

    let offset = 0;
    const send = async (s: Scenario, i: number) => {
      const r = s.request(i);
      const res = await fetch(`${origin}${r.path}`, {
        method: r.method ?? "GET",
        headers: r.headers,
        body: r.body,
      });
      await res.arrayBuffer();
      if (res.status !== s.status) throw new Error(`${s.name}: ${res.status}, expected ${s.status}`);
    };

    const pid = workerPid(child.pid as number, port);
    // The process's CPU while idle, per millisecond of wall time: subtracted from each measurement.
    const idleStart = ticksOf(pid);
    const idleFrom = performance.now();
    await new Promise((r) => setTimeout(r, 5_000));
    const idlePerMs = ((ticksOf(pid) - idleStart) * TICK_MS) / (performance.now() - idleFrom);
    say(`workerd ${pid}; idle CPU ${(idlePerMs * 1000).toFixed(1)} ms per second`);
    /** CPU per request of the process over `n` requests of a scenario, less its idle CPU over the same time. */
    const processCpu = async (s: Scenario, n: number) => {
      const before = ticksOf(pid);
      const from = performance.now();
      for (let i = 0; i < n; i++) await send(s, offset++);
      const wall = performance.now() - from;
      return (ticksOf(pid) - before) * TICK_MS - idlePerMs * wall;
    };

    const inspector = await Inspector.open(inspectorPort);
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: SAMPLING_US });
    const outDir = join(ROOT, ".data", "bench-profile");
    mkdirSync(outDir, { recursive: true });

    const results: Record<
      string,
      { title: string; processCpuMs: number; overHealth: number; profile: Summary }
    > = {};
    const health = scenarios.find((s) => s.name === "health") as Scenario;
    for (const s of scenarios) {
      for (let i = 0; i < WARMUP; i++) await send(s, offset++);
      // The process's CPU, profiler off: in rounds alternating with the health route's, so that what else the
      // machine runs weighs on both alike.
      let cpu = 0;
      let healthCpu = 0;
      const round = Math.ceil(REQUESTS / ROUNDS);
      for (let r = 0; r < ROUNDS; r++) {
        healthCpu += await processCpu(health, round);
        cpu += await processCpu(s, round);
      }
      const processCpuMs = cpu / (round * ROUNDS);
      const overHealth = cpu / healthCpu;
      // The isolate's profile.
      await inspector.send("Profiler.start");
      for (let i = 0; i < REQUESTS; i++) await send(s, offset++);
      const { profile } = await inspector.send<{ profile: CpuProfile }>("Profiler.stop");
      if (args.cpuprofile) writeFileSync(join(outDir, `${s.name}.cpuprofile`), JSON.stringify(profile));
      const summary = summarise(profile, REQUESTS);
      results[s.name] = { title: s.title, processCpuMs, overHealth, profile: summary };
      say(
        `${s.name}: process ${processCpuMs.toFixed(3)} ms/req (${overHealth.toFixed(2)}× health), isolate busy ${summary.perRequestMs.toFixed(3)} ms/req`,
      );
    }
    inspector.close();
    writeReport(results);
  } finally {
    await stopAll();
  }
}

function writeReport(
  results: Record<string, { title: string; processCpuMs: number; overHealth: number; profile: Summary }>,
) {
  const health = results.health;
  const lines: string[] = [
    "# Where the API Worker's CPU goes (`npm run bench:profile`)",
    "",
    `${new Date().toISOString()} · the demo gallery, ${REQUESTS} sequential requests per scenario after ${WARMUP} of warm-up, ${readFileSync("/proc/cpuinfo", "utf8").match(/^processor/gm)?.length ?? "?"} CPUs.`,
    "",
    `Process: the CPU of the workerd process running the Worker (utime + stime; not wrangler's dev proxy in front of it), per request, less its idle CPU over the same wall time, in ${ROUNDS} rounds each after as many requests of the health route; ÷ health is the ratio of the two sums. Isolate: the API Worker's busy time in V8's sampling profiler (every sample but \`(idle)\`), per request, in a second run of the same requests: its shares show where the time goes, its absolute figure includes the profiler's own cost.`,
    "",
    "| scenario | process CPU / req | ÷ health | isolate busy / req | ÷ health |",
    "| --- | ---: | ---: | ---: | ---: |",
  ];
  for (const [name, r] of Object.entries(results)) {
    const pr = r.overHealth.toFixed(2);
    const ir = health ? (r.profile.perRequestMs / health.profile.perRequestMs).toFixed(2) : "—";
    lines.push(
      `| ${r.title} (\`${name}\`) | ${r.processCpuMs.toFixed(3)} ms | ${pr}× | ${r.profile.perRequestMs.toFixed(3)} ms | ${ir}× |`,
    );
  }
  for (const [name, r] of Object.entries(results)) {
    lines.push(
      "",
      `## ${r.title} (\`${name}\`)`,
      "",
      "| where | ms / req | share |",
      "| --- | ---: | ---: |",
    );
    for (const p of r.profile.places.slice(0, 12))
      lines.push(`| ${p.place} | ${p.ms.toFixed(3)} | ${p.share}% |`);
    lines.push("", "| function (self time) | where | ms / req | share |", "| --- | --- | ---: | ---: |");
    for (const f of r.profile.functions.slice(0, 15))
      lines.push(`| \`${f.fn.replaceAll("|", "\\|")}\` | ${f.place} | ${f.ms.toFixed(3)} | ${f.share}% |`);
  }
  const dir = resolve(ROOT, "bench/results");
  writeFileSync(join(dir, `${RESULTS}.md`), `${lines.join("\n")}\n`);
  writeFileSync(join(dir, `${RESULTS}.json`), `${JSON.stringify(results, null, 2)}\n`);
  say(`wrote bench/results/${RESULTS}.md`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
