/**
 * `npm run bench:bundles`: each Worker's bundle and startup, offline.
 *
 * - Bundle: `wrangler deploy --dry-run --outdir --metafile --outfile` of each Worker's config (bench/bundle.ts
 *   WORKERS): wrangler.toml (the API Worker), wrangler.email.toml (the Email Worker), wrangler.mcp.toml (the MCP
 *   Worker), wrangler.cron.toml (the cron Worker) and wrangler.engine.toml (the engine Worker): raw and gzip KiB
 *   as wrangler reports the upload, and the ten largest inputs of the script by minified bytes (esbuild's metafile).
 * - Startup: `wrangler check startup --worker <the upload>`, BENCH_BUNDLES_RUNS times a Worker (default 5): wrangler
 *   runs the upload in a local workerd, profiles the import of its main module (parse, compile, the global scope)
 *   and writes a CPU profile; the figure is the profile's sampled time not spent idle, the least of the runs
 *   (the profiler samples on the wall clock: a run that lost the CPU to another process reads longer, never
 *   shorter); the median is reported beside it.
 *   This machine's CPU, not Cloudflare's: a figure to compare the Workers and their changes by, not a prediction.
 * - Budgets: the API Worker's 350 KB gzip (design.md, "Performance budget", measured by `wrangler deploy
 *   --dry-run`), and Cloudflare's startup limit for every Worker: "A Worker must parse and execute its global scope
 *   (top-level code outside of handlers) within 1 second" (https://developers.cloudflare.com/workers/platform/limits/,
 *   "Worker startup time"; error 10021, "Script startup exceeded CPU time limit").
 *
 * Results: bench/results/bundles.md and bundles.json (BENCH_BUNDLES_NAME names them otherwise).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import {
  ALIASED_PACKAGES,
  BUDGETS,
  bundleTable,
  inputGroups,
  measureWorkers,
  median,
  WORKERS,
} from "./bundle";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.env.BENCH_BUNDLES_RUNS ?? 5);
const NAME = process.env.BENCH_BUNDLES_NAME ?? "bundles";
const say = (m: string) => console.log(`[bench:bundles] ${m}`);

async function main(): Promise<void> {
  process.chdir(ROOT);
  say(`${WORKERS.length} Workers: wrangler deploy --dry-run, then wrangler check startup ${RUNS} times each`);
  const loadBefore = os.loadavg()[0]!;
  const workers = await measureWorkers({ startupRuns: RUNS, top: 10 });
  const loadAfter = os.loadavg()[0]!;
  // A stand-in of lib/bundle/ reached from outside the packages it stands in for replaced someone else's module.
  const strays = workers.flatMap((w) =>
    (w.size.aliased ?? [])
      .filter((a) => !ALIASED_PACKAGES.some((p) => a.importer.startsWith(p)))
      .map((a) => `${w.worker}: ${a.importer} imports "${a.original}", aliased to ${a.path}`),
  );
  if (strays.length > 0)
    throw new Error(`an [alias] reached beyond the packages it is for:\n${strays.join("\n")}`);
  for (const w of workers)
    say(
      `  ${w.worker}: ${w.totalKiB} KiB, gzip ${w.gzipKiB} KiB, startup ${w.startupMs} ms (${w.startupRunsMs.join(", ")})`,
    );
  const report = {
    at: new Date().toISOString(),
    runs: RUNS,
    machine: { cpus: os.cpus().length, loadAverage1m: { before: loadBefore, after: loadAfter } },
    workers: workers.map(({ size, ...w }) => ({
      ...w,
      startupMedianMs: w.startupRunsMs.length ? median(w.startupRunsMs) : null,
      packages: inputGroups(size.inputs ?? {}, 10),
      aliased: size.aliased ?? [],
      budget: BUDGETS[w.worker],
    })),
  };
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(`bench/results/${NAME}.json`, `${JSON.stringify(report, null, 2)}\n`);
  const lines = [
    "# Bundles and startup, per Worker",
    "",
    `${report.at} · \`npm run bench:bundles\` · startup: ${RUNS} profiles a Worker · ${os.cpus().length} CPUs, load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`,
    "",
    ...bundleTable(workers),
    "",
    "Raw and gzip: the upload as `wrangler deploy --dry-run` reports it. Startup: `wrangler check startup --worker",
    "<upload>` (local workerd, offline), the CPU profile's sampled time not spent idle while the Worker's main module",
    "is imported: parse, compile and the global scope; the least of the runs (the profiler samples on the wall clock,",
    "so a run that lost the CPU to another process reads longer, never shorter), the median beside it. This machine's",
    "CPU, not Cloudflare's. Budgets: the API",
    'Worker\'s 350 KB gzip (design.md, "Performance budget"); the startup limit, 1 s for every Worker ("A Worker must',
    'parse and execute its global scope (top-level code outside of handlers) within 1 second",',
    "https://developers.cloudflare.com/workers/platform/limits/).",
    "",
  ];
  for (const w of workers) {
    lines.push(
      `## ${w.worker} Worker (${w.config})`,
      "",
      `Startup runs: ${w.startupRunsMs.join(", ")} ms.`,
      "",
      `Stand-ins (\`[alias]\`): ${
        (w.size.aliased ?? []).map((a) => `${a.importer} "${a.original}" → ${a.path}`).join("; ") || "none"
      }.`,
      "",
      "| largest inputs | minified KiB |",
      "| --- | ---: |",
      ...w.top.map((t) => `| ${t.path} | ${t.kib} |`),
      "",
      "| by package or folder | minified KiB |",
      "| --- | ---: |",
      ...inputGroups(w.size.inputs ?? {}, 10).map((g) => `| ${g.group} | ${g.kib} |`),
      "",
    );
  }
  writeFileSync(`bench/results/${NAME}.md`, lines.join("\n"));
  say(`bench/results/${NAME}.md written`);
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
