import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { httpDb } from "../db/client";
import { LAST_USED_PRECISION_MS, recordApiKeyUse } from "../db/queries/api-keys";
import { type CredentialRecord, findApiKeyByHash, findSessionByHash } from "../db/queries/credentials";
import { findUploadTokenByHash } from "../db/queries/uploads";
import { credentialCacheKey, PUBLISHABLE_TOKEN_PREFIX, SECRET_KEY_PREFIX } from "../lib/credentials";
import { sha256Hex } from "../lib/crypto";
import type { AppEnv, Env } from "../lib/env";
import type { CredentialKind, Principal } from "../lib/principal";
import { ApiError } from "../lib/problem";
import { missingScopes, scopesForRole } from "../lib/scopes";
import { UPLOAD_TOKEN_SHAPE } from "../lib/uploads";
import { authenticateConnector, type ConnectorProof } from "./connector-auth";
import {
  type BesideCredential,
  type GalleryKey,
  keepReadBeside,
  knownGallery,
  rememberGallery,
} from "./edge-reads";
import { countRequest, countsItsRequests } from "./rate-limit";

export const SESSION_COOKIE = "gallery_session";

const TOKEN_SHAPE = /^(gpk_|gpub_|gss_)[A-Za-z0-9_-]{22,128}$/;
/** Credential lookups are cached at the edge; a revoke purges the entry. */
const CACHE_TTL_SECONDS = 300;
/** Unknown credentials are remembered briefly (edge cache and isolate) so a flood of one bad key costs one lookup. */
const NEGATIVE_TTL_SECONDS = 60;

type Cached = { found: false } | { found: true; record: CredentialRecord };

function presentedToken(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string | null {
  const authorization = c.req.header("authorization");
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match)
      throw new ApiError("unauthenticated", "The Authorization header must be `Bearer <credential>`.");
    return match[1]!;
  }
  const apiKey = c.req.header("x-api-key");
  if (apiKey !== undefined) return apiKey.trim();
  return getCookie(c, SESSION_COOKIE) ?? null;
}

function kindOf(token: string): CredentialKind {
  if (token.startsWith(SECRET_KEY_PREFIX)) return "secret";
  if (token.startsWith(PUBLISHABLE_TOKEN_PREFIX)) return "publishable";
  return "session";
}

/** A credential's record, and what was read beside it (http/edge-reads.ts). */
interface Lookup {
  record: CredentialRecord | null;
  beside: ReadonlyMap<string, string | null>;
}

const NOTHING_BESIDE: ReadonlyMap<string, string | null> = new Map();

async function lookup(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  hash: string,
  kind: CredentialKind,
  besideKeys: readonly string[],
): Promise<Lookup> {
  const cacheKey = credentialCacheKey(hash);
  let text: string | null;
  let beside = NOTHING_BESIDE;
  if (besideKeys.length === 0) {
    text = await env.EDGE_KV.get(cacheKey);
  } else {
    // One subrequest for the credential and what the request reads beside it.
    const values = await env.EDGE_KV.get([cacheKey, ...besideKeys], "text");
    text = values.get(cacheKey) ?? null;
    beside = new Map(besideKeys.map((key) => [key, values.get(key) ?? null]));
  }
  if (text !== null) {
    const cached = JSON.parse(text) as Cached;
    return { record: cached.found && notExpired(cached.record) ? cached.record : null, beside };
  }
  const db = httpDb(env);
  const record = kind === "session" ? await findSessionByHash(db, hash) : await findApiKeyByHash(db, hash);
  const entry: Cached = record ? { found: true, record } : { found: false };
  const ttl = record ? cacheTtl(record) : NEGATIVE_TTL_SECONDS;
  // Filling the cache is not on the request's path: the answer is already known.
  ctx.waitUntil(env.EDGE_KV.put(cacheKey, JSON.stringify(entry), { expirationTtl: ttl }));
  return { record, beside };
}

/** Lookups in flight in this isolate: concurrent requests presenting one credential share a single lookup. */
const inFlight = new Map<string, Promise<Lookup>>();
/** Unknown credentials this isolate saw lately (hash → until): a flood of one bad key costs one lookup. */
const recentlyUnknown = new Map<string, number>();
const RECENTLY_UNKNOWN_LIMIT = 10_000;
/**
 * A shared lookup belongs to the request that started it; should that request vanish, its promise may never
 * settle, so the others wait this long for it and then look up for themselves.
 */
const SHARED_LOOKUP_WAIT_MS = 2_000;

/**
 * The credential's record, read with the key `besideKey` names for the credential's gallery when this isolate
 * knows that gallery already (http/edge-reads.ts). A request sharing another's lookup gets that lookup's reads,
 * which name its own keys only if both wanted the same.
 */
