import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../lib/env";

/**
 * An operation's deprecation, declared once with `operation({ deprecation })`: the OpenAPI `deprecated` flag, a
 * paragraph in its description and, on every answer (problems included), the `Deprecation` header (RFC 9745: the
 * instant it was deprecated, `@<unix seconds>`), the `Sunset` header (RFC 8594: the HTTP-date after which it may
 * stop answering) and `Link` headers to what says more. docs/decisions.md, "Versioning and deprecation".
 */
export interface DeprecationDeclaration {
  /** When the operation was deprecated: an ISO 8601 instant (UTC). */
  since: string;
  /** When it may stop answering: an ISO 8601 instant (UTC), at least 6 months after `since` for /v1. */
  sunset: string;
  /** What to use instead, as a sentence for the description (`Use GET /gallery/artworks?ids=`). */
  instead: string;
  /** A page about the change (the changelog entry), linked with `rel="deprecation"`. */
  link?: string;
}

/** The notice /v1 gives before an operation may stop answering: six months (docs/decisions.md). */
const MIN_NOTICE_MS = 182 * 24 * 60 * 60 * 1000;

function instant(value: string, field: string, operationId: string): Date {
  const date = new Date(value);
  if (!/Z$/.test(value) || Number.isNaN(date.getTime())) {
    throw new Error(`${operationId}: deprecated.${field} must be a UTC instant (…Z), got "${value}"`);
  }
  return date;
}

/** The headers every answer of a deprecated operation carries. */
export function deprecationHeaders(
  declaration: DeprecationDeclaration,
  operationId: string,
): Record<string, string> {
  const since = instant(declaration.since, "since", operationId);
  const sunset = instant(declaration.sunset, "sunset", operationId);
  if (sunset.getTime() - since.getTime() < MIN_NOTICE_MS) {
    throw new Error(`${operationId}: deprecated.sunset must come at least 182 days after deprecated.since`);
  }
  const headers: Record<string, string> = {
    Deprecation: `@${Math.floor(since.getTime() / 1000)}`,
    Sunset: sunset.toUTCString(),
  };
  if (declaration.link) headers.Link = `<${declaration.link}>; rel="deprecation"; type="text/html"`;
  return headers;
}

/** The paragraph a deprecated operation's description ends with. */
export function deprecationNote(declaration: DeprecationDeclaration): string {
  return `**Deprecated** since ${declaration.since.slice(0, 10)}; it may stop answering after ${declaration.sunset.slice(0, 10)} (the \`Deprecation\` and \`Sunset\` headers of every answer say the same). ${declaration.instead}`;
}

/** Sets the headers on the answer, whatever it is (a problem too): the caller learns it on any call. */
export function deprecationMiddleware(headers: Record<string, string>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) {
      if (name === "Link") c.res.headers.append(name, value);
      else c.res.headers.set(name, value);
    }
  };
}
