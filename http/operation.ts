import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../lib/env";
import { IDEMPOTENCY_HEADER } from "../lib/idempotency";
import type { ListSpec } from "../lib/pagination";
import type { CredentialKind } from "../lib/principal";
import {
  ApiError,
  bodyProblemResponses,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  problemResponses,
  rateLimitedResponses,
} from "../lib/problem";
import {
  EDGE_TTL_SECONDS,
  PUBLIC_MAX_AGE_SECONDS,
  PUBLIC_STALENESS_BOUND_SECONDS,
} from "../lib/public-surface";
import { strictJson } from "../lib/strict-json";
import { authenticate, UPLOAD_TOKEN_PARAM } from "./auth";
import type { ConnectorProof } from "./connector-auth";
import { BROWSER_SURFACE_REASON, isBrowserSurfaceRoute } from "./cors";
import {
  type DeprecationDeclaration,
  deprecationHeaders,
  deprecationMiddleware,
  deprecationNote,
} from "./deprecation";
import {
  DRY_RUN_NOTE,
  type DryRunDeclaration,
  dryRunMiddleware,
  withDryRunQuery,
  withDryRunResponse,
} from "./dry-run";
import { type EdgeCacheSpec, edgeCache, generationBesideCredential } from "./edge-cache";
import { idempotency, replayBesideCredential } from "./idempotency";

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
  /** A connector's operation (credential `connector` alone): how the provider proves each delivery. */
  connectorProof?: ConnectorProof;
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
  /** Takes `dry_run=true` (http/dry-run.ts): answers 200 with `X-Dry-Run: true` and changes nothing. */
  dryRun: boolean;
  /** Deprecated (http/deprecation.ts): every answer carries `Deprecation` and `Sunset`. */
  deprecated?: DeprecationDeclaration;
  /** A connector's operation: how its provider proves a delivery. */
  connectorProof?: ConnectorProof;
}

export const operationRegistry: OperationEntry[] = [];

/**
 * Runs `declare` (which calls `operation()`) without adding its operations to the registry, and returns what it
 * declared: for routes that are not the API's, such as a test's throwaway one, so every reader of the registry
 * (the document's checks, the generated suites) sees the API alone, whichever modules share the isolate.
 */
export function declaredApart<T>(declare: () => T): { value: T; entries: OperationEntry[] } {
  const before = operationRegistry.length;
  const value = declare();
  return { value, entries: operationRegistry.splice(before) };
}

const DEFAULT_CREDENTIALS: readonly CredentialKind[] = ["secret", "session"];

// `deprecated` is declared as `deprecation`, so a deprecated operation always sends its headers.
type OperationConfig = Omit<RouteConfig, "middleware" | "security" | "deprecated"> & {
  operationId: string;
  auth: OperationAuth;
  /** Accepts `Idempotency-Key` (every mutating operation does). */
  idempotent?: boolean;
  /**
   * The operation can be dry-run (http/dry-run.ts): the `dry_run` query parameter, the 200 Dry-run result
   * (with this effect), the `X-Dry-Run` header and the description's paragraph all come from declaring it.
   */
  dryRun?: DryRunDeclaration;
  exampleBody?: Record<string, unknown>;
  /** Path parameter name → id prefix. */
  pathIds?: Record<string, string>;
  /** A cursor-paginated list: its sorts (the query declares them with `paginationQuery(list)`). */
  list?: ListSpec;
  /** Response fields a replay answers as null (see OperationEntry). */
  replayOmits?: readonly string[];
  /** Membership-gated price paths in the response (see OperationEntry). */
  gatedPrices?: readonly string[];
  /**
   * A public read served from the edge (http/edge-cache.ts): strong ETag, 304 on `If-None-Match`, public
   * Cache-Control. Only for operations whose answer is the same for every holder of the gallery's publishable
   * tokens; an answer to a secret key or a session stays `no-store`.
   */
  edgeCache?: EdgeCacheSpec;
  /**
   * The operation is deprecated (http/deprecation.ts): the document marks it, its description says since when,
   * until when and what to use instead, and every answer carries the `Deprecation` and `Sunset` headers.
   */
  deprecation?: DeprecationDeclaration;
};

