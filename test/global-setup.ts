import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { writeDocsAssets } from "../scripts/docs-assets";
import { migrateDatabase } from "../scripts/migrate";
import { startNeonLocal } from "../scripts/neon-local";
import { freePort, startDatabase } from "../scripts/postgres";
import { isWorkerdNetworkNoise } from "../scripts/workerd-noise";
import { startReceiver } from "./receiver";
import { startDemoSeed } from "./seed/demo-setup";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    neonEndpoint: string;
    /** The webhook receiver (test/receiver.ts). */
    receiverUrl: string;
    /** An origin nothing listens on: connection refused. */
    refusedUrl: string;
    /** `ROBUSTNESS_SEED` from the environment ("" when unset), to replay a robustness shard (test/platform/robustness-*.test.ts). */
    robustnessSeed: string;
    /** `ROBUSTNESS_SCALE`: the share of the robustness suites' random requests sent ("0.4" when unset). */
    robustnessScale: string;
    /** The demo gallery's database (test/seed/), seeded in the background, and its editor's credentials. */
    demo: { url: string; editor: { email: string; password: string } };
  }
}

/** Each run has a database of its own, so runs in parallel (two terminals, two worktrees) never collide. */
const TEST_DATABASE = `gallery_test_${process.pid}`;

async function admin(url: string, statement: string): Promise<void> {
  const adminUrl = new URL(url);
  adminUrl.pathname = "/postgres";
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * workerd logs `disconnected: WebSocket peer disconnected` each time a test file ends and the Workers test pool
 * closes its connection to that file's runner (it appears for files that never touch the database). The pool
 * drops the same kind of line (`WebSocket was aborted`) itself, but its list cannot be extended; this drops
 * exactly that line from the pool's output. It also drops what workerd prints of an outbound connection that
 * failed (a suite's database made unreachable on purpose, a webhook receiver that refuses), by the rule the local
 * stack uses (scripts/workerd-noise.ts): the Worker caught those errors and answered in words.
 */
function quietRunnerDisconnects(): () => void {
  const NOISE = "disconnected: WebSocket peer disconnected";
  const restores = [process.stdout, process.stderr].map((stream) => {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      if (text.includes(NOISE) && text.trim().split("\n").length === 1) return true;
      const lines = text.split("\n").filter((line) => line.trim() !== "");
      if (lines.length > 0 && lines.every(isWorkerdNetworkNoise)) return true;
      return write(chunk, ...rest);
    }) as typeof stream.write;
    return () => {
      stream.write = write;
    };
  });
  return () => {
    for (const restore of restores) restore();
  };
}

/** The share of the robustness suites' random requests to send: a number in (0, 1], 0.4 unless set. */
function robustnessScale(given: string | undefined): string {
  if (given === undefined || given === "") return "0.4";
  const scale = Number(given);
  if (!(scale > 0 && scale <= 1))
    throw new Error(`ROBUSTNESS_SCALE must be a number in (0, 1], got "${given}"`);
  return String(scale);
}

/** What the stack hands the suites (see ProvidedContext), and how to stop it. */
interface Stack {
  provided: Partial<Record<keyof import("vitest").ProvidedContext, unknown>>;
  stop: () => Promise<void>;
}

async function startStack(): Promise<Stack> {
  const provided: Stack["provided"] = {};
  const project = {
    provide: (key: keyof import("vitest").ProvidedContext, value: unknown) => {
      provided[key] = value;
    },
  };
  const restoreStderr = quietRunnerDisconnects();
  // The API Worker's static assets (wrangler.toml `[assets]`), which wrangler's build command writes elsewhere.
  writeDocsAssets();
  // The embedded cluster lives in a temporary folder for this run only; with DATABASE_URL the server is the
  // caller's and only this run's database is created (and dropped afterwards) on it.
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), "gallery-test-pg-"));
  const database = await startDatabase({
    dataDir: dataDir ?? ".data/test-postgres",
    database: TEST_DATABASE,
  });
  const url = new URL(database.url);
  if (process.env.DATABASE_URL) {
    await admin(database.url, `create database "${TEST_DATABASE}"`);
    url.pathname = `/${TEST_DATABASE}`;
  }
  await migrateDatabase(url.toString());
  const demo = await startDemoSeed(url);
  project.provide("demo", { url: demo.url, editor: demo.editor });
  const neon = await startNeonLocal({ port: 0 });
  project.provide("databaseUrl", url.toString());
  project.provide("neonEndpoint", neon.url);
  const receiver = await startReceiver();
  project.provide("receiverUrl", receiver.url);
  project.provide("refusedUrl", `http://127.0.0.1:${await freePort()}`);
  project.provide("robustnessSeed", process.env.ROBUSTNESS_SEED ?? "");
  project.provide("robustnessScale", robustnessScale(process.env.ROBUSTNESS_SCALE));
  const stop = async () => {
    await demo.settled;
    await receiver.close();
    await neon.close();
    if (process.env.DATABASE_URL) {
      await admin(url.toString(), `drop database "${TEST_DATABASE}" with (force)`);
      await admin(url.toString(), `drop database "${new URL(demo.url).pathname.slice(1)}" with (force)`);
    }
    await database.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    restoreStderr();
  };
  return { provided, stop };
}

/**
 * The two projects that run in workerd (`workers` and `platform`, vitest.config.ts) list this setup each; one
 * stack serves both, started by the first and stopped after the last (their module instances differ, the
 * process does not).
 */
const SHARED = Symbol.for("gallery-platform-api.test-stack");
type Shared = { users: number; stack: Promise<Stack> };

export default async function setup(project: TestProject) {
  const registry = globalThis as unknown as Record<symbol, Shared | undefined>;
  const shared = registry[SHARED] ?? { users: 0, stack: startStack() };
  registry[SHARED] = shared;
  shared.users++;
  const stack = await shared.stack;
  for (const [key, value] of Object.entries(stack.provided))
    project.provide(key as keyof import("vitest").ProvidedContext, value as never);
  return async () => {
    shared.users--;
    if (shared.users === 0) {
      registry[SHARED] = undefined;
      await stack.stop();
    }
  };
}
