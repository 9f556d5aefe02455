import { type ChildProcess, type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { freePort } from "./postgres";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/** Keeps wrangler and miniflare off the network: no metrics, error reports, update checks or cf.json fetch. */
const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  WRANGLER_HIDE_BANNER: "true",
  NO_UPDATE_NOTIFIER: "1",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

export type WranglerProcess = ChildProcessByStdio<null, Readable, Readable>;

/** Signals a child's whole process group (negative pid: the wrangler bin wrapper, wrangler, workerd, esbuild). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Stops a child started in its own process group: SIGTERM, up to 8 s for it to exit, then SIGKILL; stragglers in
 * the group (workerd) are signalled even when the leader has exited.
 */
export async function stopChild(child: ChildProcess): Promise<void> {
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => child.once("exit", () => r()));
  killGroup(child, "SIGTERM");
  const done = await Promise.race([exited.then(() => true), sleep(8_000).then(() => false)]);
  killGroup(child, done ? "SIGTERM" : "SIGKILL");
  if (!done) await Promise.race([exited, sleep(2_000)]);
}

/**
 * How `wrangler dev` reads the env file it is given, whatever the caller's environment says: the file is read
 * (CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV=false would skip it), and the process's own environment is not made into
 * the Worker's bindings beside it.
 */
const ENV_FILE_ENV = {
  CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: "true",
  CLOUDFLARE_INCLUDE_PROCESS_ENV: "false",
};

