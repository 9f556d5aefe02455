import { type ChildProcessByStdio, spawn } from "node:child_process";
import { join } from "node:path";
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
