import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import {
  DEPENDENCY_NAMES,
  DEPENDENCY_RETRY_AFTER_SECONDS,
  type Dependency,
  errorSummary,
  failedDependency,
} from "../lib/dependency-failure";
import { type AppEnv, missingSettings, publicBaseUrl } from "../lib/env";
import { newId } from "../lib/ids";
import { ApiError, type ErrorCode, type FieldIssue, problemBody, problemResponse } from "../lib/problem";
import { isSignedUpload } from "../lib/uploads";
import { SESSION_COOKIE } from "./auth";
import { CORS_HEADERS, isBrowserSurfaceRequest, preflightHeaders } from "./cors";
import { countOtherRequests } from "./rate-limit";

export type Router = OpenAPIHono<AppEnv>;

/** Largest JSON body any operation accepts. */
export const MAX_BODY_BYTES = 1024 * 1024;

const locations: Record<string, FieldIssue["location"]> = {
  query: "query",
  param: "path",
  json: "body",
  header: "header",
  cookie: "header",
};

/** Turns zod issues into `details`: one entry per offending field, unknown fields named one by one. */
export function fieldIssues(error: ZodError, target: string): FieldIssue[] {
  const location = locations[target] ?? "body";
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        location,
        field: path ? `${path}.${key}` : key,
        message: location === "body" ? "is not a known field" : "is not a known parameter",
      }));
    }
    // zod leaves `issue.input` out unless asked (reportInput), so only the message tells an absent value apart.
    const missing = issue.code === "invalid_type" && issue.message.endsWith("received undefined");
    const message = missing ? "is required" : issue.message;
    return [{ location, field: path || "(root)", message }];
  });
}

function describe(issues: FieldIssue[]): string {
  const first = issues[0];
  if (!first) return "The request is invalid.";
  const where =
    first.location === "body"
      ? "Body field"
      : first.location === "path"
        ? "Path parameter"
        : first.location === "header"
          ? "Header"
          : "Query parameter";
  const more =
    issues.length > 1
      ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""}, see details)`
      : "";
  return `${where} \`${first.field}\` ${first.message}.${more}`;
}

const httpExceptionCodes: Record<number, ErrorCode> = {
  400: "invalid_request",
  401: "unauthenticated",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    const code = httpExceptionCodes[error.status] ?? "internal_error";
    const detail =
      code === "invalid_request"
        ? "The request body is not valid JSON."
        : code === "unsupported_media_type"
          ? "Request bodies must be sent with Content-Type: application/json."
          : undefined;
    return new ApiError(code, detail);
  }
  return new ApiError("internal_error");
}

/**
 * A dependency that could not be reached (lib/dependency-failure.ts) is 503 with `Retry-After`, naming the
 * dependency and nothing of it (no host, no credential, no message of the driver). A write may have been applied
 * before the connection dropped, and the problem says so: its retry with the same Idempotency-Key is answered with
 * what was applied, or applies it once. Which dependency it was is decided by the error's kind in one place
 * (lib/dependency-failure.ts); the bindings' errors carry their dependency's name from the Worker's entry point.
 */
function unavailable(c: Context<AppEnv>, dependency: Dependency): ApiError {
  // The rate limiter is asked before a request does anything (lib/rate-limits.ts): nothing can have been applied.
  const write = !["GET", "HEAD", "OPTIONS"].includes(c.req.method) && dependency !== "rate_limiter";
  const name = DEPENDENCY_NAMES[dependency];
  return new ApiError(
    "service_unavailable",
    write
      ? `The ${name} could not serve this request, so this write may or may not have been applied. Retry it after \`Retry-After\` seconds with the same Idempotency-Key: it is then applied exactly once.`
      : `The ${name} could not serve this request. Retry after \`Retry-After\` seconds.`,
    { dependency, ...(write ? { may_have_been_applied: true } : {}) },
    { "Retry-After": String(DEPENDENCY_RETRY_AFTER_SECONDS) },
  );
}

export function renderProblem(c: Context<AppEnv>, error: unknown): Response {
  const dependency = error instanceof ApiError ? null : failedDependency(error);
  // Not a bug, so no stack; and not the failed query's text, whose parameters are the gallery's data.
  if (dependency)
    console.error("dependency unavailable", dependency, c.get("requestId"), errorSummary(error));
  const apiError = dependency ? unavailable(c, dependency) : toApiError(error);
  if (apiError.code === "internal_error" && !(error instanceof ApiError))
    console.error("unhandled error", c.get("requestId"), error);
  // The dictionary's address is configuration, never the request's Host header (which a client chooses).
  const base = c.env?.PUBLIC_BASE_URL ? publicBaseUrl(c.env) : "";
  const body = problemBody(base, apiError, new URL(c.req.url).pathname, c.get("requestId") ?? "");
  const headers: Record<string, string> = { ...apiError.headers };
  if (apiError.code === "unauthenticated") headers["WWW-Authenticate"] = 'Bearer realm="gallery-platform"';
  return problemResponse(body, headers);
}

/**
 * Sets headers on the answer a handler already made. Hono's `c.header()` after the handler builds a new Response
 * (and copies its headers) for each header it sets; this sets them all in place. An answer whose headers are
 * immutable (one a `fetch` or the Cache API returned) is copied once, then set.
 */
function setResponseHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  const set = (target: Headers) => {
    for (const [name, value] of Object.entries(headers)) target.set(name, value);
  };
  try {
    set(c.res.headers);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const copy = new Response(c.res.body, c.res);
    set(copy.headers);
    // Hono's setter would copy the old answer's headers into the new one (a Response more): cleared first.
    c.res = undefined;
    c.res = copy;
  }
}

