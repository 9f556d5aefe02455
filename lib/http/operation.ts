import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { IDEMPOTENCY_HEADER } from "../idempotency";
import type { ListSpec } from "../pagination";
import type { CredentialKind } from "../principal";
import {
  ApiError,
  bodyProblemResponses,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  problemResponses,
} from "../problem";
import { strictJson } from "../strict-json";
import { authenticate, UPLOAD_TOKEN_PARAM } from "./auth";
import { idempotency } from "./idempotency";

export interface OperationAuth {
  /** Scopes required (all of them). */
  scopes: readonly string[];
  /** Credential kinds accepted; secret keys and member sessions by default. */
  credentials?: readonly CredentialKind[];
  /**
   * Why only those kinds, as a sentence: the 403 that a credential of another kind gets says it (the inbox is
   * member-private, so a secret key cannot read it).
   */
  credentialsReason?: string;
}

/** What the conformance suite needs to know about an operation, collected as routes are declared. */
export interface OperationEntry {
  operationId: string;
  method: string;
  /** Path under /v1, OpenAPI style: /gallery/artworks/{id}. */
  path: string;
  scopes: readonly string[];
  credentials: readonly CredentialKind[];
  idempotent: boolean;
  paginated: boolean;
  sorts: readonly string[];
  /** Path parameter name → id prefix (`art`), for generated cross-tenant checks. */
  pathIds: Record<string, string>;
  /** Takes a JSON request body (checked strictly: see strictJsonBody). */
  jsonBody: boolean;
  /** A minimal valid JSON body, for generated body checks. */
  exampleBody?: Record<string, unknown>;
  /** Response fields shown once and null in an idempotent replay (a secret), for generated replay checks. */
  replayOmits?: readonly string[];
  /**
   * Membership-gated prices in the response, as paths into the returned object (or into each item of a list):
   * `formats[].price_cents`. A read-only key must see them null unless the resource is public-priced.
   */
  gatedPrices?: readonly string[];
}

export const operationRegistry: OperationEntry[] = [];

const DEFAULT_CREDENTIALS: readonly CredentialKind[] = ["secret", "session"];

type OperationConfig = Omit<RouteConfig, "middleware" | "security"> & {
  operationId: string;
  auth: OperationAuth;
  /** Accepts `Idempotency-Key` (every mutating operation does). */
  idempotent?: boolean;
  /** Query parameter that turns the call into a dry run, which makes no idempotency claim. */
  dryRunQuery?: string;
  exampleBody?: Record<string, unknown>;
  /** Path parameter name → id prefix. */
  pathIds?: Record<string, string>;
  /** A cursor-paginated list: its sorts (the query declares them with `paginationQuery(list)`). */
  list?: ListSpec;
  /** Response fields a replay answers as null (see OperationEntry). */
  replayOmits?: readonly string[];
  /** Membership-gated price paths in the response (see OperationEntry). */
  gatedPrices?: readonly string[];
};

const idempotencyHeaderDoc = {
  name: IDEMPOTENCY_HEADER,
  in: "header" as const,
  required: false,
  description:
    "A unique key (1 to 255 visible ASCII characters). A retry with the same key and body replays the stored response for 14 days with `Idempotent-Replayed: true`; the same key with a different body is 400 `idempotency_key_reused`; while the first request is still running, 409 `idempotency_key_in_use`.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255 },
};

/**
 * A required body that is absent (no bytes, no Content-Type) would otherwise be validated as `{}`, which turns a
 * body-less PATCH into a silent no-op update.
 */
const requireBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.req.header("content-type") && (await c.req.arrayBuffer()).byteLength === 0) {
    const issue = { location: "body" as const, field: "(root)", message: "is required" };
    throw new ApiError("invalid_request", "This operation needs a JSON body.", [issue]);
  }
  await next();
};

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Every JSON body is read here first, strictly (lib/strict-json.ts): invalid UTF-8, a key repeated in an object
 * or an unpaired surrogate escape is a 400 naming the field. The text decoded here is what the idempotency
 * fingerprint and the validator read after it, so nothing downstream decodes the bytes leniently again.
 */
const strictJsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]!.trim();
  if (JSON_MEDIA_TYPE.test(mediaType)) {
    const result = strictJson(new Uint8Array(await c.req.arrayBuffer()));
    if (!result.ok) {
      const { field, message } = result.issue;
      throw new ApiError("invalid_request", `Body field \`${field}\` ${message}.`, [
        { location: "body", field, message },
      ]);
    }
    // Hono keeps body promises in bodyCache (typed as the values); c.req.text() and c.req.json() read this entry.
    (c.req.bodyCache as unknown as { text?: Promise<string> }).text = Promise.resolve(result.text);
  }
  await next();
};

