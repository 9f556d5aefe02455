import { type ChildProcess, type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
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

/** Any wrangler command, offline, from the project root, in its own process group. */
export function spawnWrangler(args: string[]): WranglerProcess {
  return spawn(WRANGLER, args, {
    cwd: ROOT,
    env: { ...process.env, ...OFFLINE_ENV },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
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
  vars: Record<string, string>;
  persistTo: string;
  extraArgs?: string[];
}

/**
 * `wrangler dev` of one of the project's Workers, local and offline, as `npm start` and `npm run bench` run
 * it. Its own process group lets the caller signal wrangler and workerd together.
 */
export async function spawnWranglerDev(opts: WranglerDevOptions): Promise<WranglerProcess> {
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
    String(await freePort()),
    "--local",
    ...Object.entries(opts.vars).flatMap(([key, value]) => ["--var", `${key}:${value}`]),
    "--persist-to",
    opts.persistTo,
    "--show-interactive-dev-session=false",
    ...(opts.extraArgs ?? []),
  ];
  return spawnWrangler(args);
}

/** The engine Worker's config, and its local copy holding the settings of this machine. */
export const ENGINE_CONFIG = "wrangler.engine.toml";
const LOCAL_ENGINE_CONFIG = ".data/wrangler.engine.local.toml";

/**
 * The engine Worker's config for a local session, with `vars` written in: as an auxiliary Worker of a `wrangler
 * dev` session it receives no `--var`. Kept under .data/ (local settings only); `main` points back at the source.
 * Returns its path, relative to the project root.
 */
export function localEngineConfig(vars: Record<string, string>): string {
  const source = readFileSync(join(ROOT, ENGINE_CONFIG), "utf8");
  const pointed = source.replace(/^main = "(.+)"$/m, (_line, main: string) => `main = "../${main}"`);
  // JSON strings are TOML basic strings.
  const table = Object.entries(vars).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  const text = `# Written by npm start from ${ENGINE_CONFIG}, with this machine's settings; not for editing.\n${pointed}\n[vars]\n${table.join("\n")}\n`;
  mkdirSync(join(ROOT, ".data"), { recursive: true });
  writeFileSync(join(ROOT, LOCAL_ENGINE_CONFIG), text);
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
  const pointed = source.replace(/^main = "(.+)"$/m, (_line, main: string) => `main = "../${main}"`);
  const consumer = /(\[\[queues\.consumers\]\]\nqueue = "gallery-webhooks"\n)max_batch_size = \d+/;
  if (!consumer.test(pointed))
    throw new Error(`${CRON_CONFIG}: the gallery-webhooks consumer has no max_batch_size`);
  const local = pointed.replace(consumer, `$1max_batch_size = ${LOCAL_WEBHOOK_BATCH}`);
  const text = `# Written by npm start from ${CRON_CONFIG} (local batch size); not for editing.\n${local}`;
  mkdirSync(join(ROOT, ".data"), { recursive: true });
  writeFileSync(join(ROOT, LOCAL_CRON_CONFIG), text);
  return LOCAL_CRON_CONFIG;
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
