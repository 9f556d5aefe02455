import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnWrangler } from "../scripts/wrangler";

export interface BundleSize {
  totalKiB: number | null;
  gzipKiB: number | null;
  /** Worker startup time, when wrangler reports one. */
  startupMs: number | null;
  output: string;
}

/** `wrangler deploy --dry-run` of one Worker config: the bundle's size, as the upload would be. */
export function dryRun(config = "wrangler.toml"): Promise<BundleSize> {
  const outdir = mkdtempSync(join(tmpdir(), "bench-bundle-"));
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(["deploy", "--dry-run", "--outdir", outdir, "--config", config]);
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      rmSync(outdir, { recursive: true, force: true });
      if (code !== 0)
        return reject(new Error(`wrangler deploy --dry-run (${config}) failed (${code}):\n${output}`));
      const size = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(output);
      const startup = /Worker Startup Time:\s*([\d.]+)\s*ms/.exec(output);
      resolve({
        totalKiB: size ? Number(size[1]) : null,
        gzipKiB: size ? Number(size[2]) : null,
        startupMs: startup ? Number(startup[1]) : null,
        output,
      });
    });
  });
}
