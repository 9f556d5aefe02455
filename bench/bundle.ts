import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runWrangler } from "../scripts/wrangler";

export interface BundleSize {
  totalKiB: number | null;
  gzipKiB: number | null;
  /**
   * Worker startup: the least CPU time of the startup profiles when asked for (dryRun's `startupRuns`), else the
   * Worker Startup Time wrangler reports, if any.
   */
  startupMs: number | null;
  /** Each startup profile's CPU time, when asked for. */
  startupRunsMs?: number[];
  /** The imports `[alias]` sent to lib/bundle/'s stand-ins. */
  aliased?: AliasedImport[];
  /** Minified bytes each input module contributes to the Worker's script (esbuild's metafile), by path. */
  inputs: Record<string, number> | null;
  output: string;
}

/**
 * The modules the MCP endpoint could bring into the API Worker's bundle, by path prefix: since the server runs in
 * the MCP Worker (wrangler.mcp.toml), only the gate's route and the tools' catalogue (functions/mcp/index.ts,
 * catalogue.ts, tools.ts) and lib/mcp.ts are there.
 */
export const MCP_BUNDLE_INPUTS = [
  "functions/mcp/",
  "lib/mcp.ts",
  "lib/bundle/mcp-validator.ts",
  "node_modules/@modelcontextprotocol/sdk/",
  "node_modules/@cfworker/json-schema/",
];

export interface McpBundleShare {
  minifiedKiB: number;
  totalKiB: number;
}

/** The minified KiB the inputs under these prefixes contribute, beside the script's total; null without a metafile. */
export function bundleShare(size: BundleSize, prefixes: readonly string[]): McpBundleShare | null {
  if (!size.inputs) return null;
  let share = 0;
  let total = 0;
  for (const [path, bytes] of Object.entries(size.inputs)) {
    total += bytes;
    if (prefixes.some((prefix) => path.startsWith(prefix) || path.includes(`/${prefix}`))) share += bytes;
  }
  const kib = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;
  return { minifiedKiB: kib(share), totalKiB: kib(total) };
}

interface Metafile {
  inputs: Record<string, { imports: { path: string; original?: string }[] }>;
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }>;
}

/** An import the config's `[alias]` sent to a stand-in of lib/bundle/: who imports it, under what name. */
export interface AliasedImport {
  importer: string;
  original: string;
  path: string;
}

/** The imports that resolved to lib/bundle/ (the stand-ins wrangler's `[alias]` substitutes). */
function aliasedImports(path: string): AliasedImport[] {
  if (!existsSync(path)) return [];
  const meta = JSON.parse(readFileSync(path, "utf8")) as Metafile;
  return Object.entries(meta.inputs).flatMap(([importer, { imports }]) =>
    imports
      .filter((i) => i.path.startsWith("lib/bundle/") && !importer.startsWith("lib/bundle/"))
      .map((i) => ({ importer, original: i.original ?? i.path, path: i.path })),
  );
}

/**
 * The packages whose imports the stand-ins are for. An `[alias]` key is an import path as written, so another
 * package importing the same relative path (`./compile.js`) would get the stand-in too: bench:bundles fails then.
 */
export const ALIASED_PACKAGES = ["node_modules/zod/", "node_modules/@modelcontextprotocol/sdk/"];

/** The inputs of the Worker's script (the output with an entry point) in esbuild's metafile. */
function scriptInputs(path: string): Record<string, number> | null {
  if (!existsSync(path)) return null;
  const meta = JSON.parse(readFileSync(path, "utf8")) as Metafile;
  const script = Object.values(meta.outputs).find((output) => output.entryPoint);
  if (!script) return null;
  return Object.fromEntries(
    Object.entries(script.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]),
  );
}

/**
 * `wrangler deploy --dry-run` of one Worker config: the bundle's size, as the upload would be. With `startupRuns`,
 * the built upload is also profiled that many times (startupProfile) and `startupMs` is the least of them: the
 * profiler samples on the wall clock, so a run that lost the CPU to another process reads longer, never shorter.
 */
