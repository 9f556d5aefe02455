import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from "openapi-fetch";
import { errorFromResponse, GalleryApiError, type GalleryError, GalleryHttpError } from "./errors.js";
import type { paths } from "./schema.js";

export interface GalleryClientOptions {
  /** A secret key (`gpk_…`) or a member session token (`gss_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /**
   * The API's base URL, `https://<host>/v1` (an origin alone gets `/v1` added). Paths in calls start after it:
   * `gallery.GET("/gallery/artworks")`.
   */
  baseUrl: string;
  /**
   * How each write (POST, PATCH, DELETE) gets its `Idempotency-Key` when the call sends none: a new random
   * UUID per call by default; a function of your own; or `false` to send none. A key given in a call's
   * `headers` always wins.
   */
  idempotencyKey?: false | (() => string);
  /**
   * How many times a request is sent again after a network failure or a problem whose `retry` is `transient`
   * or `after_delay` (default 2). Writes are sent again only with their Idempotency-Key, so a retry replays
   * the first outcome instead of writing twice.
   */
  maxRetries?: number;
  /** The longest `Retry-After` to wait for before a retry; a longer one is thrown (default 30 s). */
  maxRetryDelayMs?: number;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

type Method = "get" | "post" | "put" | "patch" | "delete";
type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [Init?] : [Init];
type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

type Operation<M extends Method, P extends keyof paths> = paths[P][M &
  keyof paths[P]] extends infer Op extends Record<string | number, unknown>
  ? Op
  : never;

/** What a call resolves to: errors are thrown, so only the success branch of openapi-fetch's result remains. */
export type Success<M extends Method, P extends PathsWith<M>, Init> = Extract<
  FetchResponse<Operation<M, P>, Init, `${string}/${string}`>,
  { data: unknown }
>;

type GalleryMethod<M extends Method> = <
  P extends PathsWith<M>,
  Init extends MaybeOptionalInit<paths[P], M & keyof paths[P]>,
>(
  url: P,
  ...init: InitParam<Init>
) => Promise<Success<M, P, Init>>;

/** The paths whose GET answers a cursor page: `{data: [...], next_cursor}`. */
export type ListPath = {
  [P in PathsWith<"get">]: paths[P] extends {
    get: {
      responses: {
        200: { content: { "application/json": { data: unknown[]; next_cursor: string | null } } };
      };
    };
  }
    ? P
    : never;
}[PathsWith<"get">];

/** One item of a list operation's pages. */
export type ListItem<P extends ListPath> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": { data: (infer Item)[] } } } } };
}
  ? Item
  : never;

export interface GalleryClient {
  GET: GalleryMethod<"get">;
  POST: GalleryMethod<"post">;
  PUT: GalleryMethod<"put">;
  PATCH: GalleryMethod<"patch">;
  DELETE: GalleryMethod<"delete">;
  /**
   * Every item of a list operation, page after page: follows `next_cursor` until it is null. The query's
   * filters, sort and `limit` (the page size) apply to every page.
   */
  paginate<P extends ListPath, Init extends MaybeOptionalInit<paths[P], "get" & keyof paths[P]>>(
    url: P,
    ...init: InitParam<Init>
  ): AsyncIterable<ListItem<P>>;
  /** The underlying openapi-fetch client (middleware: `raw.use(...)`). */
  raw: Client<paths>;
}

const WRITES = new Set(["POST", "PATCH", "DELETE"]);
const BACKOFF_MS = 500;

function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** 0.5 s, 1 s, 2 s, … with up to a quarter more at random, so clients that failed together do not retry together. */
function backoff(attempt: number): number {
  const base = BACKOFF_MS * 2 ** attempt;
  return base + Math.random() * base * 0.25;
}

/** How long to wait before sending again after this error, or null when sending again cannot help. */
function retryDelay(error: GalleryError, attempt: number, maxDelayMs: number): number | null {
  if (error instanceof GalleryApiError) {
    if (error.retry === "permanent") return null;
    if (error.retry === "transient") return backoff(attempt);
    const seconds = error.retryAfterSeconds;
    if (seconds === null) return backoff(attempt);
    return seconds * 1000 <= maxDelayMs ? seconds * 1000 : null;
  }
  if (error instanceof GalleryHttpError && [502, 503, 504].includes(error.status)) return backoff(attempt);
  return null;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/**
 * The fetch every call goes through: gives a write its Idempotency-Key, sends again what may be sent again, and
 * turns a response that is not a success into a thrown GalleryApiError (a problem) or GalleryHttpError.
 */
function transport(options: GalleryClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const newKey = options.idempotencyKey ?? (() => crypto.randomUUID());
  const maxRetries = options.maxRetries ?? 2;
  const maxDelayMs = options.maxRetryDelayMs ?? 30_000;
  return async (input) => {
    let request = input;
    const write = WRITES.has(request.method);
    if (write && newKey !== false && !request.headers.has("idempotency-key")) {
      const headers = new Headers(request.headers);
      headers.set("idempotency-key", newKey());
      request = new Request(request, { headers });
    }
    // A write without a key, or a signed upload (PUT), is never sent twice: it could take effect twice.
    const repeatable = write ? request.headers.has("idempotency-key") : request.method !== "PUT";
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await send(request.clone());
      } catch (error) {
        if (!repeatable || attempt >= maxRetries || isAbort(error)) throw error;
        await sleep(backoff(attempt));
        continue;
      }
      if (response.ok) return response;
      const error = await errorFromResponse(response);
      const delay = repeatable && attempt < maxRetries ? retryDelay(error, attempt, maxDelayMs) : null;
      if (delay === null) throw error;
      await sleep(delay);
    }
  };
}

/**
 * A typed client of the Gallery Platform API. Calls take the document's paths and parameters and resolve to
 * `{ data, response }`; a response that is not a success is thrown as a GalleryApiError.
 */
export function createGalleryClient(options: GalleryClientOptions): GalleryClient {
  const raw = createClient<paths>({
    baseUrl: apiBase(options.baseUrl),
    headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
    fetch: transport(options),
  });

  async function* paginate(url: string, init?: { params?: { query?: Record<string, unknown> } }) {
    let cursor = init?.params?.query?.cursor;
    for (;;) {
      const query = { ...init?.params?.query, ...(cursor === undefined ? {} : { cursor }) };
      // biome-ignore lint/suspicious/noExplicitAny: the page's type is ListItem<P>, checked at the signature.
      const { data } = await (raw.GET as any)(url, { ...init, params: { ...init?.params, query } });
      const page = data as { data: unknown[]; next_cursor: string | null };
      yield* page.data;
      if (page.next_cursor === null) return;
      cursor = page.next_cursor;
    }
  }

  return {
    GET: raw.GET,
    POST: raw.POST,
    PUT: raw.PUT,
    PATCH: raw.PATCH,
    DELETE: raw.DELETE,
    paginate,
    raw,
  } as unknown as GalleryClient;
}
