import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import type { AppEnv } from "../env";
import { newId } from "../ids";
import { ApiError, type ErrorCode, type FieldIssue, problemBody, problemResponse } from "../problem";

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

export function renderProblem(c: Context<AppEnv>, error: unknown): Response {
  const apiError = toApiError(error);
  if (apiError.code === "internal_error") console.error("unhandled error", c.get("requestId"), error);
  const url = new URL(c.req.url);
  const body = problemBody(url.origin, apiError, url.pathname, c.get("requestId") ?? "");
  const headers: Record<string, string> = { ...apiError.headers };
  if (apiError.code === "unauthenticated") headers["WWW-Authenticate"] = 'Bearer realm="gallery-platform"';
  return problemResponse(body, headers);
}

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
    c.header("Request-Id", c.get("requestId"));
  });
  router.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
      },
    }),
  );
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
  router.notFound((c) =>
    renderProblem(c, new ApiError("not_found", "No such endpoint. See /v1/openapi.json.")),
  );
  return router;
}