const idempotencyHeaderDoc = {
  name: IDEMPOTENCY_HEADER,
  in: "header" as const,
  required: false,
  description:
    "A unique key (1 to 255 visible ASCII characters). A retry with the same key and body replays the stored response for 14 days with `Idempotent-Replayed: true`; the same key with a different body is 400 `idempotency_key_reused`; while the first request is still running, 409 `idempotency_key_in_use`.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255 },
};

const EDGE_CACHE_NOTE = `Served from the edge: the answer is the same for every visitor of the gallery, so each data center keeps it (up to ${EDGE_TTL_SECONDS} s) and browsers may reuse it (\`Cache-Control: public, max-age=${PUBLIC_MAX_AGE_SECONDS}\`). It carries a strong \`ETag\`; a request with a matching \`If-None-Match\` is answered 304 without a body. A change to what it shows (the room, its works, their prices, availability, images, formats or artists, the open and close times) is shown at most ${PUBLIC_STALENESS_BOUND_SECONDS} s after it is made, usually sooner; a room is never served after its \`closes_at\`, and no cache is told to keep it past then.`;

const ifNoneMatchDoc = {
  name: "If-None-Match",
  in: "header" as const,
  required: false,
  description:
    "The `ETag` of an answer you hold: when it is still current the answer is 304 Not Modified, without a body.",
  schema: { type: "string" as const },
};

/** The 200 of an edge-cached read documents its cache headers, and a 304 joins it. */
function edgeCachedResponses(responses: RouteConfig["responses"]): RouteConfig["responses"] {
  const ok = responses[200];
  if (!ok || "$ref" in ok) throw new Error("an edge-cached operation answers 200");
  const headers = {
    ETag: {
      description: "Strong validator of the body: the SHA-256 of its bytes, base64url, quoted.",
      schema: { type: "string" as const },
    },
    "Cache-Control": {
      description: `\`public, max-age=N, s-maxage=N\`: N is ${PUBLIC_MAX_AGE_SECONDS} s, less when the room closes sooner.`,
      schema: { type: "string" as const },
    },
  };
  return {
    ...responses,
    200: { ...ok, headers: { ...headers, ...ok.headers } },
    304: { description: "Not Modified: the `If-None-Match` tag is still current. No body.", headers },
  };
}

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

/** The security scheme (functions/openapi.ts) of each provider proof of a connector's operation. */
const proofSchemes: Record<ConnectorProof, string> = {
  whatsapp_handshake: "whatsappVerifyToken",
  whatsapp_signature: "whatsappSignature",
  twilio_signature: "twilioSignature",
};

/** OpenAPI security scheme of each credential kind; an upload token is part of the path and has none. */
const schemes: Record<CredentialKind, string | null> = {
  secret: "bearerAuth",
  publishable: "publishableToken",
  session: "sessionCookie",
  upload_token: null,
  // A provider signs each delivery with the connection's secret; the operation's description says how.
  connector: null,
};

/**
 * Declares an operation: its route plus everything the shared mechanisms need. Authentication, scopes,
 * idempotency, the rate limit, the problem responses (the six, and 429) and the OpenAPI security entry all come from here, so a route cannot
 * forget one.
 */