/**
 * An operation authorised by an upload token can also answer 410: the token is its URL, so an unknown one is
 * the 404 and a spent or expired one is gone.
 */
const uploadTokenProblemResponses = {
  ...problemResponses,
  410: {
    description:
      "The URL was already used (`upload_token_used`) or has expired (`upload_token_expired`): mint a new upload target.",
    content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
  },
};

/** OpenAPI security scheme of each credential kind; an upload token is part of the path and has none. */
const schemes: Record<CredentialKind, string | null> = {
  secret: "bearerAuth",
  publishable: "publishableToken",
  session: "sessionCookie",
  upload_token: null,
};

/**
 * Declares an operation: its route plus everything the shared mechanisms need. Authentication, scopes,
 * idempotency, the six problem responses and the OpenAPI security entry all come from here, so a route cannot
 * forget one.
 */
export function operation<const C extends OperationConfig>(config: C) {
  const {
    auth,
    idempotent = false,
    dryRunQuery,
    exampleBody,
    pathIds = {},
    list,
    replayOmits,
    gatedPrices,
    ...route
  } = config;
  const credentials = auth.credentials ?? DEFAULT_CREDENTIALS;
  const byUploadToken = credentials.includes("upload_token");
  if (byUploadToken && (credentials.length > 1 || !config.path.includes(`{${UPLOAD_TOKEN_PARAM}}`))) {
    throw new Error(
      `${config.operationId}: an upload token is the only credential of its operation, presented as {${UPLOAD_TOKEN_PARAM}} in the path`,
    );
  }
  const body = route.request?.body;
  const jsonBody = Boolean(body?.content["application/json"]);
  const middleware: MiddlewareHandler<AppEnv>[] = [
    authenticate({
      credentials,
      scopes: auth.scopes,
      ...(auth.credentialsReason ? { credentialsReason: auth.credentialsReason } : {}),
    }),
  ];
  if (jsonBody) middleware.push(strictJsonBody);
  if (jsonBody && body?.required) middleware.push(requireBody);
  if (idempotent) middleware.push(idempotency(dryRunQuery ? { dryRunQuery } : {}));
  operationRegistry.push({
    operationId: config.operationId,
    method: config.method.toUpperCase(),
    path: config.path,
    scopes: auth.scopes,
    credentials,
    idempotent,
    paginated: Boolean(list),
    jsonBody,
    sorts: list?.sorts ?? [],
    pathIds,
    ...(exampleBody ? { exampleBody } : {}),
    ...(replayOmits ? { replayOmits } : {}),
    ...(gatedPrices ? { gatedPrices } : {}),
  });
  const security = credentials.flatMap((kind) => {
    const scheme = schemes[kind];
    return scheme ? [{ [scheme]: kind === "secret" ? [...auth.scopes] : [] }] : [];
  });
  const scopeNote = `${
    auth.scopes.length ? `\n\nRequired scopes (all): ${auth.scopes.map((s) => `\`${s}\``).join(", ")}.` : ""
  }${auth.credentialsReason ? `\n\n${auth.credentialsReason}` : ""}`;
  // Operations without query parameters still reject unknown ones, like unknown body fields.
  const request = { ...route.request, query: route.request?.query ?? z.strictObject({}) };
  const created = createRoute({
    ...(route as Omit<
      C,
      | "auth"
      | "idempotent"
      | "dryRunQuery"
      | "exampleBody"
      | "pathIds"
      | "list"
      | "replayOmits"
      | "gatedPrices"
    >),
    request: request as C["request"],
    description: `${route.description ?? ""}${scopeNote}`.trim(),
    middleware,
    security,
    ...(idempotent ? { parameters: [idempotencyHeaderDoc] } : {}),
    responses: {
      ...route.responses,
      ...(byUploadToken ? uploadTokenProblemResponses : problemResponses),
      ...(jsonBody ? bodyProblemResponses : {}),
    },
  });
  // Not enumerable: the OpenAPI generator copies a route's enumerable fields into the document.
  return Object.defineProperty(created, "list", {
    value: list ? { ...list, route: config.operationId } : undefined,
    enumerable: false,
  }) as typeof created & { list: (typeof list & { route: string }) | undefined };
}
