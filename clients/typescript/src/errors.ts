import type { components } from "./schema.js";

/** The body of every error the API answers: `application/problem+json` (RFC 9457) with the gallery's fields. */
export type Problem = components["schemas"]["Problem"];
/** Every `code` the API can return (the error dictionary at `GET /v1/errors`). */
export type ErrorCode = Problem["code"];
/** Whether a request that failed may succeed if sent again: never, soon, or after `Retry-After`. */
export type Retry = Problem["retry"];

/** One entry of `details` on an input error (`invalid_request`): where the problem is and what is wrong. */
export interface FieldIssue {
  location: "query" | "path" | "body" | "header";
  field: string;
  message: string;
}

/** A response that was not a success. */
export class GalleryError extends Error {
  readonly status: number;
  /** The response's headers (`Retry-After`, `Request-Id`, …). */
  readonly headers: Headers;

  constructor(message: string, status: number, headers: Headers) {
    super(message);
    this.name = "GalleryError";
    this.status = status;
    this.headers = headers;
  }
}

/**
 * A problem answered by the API: its `code`, whether and when to `retry`, and structured `details` (for
 * `invalid_request`, a list of field issues; for `forbidden`, the missing scopes; …).
 */
export class GalleryApiError extends GalleryError {
  readonly code: ErrorCode;
  readonly retry: Retry;
  readonly details: unknown;
  readonly title: string;
  /** The URL of the code's entry in the error dictionary. */
  readonly type: string;
  /** The request path the problem is about. */
  readonly instance: string;
  /** Quote it when asking about a failed request. */
  readonly requestId: string;
  readonly problem: Problem;

  constructor(problem: Problem, headers: Headers) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`, problem.status, headers);
    this.name = "GalleryApiError";
    this.code = problem.code;
    this.retry = problem.retry;
    this.details = problem.details ?? null;
    this.title = problem.title;
    this.type = problem.type;
    this.instance = problem.instance;
    this.requestId = problem.request_id;
    this.problem = problem;
  }

  /** The field issues of an `invalid_request` (empty for other codes). */
  get fieldIssues(): FieldIssue[] {
    return this.code === "invalid_request" && Array.isArray(this.details)
      ? (this.details as FieldIssue[])
      : [];
  }

  /** Seconds the API asks to wait before a retry (`Retry-After`), or null when it named none. */
  get retryAfterSeconds(): number | null {
    return retryAfterSeconds(this.headers);
  }
}

/** A failure that is not a problem document (a proxy's HTML page, an empty 502): the status and the text. */
export class GalleryHttpError extends GalleryError {
  readonly body: string;

  constructor(status: number, headers: Headers, body: string) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ""}`, status, headers);
    this.name = "GalleryHttpError";
    this.body = body;
  }
}

export function retryAfterSeconds(headers: Headers): number | null {
  const value = headers.get("retry-after");
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function isProblem(value: unknown): value is Problem {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === "string" && typeof v.status === "number" && typeof v.retry === "string";
}

/** The typed error for a response that is not a success (reads its body). */
export async function errorFromResponse(response: Response): Promise<GalleryError> {
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/problem+json")) {
    try {
      const body: unknown = JSON.parse(text);
      if (isProblem(body)) return new GalleryApiError(body, response.headers);
    } catch {
      // Not JSON after all: reported as a plain HTTP error below.
    }
  }
  return new GalleryHttpError(response.status, response.headers, text);
}