export function operation<const C extends OperationConfig>(config: C) {
  const {
    auth,
    idempotent = false,
    dryRun,
    exampleBody,
    pathIds = {},
    list,
    replayOmits,
    gatedPrices,
    edgeCache: edgeCacheSpec,
    deprecation: deprecated,
    ...route
  } = config;
  const credentials = auth.credentials ?? DEFAULT_CREDENTIALS;
  const byUploadToken = credentials.includes("upload_token");
  if (byUploadToken && (credentials.length > 1 || !config.path.includes(`{${UPLOAD_TOKEN_PARAM}}`))) {
    throw new Error(
      `${config.operationId}: an upload token is the only credential of its operation, presented as {${UPLOAD_TOKEN_PARAM}} in the path`,
    );
  }
  if (credentials.includes("connector") && (credentials.length > 1 || !auth.connectorProof)) {
    throw new Error(
      `${config.operationId}: a connector's operation takes the provider's proof alone, and names it`,
    );
  }
  if (edgeCacheSpec && credentials.some((kind) => kind !== "publishable")) {
    throw new Error(`${config.operationId}: only an operation for publishable tokens alone is edge-cached`);
  }
  // The browser surface (http/cors.ts) is exactly the operations for publishable tokens alone.
  const browserSurface = isBrowserSurfaceRoute(config.path);
  if (browserSurface !== (credentials.length === 1 && credentials[0] === "publishable")) {
    throw new Error(
      `${config.operationId}: paths under /public/ take publishable tokens alone, and publishable-only operations live under /public/`,
    );
  }
  const credentialsReason = auth.credentialsReason ?? (browserSurface ? BROWSER_SURFACE_REASON : undefined);
  const body = route.request?.body;
  const jsonBody = Boolean(body?.content["application/json"]);
  const middleware: MiddlewareHandler<AppEnv>[] = [];
  // First, so the headers reach every answer, a 401 or 403 included.
  if (deprecated) middleware.push(deprecationMiddleware(deprecationHeaders(deprecated, config.operationId)));
  middleware.push(
    authenticate({
      credentials,
      scopes: auth.scopes,
      ...(credentialsReason ? { credentialsReason } : {}),
      ...(auth.connectorProof ? { connectorProof: auth.connectorProof } : {}),
      // What the route reads of EDGE_KV once the gallery is known, read with the credential (http/edge-reads.ts).
      ...(idempotent
        ? { besideCredential: replayBesideCredential }
        : edgeCacheSpec
          ? { besideCredential: generationBesideCredential }
          : {}),
    }),
  );
  if (edgeCacheSpec) middleware.push(edgeCache(edgeCacheSpec));
  if (jsonBody) middleware.push(strictJsonBody);
  if (jsonBody && body?.required) middleware.push(requireBody);
  // Marked before the idempotency middleware, which makes no claim for a dry run.
  if (dryRun) middleware.push(dryRunMiddleware);
  if (idempotent) middleware.push(idempotency());
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
    dryRun: Boolean(dryRun),
    ...(deprecated ? { deprecated } : {}),
    ...(auth.connectorProof ? { connectorProof: auth.connectorProof } : {}),
  });
  const security = credentials.flatMap((kind) => {
    const scheme =
      kind === "connector" && auth.connectorProof ? proofSchemes[auth.connectorProof] : schemes[kind];
    return scheme ? [{ [scheme]: kind === "secret" ? [...auth.scopes] : [] }] : [];
  });
  const scopeNote = `${
    auth.scopes.length ? `\n\nRequired scopes (all): ${auth.scopes.map((s) => `\`${s}\``).join(", ")}.` : ""
  }${credentialsReason ? `\n\n${credentialsReason}` : ""}`;
  // Operations without query parameters still reject unknown ones, like unknown body fields.
  const ownQuery = route.request?.query ?? z.strictObject({});
  const request = {
    ...route.request,
    query: dryRun ? withDryRunQuery(config.operationId, ownQuery) : ownQuery,
  };
  const ownResponses = dryRun
    ? (withDryRunResponse(config.operationId, route.responses, dryRun) as C["responses"])
    : route.responses;
  const created = createRoute({
    ...(route as Omit<
      C,
      | "auth"
      | "idempotent"
      | "dryRun"
      | "exampleBody"
      | "pathIds"
      | "list"
      | "replayOmits"
      | "gatedPrices"
      | "edgeCache"
      | "deprecation"
    >),
    ...(deprecated ? { deprecated: true } : {}),
    request: request as C["request"],
    description:
      `${route.description ?? ""}${dryRun ? `\n\n${DRY_RUN_NOTE}` : ""}${edgeCacheSpec ? `\n\n${EDGE_CACHE_NOTE}` : ""}${deprecated ? `\n\n${deprecationNote(deprecated)}` : ""}${scopeNote}`.trim(),
    middleware,
    security,
    ...(idempotent || edgeCacheSpec
      ? {
          parameters: [
            ...(idempotent ? [idempotencyHeaderDoc] : []),
            ...(edgeCacheSpec ? [ifNoneMatchDoc] : []),
          ],
        }
      : {}),
    responses: {
      ...(edgeCacheSpec ? edgeCachedResponses(ownResponses) : ownResponses),
      ...(byUploadToken ? uploadTokenProblemResponses : problemResponses),
      ...(jsonBody ? bodyProblemResponses : {}),
      ...rateLimitedResponses,
    },
  });
  // Not enumerable: the OpenAPI generator copies a route's enumerable fields into the document.
  return Object.defineProperty(created, "list", {
    value: list ? { ...list, route: config.operationId } : undefined,
    enumerable: false,
  }) as typeof created & { list: (typeof list & { route: string }) | undefined };
}