/** True when the request carries a credential of any kind, valid or not. */
function presentsCredential(c: Context<AppEnv>): boolean {
  return Boolean(
    c.req.header("authorization") ||
      c.req.header("x-api-key") ||
      c.req.header("cookie")?.includes(`${SESSION_COOKIE}=`),
  );
}

/** A Hono route path (`/v1/gallery/artworks/:id`) as an anchored pattern over request paths. */
function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) =>
      segment === "*"
        ? ".*"
        : segment.startsWith(":")
          ? "[^/]+"
          : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  return new RegExp(`^${source}$`);
}

/**
 * The `Allow` value for a path the router knows (null for an unknown path), from the router's own routes: the
 * mounted groups' routes are the v1 app's, so a 405 needs no list of its own.
 */
function allowFor(router: Router): (path: string) => string | null {
  let table: { pattern: RegExp; method: string }[] | undefined;
  return (path) => {
    table ??= router.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => ({ pattern: pathPattern(route.path), method: route.method }));
    const methods = new Set(table.filter((route) => route.pattern.test(path)).map((route) => route.method));
    if (methods.size === 0) return null;
    if (methods.has("GET")) methods.add("HEAD");
    methods.add("OPTIONS");
    return [...methods].join(", ");
  };
}

let reportedMissing = false;

export interface RouterOptions {
  /**
   * The router is mounted into one made by `createRouter()` (the Worker's app), which already gives every
   * request its id, body limit, NUL check and problem rendering. A mounted router leaves them out: Hono copies
   * a sub-router's `use("*")` middleware onto the parent's routes, so each mounted router that had its own would
   * run the whole set again on every request of every group, and its error handler would wrap every handler.
   */
  mounted?: boolean;
}

/**
 * Every router (the v1 app and each endpoint group) is made here, so a group carries its own error handling
 * and request ids and can be deployed as a Worker of its own; mounted into another router, it relies on that
 * router's (`{ mounted: true }`).
 */
export function createRouter(options: RouterOptions = {}): Router {
  const router = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const issues = fieldIssues(result.error as unknown as ZodError, result.target);
        throw new ApiError("invalid_request", describe(issues), issues);
      }
    },
  });
  if (options.mounted) return router;
  router.use("*", async (c, next) => {
    if (!c.get("requestId")) c.set("requestId", newId("req"));
    await next();
    const headers: Record<string, string> = {
      "Request-Id": c.get("requestId"),
      "X-Content-Type-Options": "nosniff",
    };
    // The limit the request was counted against (http/rate-limit.ts), on every answer.
    const rateLimitPolicy = c.get("rateLimitPolicy");
    if (rateLimitPolicy) headers["RateLimit-Policy"] = rateLimitPolicy;
    // The browser surface answers every request CORS-open, problems included; no other path sends CORS headers.
    if (isBrowserSurfaceRequest(c.req.path)) Object.assign(headers, CORS_HEADERS);
    // An answer to a credential is about that credential's gallery: no shared or browser cache may keep it. A
    // response that declares itself public (a stored image) is the same whoever asks, and keeps its own.
    const declaredPublic = c.res.headers.get("cache-control")?.startsWith("public") === true;
    if (presentsCredential(c) && !declaredPublic) headers["Cache-Control"] = "no-store";
    setResponseHeaders(c, headers);
  });
  router.use("*", async (c, next) => {
    // A Worker started without its settings (a plain `wrangler dev` without .dev.vars) says which, on every call.
    const missing = missingSettings(c.env);
    if (missing.length > 0) {
      const detail = `The server is not configured: ${missing.join("; ")}. Locally, run \`npm start\`, or copy .dev.vars.example to .dev.vars for \`wrangler dev\`.`;
      if (!reportedMissing) console.error(detail);
      reportedMissing = true;
      throw new ApiError("internal_error", detail);
    }
    await next();
  });
  // Every request counts against a rate limit: an operation's by its credential (its authentication gate), any
  // other by its client address, here.
  router.use("*", countOtherRequests);
  const jsonBodyLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
    },
  });
  // A signed upload's image may be larger; its own limit (its token's) is enforced as its bytes are read.
  router.use("*", (c, next) => (isSignedUpload(c.req.method, c.req.path) ? next() : jsonBodyLimit(c, next)));
  router.use("*", async (c, next) => {
    // PostgreSQL text cannot hold U+0000, so a NUL in a query value would fail in the database as a 500.
    if (c.req.url.includes("%00")) {
      for (const [name, value] of new URL(c.req.url).searchParams) {
        if (name.includes("\u0000") || value.includes("\u0000")) {
          const issue: FieldIssue = {
            location: "query",
            field: name,
            message: "must not contain U+0000 (NUL)",
          };
          throw new ApiError("invalid_request", describe([issue]), [issue]);
        }
      }
    }
    await next();
  });
  router.onError((error, c) => renderProblem(c, error));
  const allow = allowFor(router);
  router.notFound((c) => {
    const allowed = allow(c.req.path);
    if (!allowed)
      return renderProblem(c, new ApiError("not_found", "No such endpoint. See /v1/openapi.json."));
    // A preflight: answered CORS-open on the browser surface only (http/cors.ts); secret-key routes are not
    // for browsers, so their answer carries no CORS header and a browser refuses the page's request.
    if (c.req.method === "OPTIONS") {
      const headers = isBrowserSurfaceRequest(c.req.path) ? preflightHeaders(allowed) : { Allow: allowed };
      return c.body(null, 204, headers);
    }
    return renderProblem(
      c,
      new ApiError(
        "method_not_allowed",
        `${c.req.method} is not allowed on ${c.req.path}; it accepts ${allowed}.`,
        null,
        { Allow: allowed },
      ),
    );
  });
  return router;
}