async function resolveCredential(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  hash: string,
  kind: CredentialKind,
  besideKey: GalleryKey | null,
): Promise<Lookup> {
  const unknownUntil = recentlyUnknown.get(hash);
  if (unknownUntil !== undefined && unknownUntil > Date.now())
    return { record: null, beside: NOTHING_BESIDE };
  const pending = inFlight.get(hash);
  if (pending) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<"gave_up">((resolve) => {
      timer = setTimeout(() => resolve("gave_up"), SHARED_LOOKUP_WAIT_MS);
    });
    const shared = await Promise.race([pending, gaveUp]).finally(() => clearTimeout(timer));
    if (shared !== "gave_up") return shared;
  }
  const gallery = besideKey ? knownGallery(hash) : undefined;
  const own = lookup(env, ctx, hash, kind, besideKey && gallery !== undefined ? [besideKey(gallery)] : []);
  inFlight.set(hash, own);
  try {
    const found = await own;
    const { record } = found;
    if (!record) {
      if (recentlyUnknown.size >= RECENTLY_UNKNOWN_LIMIT) recentlyUnknown.clear();
      recentlyUnknown.set(hash, Date.now() + NEGATIVE_TTL_SECONDS * 1000);
      return found;
    }
    rememberGallery(hash, record.galleryId);
    // Read for the gallery the isolate knew; a record of another (it cannot be: a credential keeps its gallery)
    // would make them another gallery's, so they are dropped and read again where needed.
    return gallery === undefined || gallery === record.galleryId ? found : { record, beside: NOTHING_BESIDE };
  } finally {
    if (inFlight.get(hash) === own) inFlight.delete(hash);
  }
}

/** Keys whose use this isolate recorded lately (id → when): at most one write per key per isolate per hour. */
const recordedUses = new Map<string, number>();
const RECORDED_USES_LIMIT = 10_000;

/**
 * Keeps a key's `last_used_at` (to the hour) after it authenticated a request, off the request's path (waitUntil):
 * an isolate writes it at most once an hour per key, and the write itself changes nothing when another isolate
 * wrote it within the hour. Sessions have no such field.
 */
function recordUse(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, principal: Principal): void {
  if (principal.kind !== "secret" && principal.kind !== "publishable") return;
  const now = Date.now();
  const last = recordedUses.get(principal.credentialId);
  if (last !== undefined && now - last < LAST_USED_PRECISION_MS) return;
  if (recordedUses.size >= RECORDED_USES_LIMIT) recordedUses.clear();
  recordedUses.set(principal.credentialId, now);
  ctx.waitUntil(
    recordApiKeyUse(httpDb(env), principal.credentialId).catch((error: unknown) => {
      // A missed record loses nothing but the hour's mark; the next isolate or hour writes it.
      recordedUses.delete(principal.credentialId);
      console.error("recording a key's use failed", error);
    }),
  );
}

function notExpired(record: CredentialRecord): boolean {
  return record.expiresAt === null || Date.parse(record.expiresAt) > Date.now();
}

function cacheTtl(record: CredentialRecord): number {
  if (record.expiresAt === null) return CACHE_TTL_SECONDS;
  const remaining = Math.floor((Date.parse(record.expiresAt) - Date.now()) / 1000);
  return Math.max(60, Math.min(CACHE_TTL_SECONDS, remaining));
}

function toPrincipal(record: CredentialRecord, credentialHash: string): Principal {
  const scopes = record.kind === "session" ? scopesForRole(record.role ?? "viewer") : record.scopes;
  return {
    kind: record.kind,
    credentialId: record.id,
    credentialHash,
    galleryId: record.galleryId,
    livemode: record.livemode,
    scopes,
    memberId: record.memberId,
    role: record.role,
    readOnly: scopes.every((s) => s.endsWith(":read")),
  };
}

const kindNames: Record<CredentialKind, string> = {
  secret: "a secret API key (gpk_)",
  publishable: "a publishable token (gpub_)",
  session: "a first-party member session (gss_)",
  upload_token: "a signed upload URL",
  connector: "a provider's signed delivery",
};

export interface AuthRequirement {
  /** Credential kinds the operation accepts. */
  credentials: readonly CredentialKind[];
  /** For a connector's operation (credential `connector`): how the provider proves a delivery. */
  connectorProof?: ConnectorProof;
  /** Scopes the operation requires; all of them. */
  scopes: readonly string[];
  /** Why only those kinds; said in the 403 another kind gets. */
  credentialsReason?: string;
  /**
   * How many requests this one counts as against its credential's limit (1 unless given): a request that carries
   * several calls counts each, as an MCP message batch does (functions/mcp/).
   */
  requestCount?: (c: Context<AppEnv>) => Promise<number>;
  /**
   * The EDGE_KV read the operation makes once the credential's gallery is known (an idempotent replay, a public
   * generation), made with the credential's own read where it can be (http/edge-reads.ts).
   */
  besideCredential?: BesideCredential;
}

