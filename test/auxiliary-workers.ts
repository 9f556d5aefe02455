import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { runWrangler } from "../scripts/wrangler";

/**
 * The Workers the API Worker reaches over a service binding (wrangler.toml `[[services]]`), for the test pool:
 * each built as it is deployed (`wrangler deploy --dry-run`, its config's `[alias]` stand-ins and minification
 * included) and run beside the tests' Worker with its own config's bindings, so a binding's call crosses into
 * another Worker as in production. The pool bundles only the main Worker; these come bundled.
 */
export const AUXILIARY_WORKERS = ["wrangler.email.toml", "wrangler.mcp.toml"] as const;

/** One build a config for the whole run (every project's Miniflare takes the same), in a folder of this run. */
const OUT_DIR = join(tmpdir(), `gallery-test-workers-${process.pid}`);
const builds = new Map<string, Promise<string>>();
process.once("exit", () => rmSync(OUT_DIR, { recursive: true, force: true }));

/** The config's bundle, built once: the path of its script. */
function built(config: string): Promise<string> {
  let build = builds.get(config);
  if (!build) {
    const outdir = join(OUT_DIR, basename(config, ".toml"));
    build = runWrangler(["deploy", "--dry-run", "--outdir", outdir, "--config", config]).then(
      ({ code, output }) => {
        if (code !== 0) throw new Error(`wrangler deploy --dry-run --config ${config} failed:\n${output}`);
        return join(outdir, `${basename(mainOf(config), ".ts")}.js`);
      },
    );
    builds.set(config, build);
  }
  return build;
}

function mainOf(config: string): string {
  const main = /^main = "(.+)"$/m.exec(readFileSync(config, "utf8"))?.[1];
  if (!main) throw new Error(`${config}: no main`);
  return main;
}

/**
 * A Worker of `config` for Miniflare's `workers`: its name, its built script, and its config's bindings with
 * `bindings` (the test stack's database, its base URL) over them.
 */
export async function auxiliaryWorker(config: string, bindings: Record<string, string>) {
  const name = /^name = "(.+)"$/m.exec(readFileSync(config, "utf8"))?.[1];
  if (!name) throw new Error(`${config}: no name`);
  const { workerOptions } = unstable_getMiniflareWorkerOptions(config);
  const script = await built(config);
  return {
    ...workerOptions,
    name,
    modulesRoot: dirname(script),
    modules: [{ type: "ESModule" as const, path: script }],
    bindings: { ...workerOptions.bindings, ...bindings },
  };
}
