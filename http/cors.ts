import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from "../lib/idempotency";

/**
 * The browser surface: every path under /v1/public/ (routes declare it as /public/…). Its operations take
 * publishable tokens only (operation() refuses to declare anything else there, and a publishable-only operation
 * anywhere else), and every answer on it is CORS-open: `Access-Control-Allow-Origin: *`, never with credentials
 * (a publishable token is sent as a header, never as a cookie). No other path sends a CORS header, preflight
 * included, so a browser refuses to let a page read a secret-key route.
 */

/** Route paths (as operations declare them, under /v1) of the browser surface start with this. */
export const BROWSER_SURFACE_PREFIX = "/public/";

/** Request paths of the browser surface: under /v1 in the API Worker, or at the root of a group deployed alone. */
const BROWSER_SURFACE_PATH = /^(?:\/v1)?\/public\//;

/** Why the browser surface takes publishable tokens only: said in the 403 a secret key or a session gets. */
export const BROWSER_SURFACE_REASON =
  "The public surface (/v1/public/) is the browser surface: it takes publishable tokens (gpub_) only, so no secret key or member session is ever sent from a visitor's browser.";

/** Request headers a page may send: the token, a JSON body, an idempotency key and a conditional read. */
export const CORS_ALLOW_HEADERS = [
  "authorization",
  "content-type",
  IDEMPOTENCY_HEADER.toLowerCase(),
  "if-none-match",
  "x-api-key",
];

/** Response headers a page may read beyond the safelisted ones. */
export const CORS_EXPOSE_HEADERS = [
  "etag",
  "request-id",
  REPLAYED_HEADER.toLowerCase(),
  "retry-after",
  "allow",
  "ratelimit",
  "ratelimit-policy",
];

/** How long a browser may reuse a preflight answer (Chromium keeps at most 2 hours). */
export const CORS_MAX_AGE_SECONDS = 7200;

/** True for a route path (`/public/viewing-rooms/{slug}`) of the browser surface. */
export function isBrowserSurfaceRoute(routePath: string): boolean {
  return routePath.startsWith(BROWSER_SURFACE_PREFIX);
}

/** True for a request path (`/v1/public/viewing-rooms`) of the browser surface. */
export function isBrowserSurfaceRequest(requestPath: string): boolean {
  return BROWSER_SURFACE_PATH.test(requestPath);
}

/** The CORS headers of every browser-surface answer (success or problem). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": CORS_EXPOSE_HEADERS.join(", "),
};

/** The headers of a browser-surface preflight answer (204), given the path's methods (`Allow`). */
export function preflightHeaders(allow: string): Record<string, string> {
  return {
    Allow: allow,
    "Access-Control-Allow-Methods": allow,
    "Access-Control-Allow-Headers": CORS_ALLOW_HEADERS.join(", "),
    "Access-Control-Max-Age": String(CORS_MAX_AGE_SECONDS),
  };
}
