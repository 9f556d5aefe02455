import { Scalar } from "@scalar/hono-api-reference";
import type { Router } from "../../http/app";
import { API_REFERENCE_PATH, API_REFERENCE_SCRIPT_PATH } from "../../lib/api-reference";
import { type AppEnv, publicBaseUrl } from "../../lib/env";
import { openApiInfo } from "../openapi";

/** A fresh CSP nonce: 128 random bits, base64. */
function nonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * What the page may load, and nothing else: its own script (the same-origin bundle) and the inline start-up
 * script by nonce; the styles the bundle injects; requests to this API only (the document and "Test request");
 * no frames, forms, plugins or base. docs/decisions.md, "The API reference page", says why each is there.
 */
export function apiReferencePolicy(scriptNonce: string, apiOrigin: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${scriptNonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${apiOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * GET /v1/docs: the API reference, public like the document it reads. The page holds no credential: a reader
 * types a key into its "Test request" panel, and the page keeps it for that tab only (`persistAuth` off).
 */
export function registerApiReference(app: Router): void {
  app.get(
    API_REFERENCE_PATH.replace(/^\/v1/, ""),
    Scalar<AppEnv>((c) => {
      const scriptNonce = nonce();
      // Set before the middleware renders, so its HTML answer carries them.
      c.header(
        "Content-Security-Policy",
        apiReferencePolicy(scriptNonce, new URL(publicBaseUrl(c.env)).origin),
      );
      c.header("Referrer-Policy", "no-referrer");
      // A nonce is per answer: no cache may hand one page's nonce to another reader.
      c.header("Cache-Control", "no-store");
      return {
        url: "/v1/openapi.json",
        pageTitle: `${openApiInfo.title} reference`,
        // The bundle from this Worker's static assets (UMD: one file, no chunks fetched at run time).
        cdn: API_REFERENCE_SCRIPT_PATH,
        nonce: scriptNonce,
        // Nothing from elsewhere: no web fonts, no usage reports, no proxy for test requests, none of the vendor's
        // hosted services (its chat assistant, its MCP generator).
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        persistAuth: false,
        showDeveloperTools: "never",
        documentDownloadType: "json",
      };
    }),
  );
}
