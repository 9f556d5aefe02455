import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { IDEMPOTENCY_HEADER } from "../idempotency";
import type { ListSpec } from "../pagination";
import type { CredentialKind } from "../principal";
import { ApiError, bodyProblemResponses, problemResponses } from "../problem";
import { authenticate } from "./auth";
import { idempotency } from "./idempotency";

export interface OperationAuth {
  /** Scopes required (all of them). */
  scopes: readonly string[];
  /** Credential kinds accepted; secret keys and member sessions by default. */
  credentials?: readonly CredentialKind[];
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
  const middleware: MiddlewareHandler<AppEnv>[] = [authenticate({ credentials, scopes: auth.scopes })];
  if (route.request?.body?.required) middleware.push(requireBody);
  if (idempotent) middleware.push(idempotency(dryRunQuery ? { dryRunQuery } : {}));
  operationRegistry.push({
    operationId: config.operationId,
    method: config.method.toUpperCase(),
    path: config.path,
    scopes: auth.scopes,
    credentials,
    idempotent,
    paginated: Boolean(list),
    sorts: list?.sorts ?? [],
    pathIds,
    ...(exampleBody ? { exampleBody } : {}),
    ...(replayOmits ? { replayOmits } : {}),
    ...(gatedPrices ? { gatedPrices } : {}),
  });
  const schemes: Record<CredentialKind, string> = {
    secret: "bearerAuth",
    publishable: "publishableToken",
    session: "sessionCookie",
  };
  const security = credentials.map((kind) => ({
    [schemes[kind]]: kind === "secret" ? [...auth.scopes] : [],
  }));
  const scopeNote = auth.scopes.length
    ? `\n\nRequired scopes (all): ${auth.scopes.map((s) => `\`${s}\``).join(", ")}.`
    : "";
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
      ...problemResponses,
      ...(route.request?.body ? bodyProblemResponses : {}),
    },
  });
  // Not enumerable: the OpenAPI generator copies the route's own properties into the document, and `list` is
  // not an OpenAPI field (the linter refuses it).
  return Object.defineProperty(created, "list", {
    value: list ? { ...list, route: config.operationId } : undefined,
    enumerable: false,
  }) as typeof created & { list: (ListSpec & { route: string }) | undefined };
}