/** Any wrangler command, offline, from the project root, in its own process group. */
export function spawnWrangler(args: string[], env: Record<string, string> = {}): WranglerProcess {
  return spawn(WRANGLER, args, {
    cwd: ROOT,
    env: { ...process.env, ...OFFLINE_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
}

/** A wrangler command run to its end: its exit code and its output (stdout and stderr, as they came). */
export function runWrangler(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args);
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

export interface WranglerDevOptions {
  config: string;
  /**
   * Further Workers run in the same session (`wrangler dev -c <config> -c <auxiliary>…`): they share its local
   * Queues, which are in-memory and do not reach across sessions. Only `config` is served on `port`, and only it
   * receives `vars`: an auxiliary Worker takes its settings from its own config (localEngineConfig).
   */
  auxiliary?: string[];
  port: number;
  /** wrangler's inspector (the session's primary Worker, over the DevTools protocol); a free port unless given. */
  inspectorPort?: number;
  /**
   * The Worker's settings (secrets among them). They reach wrangler through an env file only the user can read
   * (sessionEnvFile), never on its command line, which any user of the machine sees in `ps`.
   */
  vars: Record<string, string>;
  persistTo: string;
  extraArgs?: string[];
}

/**
 * Writes `vars` as an env file (KEY=value lines, as `.dev.vars` and `.env` are), mode 0600 from its creation on.
 * dotenv reads a single-quoted value as it is (a backquoted one when the value holds a quote); wrangler then expands
 * `$NAME` in a file given by `--env-file`, so each `$` is escaped. A value that no quoting keeps intact (a line
 * break, or both quotes) is refused, by its name.
 */
export function writeEnvFile(path: string, vars: Record<string, string>): void {
  const lines = Object.entries(vars).map(([key, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`${key}: not a variable name`);
    const quote = !value.includes("'") ? "'" : !value.includes("`") ? "`" : null;
    if (quote === null || /[\r\n]/.test(value))
      throw new Error(`${key}: its value cannot be written to an env file (a line break, or both ' and \`)`);
    return `${key}=${quote}${value.replaceAll("$", "\\$")}${quote}`;
  });
  mkdirSync(dirname(path), { recursive: true });
  // A fresh file: the mode applies only to a file being created.
  rmSync(path, { force: true });
  const text = `# Written for one \`wrangler dev\` session (scripts/wrangler.ts); not for editing.\n${lines.join("\n")}\n`;
  writeFileSync(path, text, { mode: 0o600, flag: "wx" });
}

/**
 * The env file of a `wrangler dev` session's Worker: `<persistTo>/<worker name>.env`, beside the session's local
 * state, so that two sessions (npm start's API and cron Workers, the test stack's, a bench's) never share one.
 */
export function sessionEnvFile(config: string, persistTo: string): string {
  const name = /^name = "(.+)"$/m.exec(readFileSync(resolve(ROOT, config), "utf8"))?.[1];
  return resolve(ROOT, persistTo, `${name ?? basename(config, ".toml")}.env`);
}

/**
 * `wrangler dev` of one of the project's Workers, local and offline, as `npm start` and `npm run bench` run
 * it. Its own process group lets the caller signal wrangler and workerd together. The Worker's settings are in
 * the env file that `--env-file` names (sessionEnvFile); its command line holds none of them.
 */
export async function spawnWranglerDev(opts: WranglerDevOptions): Promise<WranglerProcess> {
  const envFile = sessionEnvFile(opts.config, opts.persistTo);
  writeEnvFile(envFile, opts.vars);
  const args = [
    "dev",
    "--config",
    opts.config,
    ...(opts.auxiliary ?? []).flatMap((config) => ["--config", config]),
    "--port",
    String(opts.port),
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(opts.inspectorPort ?? (await freePort())),
    "--local",
    // With --env-file, wrangler reads no .dev.vars or .env of its own: the session's settings are this file's.
    "--env-file",
    envFile,
    "--persist-to",
    opts.persistTo,
    "--show-interactive-dev-session=false",
    ...(opts.extraArgs ?? []),
  ];
  return spawnWrangler(args, ENV_FILE_ENV);
}

/**
 * A config's text for a copy kept under .data/: its paths (`main`, and the modules `[alias]` substitutes, which
 * wrangler resolves from the config's folder) pointed back at the project's files.
 */
function pointedAtSource(source: string, dir = join(ROOT, ".data")): string {
  const up = relative(dir, ROOT) || ".";
  return source
    .replace(/^main = "(.+)"$/m, (_line, main: string) => `main = "${up}/${main}"`)
    .replace(/^("[^"\n]+" = )"\.\/(.+)"$/gm, (_line, key: string, path: string) => `${key}"${up}/${path}"`);
}

/** The engine Worker's config, and its local copy holding the settings of this machine. */
export const ENGINE_CONFIG = "wrangler.engine.toml";
const LOCAL_ENGINE_CONFIG = ".data/wrangler.engine.local.toml";

/**
 * The engine Worker's config for a local session, with `vars` written in: as an auxiliary Worker of a `wrangler
 * dev` session it reads neither the session's `--env-file` nor its `--var`. Without its cron trigger: locally a
 * scheduled run is fired by a request to `/__scheduled` (`--test-scheduled`, npm start's own session of the engine
 * Worker), and wrangler would warn, in each session the engine Worker is beside another, that the trigger does
 * not fire by itself. Kept under .data/ (local settings only) and, as it holds the database URL, readable by the
 * user only (mode 0600); `main` points back at the source. Returns its path, relative to the project root.
 */
export function localEngineConfig(vars: Record<string, string>): string {
  const source = readFileSync(join(ROOT, ENGINE_CONFIG), "utf8");
  const trigger = /^\[triggers\]\ncrons = \[.*\]\n/m;
  if (!trigger.test(source)) throw new Error(`${ENGINE_CONFIG}: no [triggers] crons to leave out locally`);
  const pointed = pointedAtSource(source.replace(trigger, ""));
  // JSON strings are TOML basic strings.
  const table = Object.entries(vars).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  const text = `# Written by npm start from ${ENGINE_CONFIG}, with this machine's settings; not for editing.\n${pointed}\n[vars]\n${table.join("\n")}\n`;
  mkdirSync(join(ROOT, ".data"), { recursive: true });
  // A fresh file: the mode applies only to a file being created.
  rmSync(join(ROOT, LOCAL_ENGINE_CONFIG), { force: true });
  writeFileSync(join(ROOT, LOCAL_ENGINE_CONFIG), text, { mode: 0o600, flag: "wx" });
  return LOCAL_ENGINE_CONFIG;
}

/** The cron Worker's config, and its local copy. */
export const CRON_CONFIG = "wrangler.cron.toml";
const LOCAL_CRON_CONFIG = ".data/wrangler.cron.local.toml";
/**
 * Tickets a batch of the local webhook Queue. Production runs one ticket an invocation, up to 50 invocations side
 * by side; the local Queue runs one batch at a time, so locally a batch carries up to 10 tickets (endpoints), which
 * the consumer delivers side by side, and a slow endpoint's ticket does not hold the others back.
 */
export const LOCAL_WEBHOOK_BATCH = 10;

/**
 * The cron Worker's config for a local session: the same config, its webhook consumer taking LOCAL_WEBHOOK_BATCH
 * tickets a batch. Kept under .data/; `main` points back at the source. Returns its path, relative to the root.
 */
export function localCronConfig(): string {
  const source = readFileSync(join(ROOT, CRON_CONFIG), "utf8");
  const pointed = pointedAtSource(source);
  const consumer = /(\[\[queues\.consumers\]\]\nqueue = "gallery-webhooks"\n)max_batch_size = \d+/;
  if (!consumer.test(pointed))
    throw new Error(`${CRON_CONFIG}: the gallery-webhooks consumer has no max_batch_size`);
  const local = pointed.replace(consumer, `$1max_batch_size = ${LOCAL_WEBHOOK_BATCH}`);
  const text = `# Written by npm start from ${CRON_CONFIG} (local batch size); not for editing.\n${local}`;
  mkdirSync(join(ROOT, ".data"), { recursive: true });
  writeFileSync(join(ROOT, LOCAL_CRON_CONFIG), text);
  return LOCAL_CRON_CONFIG;
}

/** The Email Worker's config (the API Worker's email handler passes each mail on to it). */
export const EMAIL_CONFIG = "wrangler.email.toml";
/** The MCP Worker's config (the API Worker hands it POST /v1/mcp): it holds no setting, so it runs as it is. */
export const MCP_CONFIG = "wrangler.mcp.toml";
/** The settings of the API Worker's session that the Email Worker reads too. */
const EMAIL_SETTINGS = [
  "DATABASE_URL",
  "NEON_LOCAL_ENDPOINT",
  "PUBLIC_BASE_URL",
  "ENVIRONMENT",
  "RATE_LIMITS",
];

/**
 * The Email Worker's config for a local session, as an auxiliary Worker of the API Worker's (which reads neither
 * the session's `--env-file` nor its `--var`): its `[vars]` with `vars` written over them. Kept in `dir` (.data/,
 * or a test stack's own folder) as `wrangler.email.local.toml`, readable by the user only (it holds the database
 * URL); `main` and the `[alias]` stand-ins point back at the source. Returns its path.
 */
export function localEmailConfig(vars: Record<string, string>, dir = join(ROOT, ".data")): string {
  const source = readFileSync(join(ROOT, EMAIL_CONFIG), "utf8");
  const table = /^\[vars\]\n((?:[A-Z_]+ = .*\n)*)/m;
  const given = table.exec(source);
  if (!given) throw new Error(`${EMAIL_CONFIG}: no [vars] to write this machine's settings over`);
  const merged = new Map<string, string>();
  for (const line of given[1]!.split("\n").filter(Boolean)) {
    const [key, value] = line.split(" = ") as [string, string];
    merged.set(key, value);
  }
  // JSON strings are TOML basic strings.
  for (const [key, value] of Object.entries(vars)) merged.set(key, JSON.stringify(value));
  const written = [...merged].map(([key, value]) => `${key} = ${value}`).join("\n");
  const pointed = pointedAtSource(source.replace(table, `[vars]\n${written}\n`), dir);
  const path = join(dir, "wrangler.email.local.toml");
  mkdirSync(dir, { recursive: true });
  // A fresh file: the mode applies only to a file being created.
  rmSync(path, { force: true });
  const text = `# Written from ${EMAIL_CONFIG} with this machine's settings for a local session; not for editing.\n${pointed}`;
  writeFileSync(path, text, { mode: 0o600, flag: "wx" });
  return relative(ROOT, path);
}

/**
 * The Workers the API Worker's service bindings name (wrangler.toml `[[services]]`), for its local session's
 * `auxiliary`: the Email Worker, with the session's settings it reads (`apiVars`, the API Worker's own), and the MCP
 * Worker. Service bindings reach only Workers of the same session. `dir` as for localEmailConfig.
 */
export function apiServiceConfigs(apiVars: Record<string, string>, dir?: string): string[] {
  const emailVars = Object.fromEntries(
    Object.entries(apiVars).filter(([key]) => EMAIL_SETTINGS.includes(key)),
  );
  return [localEmailConfig(emailVars, dir), MCP_CONFIG];
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Where `npm start` keeps the Workers' local state (KV, the R2 bucket of uploads, the cache). */
export const LOCAL_PERSIST_DIR = ".data/wrangler";

/** The few R2 calls the seed makes, as the Worker's R2Bucket binding answers them. */
export interface LocalBucket {
  put(
    key: string,
    value: Uint8Array,
    options: {
      httpMetadata: { contentType: string; cacheControl: string };
      customMetadata: Record<string, string>;
    },
  ): Promise<unknown>;
  list(options: { prefix: string; cursor?: string }): Promise<{
    objects: { key: string }[];
    truncated: boolean;
    cursor?: string;
  }>;
}

/**
 * The API Worker's UPLOADS bucket as `wrangler dev --persist-to <dir>` stores it: wrangler's own platform proxy (a
 * miniflare instance over the same persisted state), so what is written here is what the asset route serves. Open
 * it while no `wrangler dev` runs on the same state, and close it before one starts.
 */
export async function openLocalBucket(
  persistTo = LOCAL_PERSIST_DIR,
): Promise<{ bucket: LocalBucket; close: () => Promise<void> }> {
  Object.assign(process.env, OFFLINE_ENV);
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<{ UPLOADS: LocalBucket }>({
    configPath: join(ROOT, "wrangler.toml"),
    // `wrangler dev --persist-to <dir>` keeps its state in <dir>/v3.
    persist: { path: resolve(ROOT, persistTo, "v3") },
    remoteBindings: false,
  });
  // Wrangler's module installs signal handlers that exit the process at once; they would cut short the caller's
  // own shutdown (npm start stops its parts in order, this proxy among them, on Ctrl-C).
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return { bucket: proxy.env.UPLOADS, close: () => proxy.dispose() };
}

/** The local bucket opened on first use only (a seed that writes nothing never starts miniflare); close when done. */
export function lazyLocalBucket(persistTo = LOCAL_PERSIST_DIR) {
  let opened: ReturnType<typeof openLocalBucket> | null = null;
  return {
    open: async (): Promise<LocalBucket> => {
      opened ??= openLocalBucket(persistTo);
      return (await opened).bucket;
    },
    close: async (): Promise<void> => {
      if (opened) await (await opened).close();
      opened = null;
    },
  };
}
