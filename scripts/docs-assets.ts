/**
 * Writes the API Worker's static assets (wrangler.toml `[assets]`, the folder `assets/`, not committed): the
 * standalone bundle of `@scalar/api-reference` that the reference page at /v1/docs loads, copied from
 * node_modules under its versioned name, and a `_headers` file for it. wrangler runs this as the API Worker's
 * `[build]` command (wrangler dev, deploy, deploy --dry-run); the test setup calls `writeDocsAssets()`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { API_REFERENCE_BUNDLE_VERSION, API_REFERENCE_SCRIPT_PATH, ASSETS_DIR } from "../lib/api-reference";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

/** A year: the bundle's name carries its version, so a new version is a new address. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The installed package's folder, found from its main entry (its package.json is not an export). */
function packageDir(): string {
  let dir = dirname(require.resolve("@scalar/api-reference"));
  while (!dir.endsWith(join("node_modules", "@scalar", "api-reference"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("@scalar/api-reference is not installed: run npm install");
    dir = parent;
  }
  return dir;
}

export function writeDocsAssets(root = ROOT): { file: string; bytes: number } {
  const pkg = packageDir();
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { version: string };
  if (version !== API_REFERENCE_BUNDLE_VERSION) {
    throw new Error(
      `@scalar/api-reference ${version} is installed, lib/api-reference.ts names ${API_REFERENCE_BUNDLE_VERSION}: change them together`,
    );
  }
  const out = join(root, ASSETS_DIR);
  const file = join(out, API_REFERENCE_SCRIPT_PATH);
  // Static assets are answered before the Worker runs, so they get the Worker's standard headers here.
  const headers = `${API_REFERENCE_SCRIPT_PATH}\n  Cache-Control: ${IMMUTABLE}\n  X-Content-Type-Options: nosniff\n`;
  const bundle = readFileSync(join(pkg, "dist", "browser", "standalone.js"));
  // Files already as they should be are left alone: a running `wrangler dev` (npm start) serves from this folder,
  // and a file replaced under it answers 500 until it restarts (a test run beside it writes the folder too).
  const same = (path: string, content: Buffer | string) =>
    existsSync(path) && readFileSync(path).equals(Buffer.from(content));
  if (!same(file, bundle) || !same(join(out, "_headers"), headers)) {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bundle);
    writeFileSync(join(out, "_headers"), headers);
  }
  return { file, bytes: readFileSync(file).byteLength };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { file, bytes } = writeDocsAssets();
  console.log(`[docs-assets] ${file.slice(ROOT.length)} (${bytes} bytes)`);
}
