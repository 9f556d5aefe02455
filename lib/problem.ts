import { z } from "@hono/zod-openapi";

export type Retry = "permanent" | "transient" | "after_delay";

interface ErrorDefinition {
  status: number;
  title: string;
  retry: Retry;
  description: string;
}

/** The error dictionary: every `code` the API can return. Served at /v1/errors and /v1/errors/{code}. */
export const errorCodes = {
  invalid_request: {
    status: 400,
    title: "Invalid request",
    retry: "permanent",
    description:
      "A parameter, header or body field is missing, malformed, out of range or not allowed. `details` lists each problem with its location.",
  },
  idempotency_key_reused: {
    status: 400,
    title: "Idempotency key reused",
    retry: "permanent",
    description:
      "The Idempotency-Key was already used with a different request body or operation. Use a new key for a new request.",
  },
  unauthenticated: {
    status: 401,
    title: "Authentication required",
    retry: "permanent",
    description:
      "No credential was sent, or it is unknown, revoked or expired. Send a secret key as `Authorization: Bearer gpk_…` or `x-api-key`.",
  },
  forbidden: {
    status: 403,
    title: "Forbidden",
    retry: "permanent",
    description:
      "The credential is valid but may not perform this operation: a scope is missing (listed in `details.missing_scopes`) or the operation needs another kind of credential.",
  },
  not_found: {
    status: 404,
    title: "Not found",
    retry: "permanent",
    description: "No such resource exists in the caller's gallery.",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    retry: "permanent",
    description: "The path exists but does not accept this HTTP method.",
  },
  conflict: {
    status: 409,
    title: "Conflict",
    retry: "permanent",
    description:
      "The request conflicts with the resource's current state (for example a duplicate unique value).",
  },
  idempotency_key_in_use: {
    status: 409,
    title: "Idempotency key in use",
    retry: "transient",
    description: "A request with this Idempotency-Key is still being processed. Retry with backoff.",
  },
  concurrent_modification: {
    status: 409,
    title: "Concurrent modification",
    retry: "transient",
    description: "The resource changed while this request was applying its change. Retry the request.",
  },
  upload_token_used: {
    status: 410,
    title: "Upload URL already used",
    retry: "permanent",
    description:
      "A signed upload URL works for one PUT, and this one was used (`details.used_at`). Mint a new upload target to upload again.",
  },
  upload_token_expired: {
    status: 410,
    title: "Upload URL expired",
    retry: "permanent",
    description:
      "A signed upload URL works for a short time after it is minted, and this one expired (`details.expires_at`). Mint a new upload target.",
  },
  payload_too_large: {
    status: 413,
    title: "Payload too large",
    retry: "permanent",
    description: "The request body exceeds the limit for this operation.",
  },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported media type",
    retry: "permanent",
    description:
      "The request body is not of a type this operation takes: JSON operations take `Content-Type: application/json`; a signed upload takes the image type it was minted for, and its bytes must really be that type.",
  },
  rate_limited: {
    status: 429,
    title: "Too many requests",
    retry: "after_delay",
    description:
      "Too many requests in a short time: past the limit of the credential (secret key, member session, publishable token), of the client address, or of sign-in attempts per email and per client address. Retry after the `Retry-After` delay.",
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    retry: "transient",
    description:
      "The server failed to complete the request. Nothing was changed unless the response says so. Retry with backoff.",
  },
  service_unavailable: {
    status: 503,
    title: "Service unavailable",
    retry: "after_delay",
    description:
      "A dependency could not be reached or asked to be retried later; `details.dependency` names it: `database` (every operation), `kv` (the caches every call with a credential, every write with an Idempotency-Key and the public viewing-room reads consult), `object_storage` (uploads, attaching an uploaded image or cover, stored files and inbox attachments), `rate_limiter` (sign-in only: every other limit lets a request through when the limiter fails). Retry after the `Retry-After` delay. A write that met it may have been applied before the connection dropped (`details.may_have_been_applied`): retry it with the same Idempotency-Key, which applies it exactly once.",
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof errorCodes;

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
export const ERRORS_PATH = "/v1/errors";

/**
 * An answer of the API's own making (a 4xx, or a 503 naming its dependency), thrown to the router, which renders it
 * as a problem. It is an outcome, not a fault: no stack trace is captured for it (capturing one walked the whole
 * middleware chain, the largest part of a 401's CPU), so `stack` holds only its name and message.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail?: string,
    details: unknown = null,
    headers: Record<string, string> = {},
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(detail ?? errorCodes[code].description);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return errorCodes[this.code].status;
  }
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  retry: Retry;
  details: unknown;
  instance: string;
  request_id: string;
}

export function problemBody(origin: string, error: ApiError, instance: string, requestId: string): Problem {
  const def = errorCodes[error.code];
  return {
    type: `${origin}${ERRORS_PATH}/${error.code}`,
    title: def.title,
    status: def.status,
    detail: error.message,
    code: error.code,
    retry: def.retry,
    details: error.details,
    instance,
    request_id: requestId,
  };
}

export function problemResponse(body: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers },
  });
}

/** One entry of `details` for input errors: where the problem is and what is wrong. */
export interface FieldIssue {
  location: "query" | "path" | "body" | "header";
  field: string;
  message: string;
}

export const ProblemSchema = z
  .object({
    type: z.string().openapi({
      description: "URL of this code's entry in the error dictionary.",
      example: "https://api.example.com/v1/errors/invalid_request",
    }),
    title: z.string().openapi({
      description: "The code's title (`Invalid request`): the same for every problem of the code.",
    }),
    status: z.number().int().openapi({ description: "The HTTP status of the answer, repeated in the body." }),
    detail: z.string().openapi({
      description:
        "What went wrong with this request, in a sentence for a person to read; programs branch on `code`, not on it.",
    }),
    code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]).openapi({
      description:
        "What went wrong, for programs to branch on; GET /v1/errors lists every code with its status, retry and meaning.",
    }),
    retry: z.enum(["permanent", "transient", "after_delay"]).openapi({
      description:
        "What a client does: `permanent` (do not retry as it is: fix the request), `transient` (retry with backoff) or `after_delay` (retry after the `Retry-After` delay).",
    }),
    details: z.unknown().openapi({
      description: "Structured detail; for input errors a list of `{location, field, message}`.",
    }),
    instance: z.string().openapi({ description: "The request path this problem is about." }),
    request_id: z.string().openapi({
      description:
        "The request's id (`req_…`), also in the `Request-Id` header: quote it when reporting a problem.",
    }),
  })
  .openapi("Problem");

