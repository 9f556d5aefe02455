import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { type Db, httpDb } from "../../db/client";
import { textArray } from "../../db/queries/rows";
import worker from "../../functions/api";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { hashPassword } from "../../lib/password";
import { allScopes } from "../../lib/scopes";
import { validateResponse } from "./openapi";

export const db = () => httpDb(env);

export interface TestGallery {
  id: string;
  /** A secret key holding every scope. */
  key: string;
  /** Mints another secret key with exactly these scopes. */
  keyWith(scopes: readonly string[]): Promise<string>;
  /**
   * A key of this gallery holding exactly these scopes, minted once per distinct set and shared by every caller
   * (for suites generated over many types that ask for the same sets again and again).
   */
  keyFor(scopes: readonly string[]): Promise<string>;
  /**
   * The gallery's fixture editor: a member signed in once (the same member and session on every call), for
   * operations that take a member session only, such as the member-private inbox.
   */
  editor(): Promise<SignedInMember>;
}

export interface SignedInMember {
  id: string;
  /** The `gss_` session token, sent as `Authorization: Bearer`. */
  token: string;
}

/** A new member of the gallery with this role, signed in through POST /auth/sessions. */
export async function signedInMember(
  galleryId: string,
  role: "editor" | "viewer" = "editor",
): Promise<SignedInMember> {
  const id = newId("mem");
  const email = `${id}@gallery.example`;
  const password = `pw-${crypto.randomUUID()}`;
  await db().execute(sql`insert into members (id, gallery_id, email, name, role, password_hash)
    values (${id}, ${galleryId}, ${email}, ${`Member ${role}`}, ${role}, ${await hashPassword(password)})`);
  const response = await call("POST", "/auth/sessions", { body: { email, password } });
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  }
  return { id, token: ((await response.json()) as { token: string }).token };
}

/**
 * Another session of an existing member, made in the database like mintKey (signing in again would count against
 * the sign-in limit of 5 a minute per email): a session of its own for each of many operations, so none comes near
 * the per-session rate limit.
 */
export async function sessionOf(galleryId: string, memberId: string): Promise<string> {
  const token = randomToken("gss_");
  await db().execute(sql`insert into sessions (id, gallery_id, member_id, token_hash, expires_at)
    values (${newId("ses")}, ${galleryId}, ${memberId}, ${await sha256Hex(token)}, now() + interval '1 day')`);
  return token;
}

/** A key of the gallery with these scopes, written as key creation writes it (`database`: another database's). */
export async function mintKey(
  galleryId: string,
  scopes: readonly string[],
  kind: "secret" | "publishable" = "secret",
  database: Db = db(),
) {
  const token = randomToken(kind === "secret" ? "gpk_" : "gpub_");
  await database.execute(sql`insert into api_keys (id, gallery_id, kind, name, prefix, key_hash, scopes)
    values (${newId("key")}, ${galleryId}, ${kind}, 'test', ${token.slice(0, 12)}, ${await sha256Hex(token)}, ${textArray([...scopes])})`);
  return token;
}

/** A new, empty gallery of its own for each test file or case: tenancy isolates tests from one another. */
export async function createGallery(opts: { livemode?: boolean } = {}): Promise<TestGallery> {
  const id = newId("gal");
  await db().execute(
    sql`insert into galleries (id, name, slug, livemode) values (${id}, ${`Test ${id}`}, ${id}, ${opts.livemode ?? false})`,
  );
  let editor: Promise<SignedInMember> | undefined;
  const keysBySet = new Map<string, Promise<string>>();
  return {
    id,
    key: await mintKey(id, allScopes),
    keyWith: (scopes) => mintKey(id, scopes),
    keyFor: (scopes) => {
      const wanted = [...new Set(scopes)].sort();
      const name = wanted.join(" ");
      if (!keysBySet.has(name)) keysBySet.set(name, mintKey(id, wanted));
      return keysBySet.get(name)!;
    },
    editor: () => {
      editor ??= signedInMember(id, "editor");
      return editor;
    },
  };
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is; bytes carry no implicit Content-Type (a string gets text/plain unless headers say). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** The request `call()` sends: `path` is under /v1; a JSON `body` gets `Content-Type: application/json`. */
export function apiRequest(method: string, path: string, opts: CallOptions = {}): Request {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | Uint8Array | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`https://api.test/v1${path}`, { method, headers, body });
}

/**
 * Calls the API Worker in-process, as an HTTP client would. Every response is checked against the OpenAPI
 * document (status, content type, body schema); a mismatch throws, failing the calling test.
 */
export async function call(method: string, path: string, opts: CallOptions = {}): Promise<Response> {
  // The Worker's handler itself rather than `exports.default`: the pool's entrypoint wrapper nests one more Proxy
  // around its prototype on every call (@cloudflare/vitest-pool-workers 0.15.1), so a file making thousands of
  // calls (the generated suites) slows down call after call. Work a response leaves to waitUntil still runs
  // after the response, as in production.
  const response = await worker.fetch(apiRequest(method, path, opts), env, createExecutionContext());
  await validateResponse(method, path, response);
  return response;
}

/** A response and its JSON body, typed by the zod schema the route declares for it. */
export interface JsonCall<T> {
  /** Unread: a problem can still be checked with expectProblem(response, …). */
  response: Response;
  status: number;
  body: T;
}

/**
 * The JSON body of `response`, typed by `schema` (a response schema from functions/<group>/schemas.ts). A
 * success body must also parse with the schema (its shape is checked against the OpenAPI document by `call()`
 * too); the body returned is the JSON as sent, not the parse result. A problem body is returned unchecked: test
 * the status first, or use expectProblem. Reads a clone, so the response itself stays unread.
 */
export async function readJson<S extends z.ZodType>(schema: S, response: Response): Promise<z.infer<S>> {
  const body: unknown = await response.clone().json();
  if (response.ok) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new Error(
        `Response body does not parse as its schema: ${parsed.error.message}\n${JSON.stringify(body)}`,
      );
    }
  }
  return body as z.infer<S>;
}

/**
 * `call()` with the body read as `schema`'s type: `const { response, body } = await callJson(Artwork, "GET",
 * `/gallery/artworks/${id}`, { key })`. The response is validated against the OpenAPI document as always.
 */
export async function callJson<S extends z.ZodType>(
  schema: S,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<JsonCall<z.infer<S>>> {
  const response = await call(method, path, opts);
  const body = response.status === 204 ? (null as z.infer<S>) : await readJson(schema, response);
  return { response, status: response.status, body };
}

/** The JSON body of a response whose shape is not one of the API's schemas (ad-hoc or problem bodies). */
export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
