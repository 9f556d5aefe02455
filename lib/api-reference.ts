/**
 * The API reference page at /v1/docs (functions/docs/): the Scalar API Reference reading /v1/openapi.json. Its
 * script, the standalone bundle of `@scalar/api-reference`, is a Workers static asset of the API Worker
 * (wrangler.toml `[assets]`, written by scripts/docs-assets.ts), never a CDN: the page works offline under
 * `npm start`, and what it runs is the version package.json pins.
 */

/** The pinned `@scalar/api-reference` version; scripts/docs-assets.ts refuses an installed one that differs. */
export const API_REFERENCE_BUNDLE_VERSION = "1.72.1";

/** Where the page is served. */
export const API_REFERENCE_PATH = "/v1/docs";

/** The bundle's address: same origin, versioned in its name, so it can be cached for a year. */
export const API_REFERENCE_SCRIPT_PATH = `/v1/docs/scalar-api-reference-${API_REFERENCE_BUNDLE_VERSION}.js`;

/** The folder wrangler.toml's `[assets]` serves (generated, not committed). */
export const ASSETS_DIR = "assets";
