import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnWrangler } from "../scripts/wrangler";

export interface BundleSize {
  totalKiB: number | null;
  gzipKiB: number | null;
  /** Worker startup time, when wrangler reports one. */
  startupMs: number | null;
  /** Minified bytes each input module contributes to the Worker's script (esbuild's metafile), by path. */
  inputs: Record<string, number> | null;
  output: string;
}

/** The modules the MCP endpoint brings into the API Worker's bundle, by path prefix. */
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
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }>;
}

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

/** `wrangler deploy --dry-run` of one Worker config: the bundle's size, as the upload would be. */
export function dryRun(config = "wrangler.toml"): Promise<BundleSize> {
  const outdir = mkdtempSync(join(tmpdir(), "bench-bundle-"));
  return new Promise((resolve, reject) => {
    const metafile = join(outdir, "meta.json");
    const child = spawnWrangler([
      "deploy",
      "--dry-run",
      "--outdir",
      outdir,
      "--metafile",
      metafile,
      "--config",
      config,
    ]);
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const inputs = code === 0 ? scriptInputs(metafile) : null;
      rmSync(outdir, { recursive: true, force: true });
      if (code !== 0)
        return reject(new Error(`wrangler deploy --dry-run (${config}) failed (${code}):\n${output}`));
      const size = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(output);
      const startup = /Worker Startup Time:\s*([\d.]+)\s*ms/.exec(output);
      resolve({
        totalKiB: size ? Number(size[1]) : null,
        gzipKiB: size ? Number(size[2]) : null,
        startupMs: startup ? Number(startup[1]) : null,
        inputs,
        output,
      });
    });
  });
}
