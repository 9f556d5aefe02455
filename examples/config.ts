import { pathToFileURL } from "node:url";
import { createGalleryClient, type GalleryClient } from "../clients/typescript/src/index";

/**
 * What every example needs: the API's base URL and a secret key, from the environment. `npm start` prints both
 * in its banner ("Base URL" and "Secret key (all scopes)"); the key is also kept in .data/local-keys.json.
 */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): GalleryClient {
  const apiKey = env.GALLERY_API_KEY;
  if (!apiKey) {
    throw new Error(
      "GALLERY_API_KEY is not set: give it the secret key `npm start` prints (Secret key (all scopes), gpk_…).",
    );
  }
  return createGalleryClient({ apiKey, baseUrl: env.GALLERY_API_URL || "http://127.0.0.1:8787/v1" });
}

/** Whether the module is the script `npx tsx examples/<name>.ts` runs (not imported by a test). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && moduleUrl === pathToFileURL(script).href;
}

/** Runs an example's main and exits non-zero, with the API's problem in one line, when it fails. */
export function run(main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
    process.exit(1);
  });
}