/** The path parameter that carries an upload token (`/uploads/{token}`). */
export const UPLOAD_TOKEN_PARAM = "token";

/**
 * An upload token is the URL itself, so an unknown one is a URL that does not exist (404), and a spent or expired
 * one a URL that no longer works (410); there is no 401 or 403 to give. Not cached at the edge: the token changes
 * state on its one use, and the upload consumes it in Postgres anyway.
 */
const authenticateUploadToken: MiddlewareHandler<AppEnv> = countsItsRequests(async (c, next) => {
  // Counted by client address, before the lookup: the URL is the credential, whoever holds it.
  await countRequest(c, null);
  const token = c.req.param(UPLOAD_TOKEN_PARAM) ?? "";
  const hash = UPLOAD_TOKEN_SHAPE.test(token) ? await sha256Hex(token) : null;
  const record = hash ? await findUploadTokenByHash(httpDb(c.env), hash) : null;
  if (!hash || !record) {
    throw new ApiError("not_found", "No upload target has this URL. Mint a new one to upload.");
  }
  if (record.usedAt !== null) {
    throw new ApiError(
      "upload_token_used",
      `This upload URL was used at ${record.usedAt}; each works once. Mint a new one to upload again.`,
      { used_at: record.usedAt },
    );
  }
  if (record.expired) {
    throw new ApiError(
      "upload_token_expired",
      `This upload URL expired at ${record.grant.expiresAt}. Mint a new one to upload.`,
      { expires_at: record.grant.expiresAt },
    );
  }
  c.set("principal", {
    kind: "upload_token",
    credentialId: record.grant.id,
    credentialHash: hash,
    galleryId: record.galleryId,
    livemode: record.livemode,
    scopes: [],
    memberId: record.memberId,
    role: null,
    readOnly: false,
    upload: record.grant,
  });
  await next();
});

/** The principal of the presented credential, or the 401 its absence or invalidity answers. */
async function resolvePrincipal(
  c: Parameters<MiddlewareHandler<AppEnv>>[0],
  besideCredential: BesideCredential | undefined,
): Promise<Principal | ApiError> {
  let token: string | null;
  try {
    token = presentedToken(c);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  if (token === null || token === "") {
    return new ApiError("unauthenticated", "No credential was sent. Send `Authorization: Bearer <key>`.");
  }
  const hash = TOKEN_SHAPE.test(token) ? await sha256Hex(token) : null;
  if (!hash) return new ApiError("unauthenticated", "The credential is unknown, revoked or expired.");
  const besideKey = besideCredential ? await besideCredential(c) : null;
  const { record, beside } = await resolveCredential(c.env, c.executionCtx, hash, kindOf(token), besideKey);
  if (!record) return new ApiError("unauthenticated", "The credential is unknown, revoked or expired.");
  keepReadBeside(c.req.raw, beside);
  return toPrincipal(record, hash);
}

/**
 * The one authentication and authorisation gate, and the one place every operation's request is counted against
 * its rate limit (before the 401 or 403, before the handler). 401 when no valid credential is presented; 403 when
 * a valid credential is of a kind the operation does not accept or lacks a required scope. An operation that accepts an
 * upload token accepts nothing else (operation() checks), and reads it from its path.
 */
export function authenticate(requirement: AuthRequirement): MiddlewareHandler<AppEnv> {
  if (requirement.credentials.includes("upload_token")) return authenticateUploadToken;
  if (requirement.credentials.includes("connector")) {
    if (!requirement.connectorProof) throw new Error("a connector's operation names its proof");
    return authenticateConnector(requirement.connectorProof);
  }
  return countsItsRequests(async (c, next) => {
    const resolved = await resolvePrincipal(c, requirement.besideCredential);
    // Every request is counted once its credential is known, by that credential, or by its client address when
    // it has none valid (http/rate-limit.ts); a 401 or 403 counts too.
    const valid = resolved instanceof ApiError ? null : resolved;
    const times = valid !== null && requirement.requestCount ? await requirement.requestCount(c) : 1;
    await countRequest(c, valid, times);
    if (resolved instanceof ApiError) throw resolved;
    const principal = resolved;
    recordUse(c.env, c.executionCtx, principal);
    if (!requirement.credentials.includes(principal.kind)) {
      const accepted = requirement.credentials.map((k) => kindNames[k]).join(" or ");
      const reason = requirement.credentialsReason ? ` ${requirement.credentialsReason}` : "";
      throw new ApiError("forbidden", `This operation requires ${accepted}.${reason}`, {
        credential: principal.kind,
        accepted: requirement.credentials,
      });
    }
    const missing = missingScopes(principal.scopes, requirement.scopes);
    if (missing.length > 0) {
      throw new ApiError("forbidden", `The credential lacks the scope(s) ${missing.join(", ")}.`, {
        missing_scopes: missing,
        required_scopes: requirement.scopes,
      });
    }
    c.set("principal", principal);
    await next();
  });
}