const problemStatuses = {
  400: "The request is invalid (`invalid_request`, `idempotency_key_reused`).",
  401: "No valid credential (`unauthenticated`).",
  403: "The credential may not perform this operation (`forbidden`).",
  404: "No such resource in the caller's gallery (`not_found`).",
  409: "Conflicts with the current state or an in-flight request with the same Idempotency-Key.",
  500: "The server failed (`internal_error`); retry with backoff.",
  503: "A dependency could not be reached or asked to be retried later (`service_unavailable`; `details.dependency` names it: `database`, `kv`, `object_storage` or `rate_limiter`): retry after `Retry-After`; a write may have been applied (`details.may_have_been_applied`), so retry it with the same Idempotency-Key.",
} as const;

const problemContent = { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } };

/** What an operation that takes a request body can also answer, before its handler runs. */
export const bodyProblemResponses = {
  413: {
    description: "The request body is larger than 1 MiB (`payload_too_large`).",
    content: problemContent,
  },
  415: {
    description:
      "The request body was not sent as `Content-Type: application/json` (`unsupported_media_type`).",
    content: problemContent,
  },
};

/** The headers of a 429 (lib/rate-limits.ts). */
export const rateLimitedHeadersDoc = {
  "Retry-After": {
    description: "Seconds to wait before retrying: the limit's whole window, the longest wait.",
    schema: { type: "integer" as const },
  },
  RateLimit: {
    description:
      'The limit is exhausted (IETF draft httpapi-ratelimit-headers): `"secret_key";r=0;t=10` (none left; `t` seconds at most until the window ends).',
    schema: { type: "string" as const },
  },
  "RateLimit-Policy": {
    description:
      'The limit the request was counted against, on every answer: `"secret_key";q=1000;w=10` (`q` requests per `w` seconds).',
    schema: { type: "string" as const },
  },
};

/** The 429 every operation declared with operation() documents: each counts against a rate limit. */
export const rateLimitedResponses = {
  429: {
    description:
      "Too many requests for this credential, or from this client address without one (`rate_limited`, `retry: after_delay`): wait `Retry-After` seconds. Every answer of the operation names its limit in `RateLimit-Policy`.",
    headers: rateLimitedHeadersDoc,
    content: problemContent,
  },
};

/**
 * The 429 of a route that is not an operation (the meta routes, the event catalogue, stored images): each request
 * counts against its client address's limit.
 */
export const addressRateLimitedResponses = {
  429: {
    description:
      "Too many requests from this client address (`rate_limited`, `retry: after_delay`): wait `Retry-After` seconds. Every answer names the limit in `RateLimit-Policy`.",
    headers: rateLimitedHeadersDoc,
    content: problemContent,
  },
};

/** The six problem responses every operation documents. */
export const problemResponses = {
  400: { description: problemStatuses[400], content: problemContent },
  401: { description: problemStatuses[401], content: problemContent },
  403: { description: problemStatuses[403], content: problemContent },
  404: { description: problemStatuses[404], content: problemContent },
  409: { description: problemStatuses[409], content: problemContent },
  500: { description: problemStatuses[500], content: problemContent },
  503: {
    description: problemStatuses[503],
    headers: {
      "Retry-After": {
        description: "Seconds to wait before retrying.",
        schema: { type: "integer" as const, minimum: 1 },
      },
    },
    content: problemContent,
  },
};