export async function dryRun(
  config = "wrangler.toml",
  options: { startupRuns?: number } = {},
): Promise<BundleSize> {
  const outdir = mkdtempSync(join(tmpdir(), "bench-bundle-"));
  const runs = options.startupRuns ?? 0;
  const metafile = join(outdir, "meta.json");
  const upload = join(outdir, "upload.bundle");
  try {
    const { code, output } = await runWrangler([
      "deploy",
      "--dry-run",
      "--outdir",
      join(outdir, "dist"),
      "--metafile",
      metafile,
      ...(runs > 0 ? ["--outfile", upload] : []),
      "--config",
      config,
    ]);
    if (code !== 0) throw new Error(`wrangler deploy --dry-run (${config}) failed (${code}):\n${output}`);
    const size = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(output);
    const startupRunsMs: number[] = [];
    for (let i = 0; i < runs; i++) startupRunsMs.push((await startupProfile(upload)).cpuMs);
    const startup = /Worker Startup Time:\s*([\d.]+)\s*ms/.exec(output);
    return {
      totalKiB: size ? Number(size[1]) : null,
      gzipKiB: size ? Number(size[2]) : null,
      startupMs: runs > 0 ? Math.min(...startupRunsMs) : startup ? Number(startup[1]) : null,
      ...(runs > 0 ? { startupRunsMs } : {}),
      inputs: scriptInputs(metafile),
      aliased: aliasedImports(metafile),
      output,
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(value * 10) / 10;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * A startup profile's figures: `cpuMs`, the sampled time not spent idle (the module's parse, compile and global
 * scope, with the garbage collection they cause), and `wallMs`, the whole profile from start to stop.
 */
export function startupFigures(profile: CpuProfile): { cpuMs: number; wallMs: number } {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  let busy = 0;
  profile.samples.forEach((node, i) => {
    if (!idle.has(node)) busy += profile.timeDeltas[i] ?? 0;
  });
  const round = (us: number) => Math.round(us / 100) / 10;
  return { cpuMs: round(busy), wallMs: round(profile.endTime - profile.startTime) };
}

/**
 * `wrangler check startup --worker <upload>`: wrangler runs the built upload in a local workerd (miniflare), starts
 * the V8 profiler, imports the Worker's main module (its global scope), stops the profiler and writes the profile.
 * Local and offline: no account and no network. Returns the profile's figures (startupFigures).
 */
export async function startupProfile(upload: string): Promise<{ cpuMs: number; wallMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-startup-"));
  const outfile = join(dir, "startup.cpuprofile");
  try {
    const { code, output } = await runWrangler([
      "check",
      "startup",
      "--worker",
      upload,
      "--outfile",
      outfile,
    ]);
    if (code !== 0 || !existsSync(outfile))
      throw new Error(`wrangler check startup failed (${code}):\n${output}`);
    return startupFigures(JSON.parse(readFileSync(outfile, "utf8")) as CpuProfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The project's Workers, by config: the API Worker, those its service bindings name, the cron and engine Workers. */
export const WORKERS = [
  { worker: "API", config: "wrangler.toml" },
  { worker: "email", config: "wrangler.email.toml" },
  { worker: "MCP", config: "wrangler.mcp.toml" },
  { worker: "cron", config: "wrangler.cron.toml" },
  { worker: "engine", config: "wrangler.engine.toml" },
] as const;

export interface WorkerBundle {
  worker: (typeof WORKERS)[number]["worker"];
  config: string;
  totalKiB: number | null;
  gzipKiB: number | null;
  /** The least of the startup profiles' CPU time (startupProfile; dryRun says why the least). */
  startupMs: number | null;
  startupRunsMs: number[];
  /** The largest inputs of the script, by minified bytes in it. */
  top: { path: string; kib: number }[];
  size: BundleSize;
}

/** Each Worker's bundle (raw and gzip KiB, as the upload would be) and startup (the least of `startupRuns` profiles). */
export async function measureWorkers(
  options: { startupRuns?: number; top?: number } = {},
): Promise<WorkerBundle[]> {
  const results: WorkerBundle[] = [];
  // One after the other: each build and each profile is CPU-bound.
  for (const { worker, config } of WORKERS) {
    const size = await dryRun(config, { startupRuns: options.startupRuns ?? 3 });
    const top = Object.entries(size.inputs ?? {})
      .sort((a, b) => b[1] - a[1])
      .slice(0, options.top ?? 10)
      .map(([path, bytes]) => ({ path, kib: Math.round((bytes / 1024) * 10) / 10 }));
    results.push({
      worker,
      config,
      totalKiB: size.totalKiB,
      gzipKiB: size.gzipKiB,
      startupMs: size.startupMs,
      startupRunsMs: size.startupRunsMs ?? [],
      top,
      size,
    });
  }
  return results;
}

/** The design's budgets, by Worker: gzip KiB of the upload (only the API Worker has one) and startup ms. */
export const BUDGETS: Record<WorkerBundle["worker"], { gzipKiB: number | null; startupMs: number }> = {
  API: { gzipKiB: 350, startupMs: 1000 },
  email: { gzipKiB: null, startupMs: 1000 },
  MCP: { gzipKiB: null, startupMs: 1000 },
  cron: { gzipKiB: null, startupMs: 1000 },
  engine: { gzipKiB: null, startupMs: 1000 },
};

/** The input's package (node_modules/<name> or <@scope/name>), or the project folder it is in. */
export function inputGroup(path: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (m) return m[1]!;
  const parts = path.split("/");
  return parts.length > 1 ? `${parts[0]}/` : path;
}

/** The script's minified bytes by package or folder (inputGroup), the largest `n`, in KiB. */
export function inputGroups(inputs: Record<string, number>, n: number): { group: string; kib: number }[] {
  const totals = new Map<string, number>();
  for (const [path, bytes] of Object.entries(inputs))
    totals.set(inputGroup(path), (totals.get(inputGroup(path)) ?? 0) + bytes);
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([group, bytes]) => ({ group, kib: Math.round((bytes / 1024) * 10) / 10 }));
}

/** The Workers as a Markdown table (bench/run.ts prints the same). */
export function bundleTable(
  workers: Pick<WorkerBundle, "worker" | "config" | "totalKiB" | "gzipKiB" | "startupMs" | "startupRunsMs">[],
): string[] {
  return [
    "| Worker | config | raw KiB | gzip KiB | gzip budget | startup ms (least) | startup ms (median) | startup limit |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...workers.map((w) => {
      const budget = BUDGETS[w.worker];
      const over = budget.gzipKiB !== null && w.gzipKiB !== null && w.gzipKiB > budget.gzipKiB;
      return `| ${w.worker} | ${w.config} | ${w.totalKiB ?? "?"} | ${w.gzipKiB ?? "?"} | ${budget.gzipKiB === null ? "—" : `${budget.gzipKiB}${over ? " (**over**)" : ""}`} | ${w.startupMs ?? "?"} | ${w.startupRunsMs.length ? median(w.startupRunsMs) : "?"} | ${budget.startupMs} |`;
    }),
  ];
}
