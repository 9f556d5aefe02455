import fc from "fast-check";
import { MAX_BODY_BYTES } from "../../../http/app";
import { newId } from "../../../lib/ids";
import {
  type DocumentedOperation,
  type JsonSchema,
  matchPath,
  requestValidatorFor,
} from "../../helpers/openapi";
import {
  doc,
  hostileParam,
  hostileStrings,
  hostileValue,
  Raw,
  resolve,
  toJson,
  types,
  validParam,
  validValue,
} from "./values";

/** Generated requests (test/platform/robustness.test.ts), and whether the document says each is valid. */

// ---------------------------------------------------------------------------------------------------------
// Validity per the document (the judge for 2xx answers)

export function parameters(op: DocumentedOperation, where: "query" | "path" | "header") {
  return (op.operation.parameters ?? []).filter((p) => p.in === where);
}

/** A query string value read as the JSON value its schema describes, or undefined when it cannot be one. */
export function coerce(value: string, schema: JsonSchema): unknown {
  const t = types(schema);
  if (t.includes("string")) return value;
  if (t.includes("integer")) return /^-?(0|[1-9]\d*)$/.test(value) ? Number(value) : undefined;
  if (t.includes("number")) return /^-?(0|[1-9]\d*)(\.\d+)?$/.test(value) ? Number(value) : undefined;
  if (t.includes("boolean")) return value === "true" ? true : value === "false" ? false : undefined;
  return undefined;
}

export function validAgainst(schema: JsonSchema, value: unknown): boolean {
  return value !== undefined && requestValidatorFor(doc, schema).validate(value).valid;
}

export function queryIsValid(op: DocumentedOperation, url: URL): boolean {
  const params = parameters(op, "query");
  const names = new Set(url.searchParams.keys());
  // Routes declared with operation() (every authenticated one) reject unknown parameters by design; the public
  // meta routes (health, error dictionary, event types) ignore them, which OpenAPI allows.
  const strict = credentialKind(op) !== "none";
  for (const name of names) {
    if (name === "") continue; // `?=1` names no parameter
    const param = params.find((p) => p.name === name);
    if (!param?.schema) {
      if (strict) return false;
      continue;
    }
    const values = url.searchParams.getAll(name);
    const schema = resolve(param.schema);
    if (schema.type === "array") {
      const items = (schema.items as JsonSchema | undefined) ?? {};
      const coerced = values.map((v) => coerce(v, items));
      if (!validAgainst(schema, coerced.includes(undefined) ? undefined : coerced)) return false;
    } else if (values.length !== 1 || !validAgainst(schema, coerce(values[0]!, schema))) {
      return false;
    }
  }
  return params.every((p) => !p.required || names.has(p.name));
}

export function pathIsValid(op: DocumentedOperation, url: URL): boolean {
  const concrete = url.pathname.replace(/^\/v1/, "");
  if (matchPath(doc, concrete) !== op.path) return false;
  const templateSegments = op.path.split("/");
  const segments = concrete.split("/");
  return templateSegments.every((segment, i) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (!name) return true;
    const param = parameters(op, "path").find((p) => p.name === name);
    let value: string;
    try {
      value = decodeURIComponent(segments[i]!);
    } catch {
      return false;
    }
    return param?.schema ? validAgainst(param.schema, value) : false;
  });
}

export function bodySchema(op: DocumentedOperation): JsonSchema | undefined {
  return op.operation.requestBody?.content["application/json"]?.schema;
}

export function bodyIsValid(op: DocumentedOperation, request: GeneratedRequest): boolean {
  const schema = bodySchema(op);
  if (!schema) return request.body === undefined;
  if (request.body === undefined || request.body.length === 0) return !op.operation.requestBody?.required;
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim();
  if (type !== "application/json") return false;
  const bytes = typeof request.body === "string" ? new TextEncoder().encode(request.body) : request.body;
  if (bytes.length > MAX_BODY_BYTES) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return false;
  }
  return validAgainst(schema, parsed);
}

export function headersAreValid(request: GeneratedRequest): boolean {
  const key = new Headers(request.headers).get("idempotency-key");
  return key === null || /^[\x21-\x7e]{1,255}$/.test(key);
}

// ---------------------------------------------------------------------------------------------------------
// Requests

export interface GeneratedRequest {
  /** Path under /v1 with its query string. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export function short(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…(${value.length} chars)` : value;
}

export function generated(request: GeneratedRequest): GeneratedRequest {
  return Object.assign(request, {
    [fc.toStringMethod]: () =>
      `${short(request.path)} headers=${JSON.stringify(request.headers)} body=${
        request.body === undefined
          ? "none"
          : typeof request.body === "string"
            ? short(request.body)
            : `<${request.body.length} bytes>`
      }`,
  });
}

export interface Context {
  /**
   * The credentials the requests take turns with (none for an operation without one): the suite sends hundreds
   * of requests a second, more than one credential may (the per-credential rate limits, lib/rate-limits.ts).
   */
  credentials: readonly string[];
  /** Path parameter name → an id of a real resource of the test gallery. */
  ids: Record<string, string>;
  /** A body the operation accepts, as a base for single-field mutations. */
  base: fc.Arbitrary<Record<string, unknown>>;
}

export function pathWith(op: DocumentedOperation, segments: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => segments[name]!);
}

export const queryPairs = (op: DocumentedOperation): fc.Arbitrary<[string, string][]> => {
  const params = parameters(op, "query");
  const perParam = params.map((p) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as [string, string][]) },
      { weight: 2, arbitrary: validParam(p.schema ?? {}).map((v) => [[p.name, v]] as [string, string][]) },
      { weight: 3, arbitrary: hostileParam(p.schema ?? {}).map((v) => [[p.name, v]] as [string, string][]) },
      // Repeated and empty: `?a=&a=`, `?a=x&a=y`.
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.oneof(validParam(p.schema ?? {}), fc.constant("")),
            fc.oneof(hostileParam(p.schema ?? {}), fc.constant("")),
          )
          .map(
            ([a, b]) =>
              [
                [p.name, a],
                [p.name, b],
              ] as [string, string][],
          ),
      },
    ),
  );
  const extra = fc.oneof(
    { weight: 5, arbitrary: fc.constant([] as [string, string][]) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("no_such_param", "LIMIT", "limit[]", "", "__proto__", "constructor")
        .map((name) => [[name, "1"]] as [string, string][]),
    },
  );
  const chaos = fc.tuple(fc.tuple(...perParam), extra).map(([parts, more]) => [...parts.flat(), ...more]);
  if (params.length === 0) return chaos;
  // Mostly one hostile parameter among valid or absent ones, so a wrongly accepted value shows as a 2xx.
  const quiet = params.map((p) =>
    fc.option(
      validParam(p.schema ?? {}).map((v) => [p.name, v] as [string, string]),
      { nil: undefined },
    ),
  );
  const focused = fc
    .tuple(fc.nat({ max: params.length - 1 }), fc.tuple(...quiet), fc.context())
    .chain(([index, others]) =>
      fc
        .oneof(
          hostileParam(params[index]!.schema ?? {}).map(
            (v) => [[params[index]!.name, v]] as [string, string][],
          ),
          perParam[index]!,
        )
        .map((hostile) => [
          ...others.filter((o, i): o is [string, string] => o !== undefined && i !== index),
          ...hostile,
        ]),
    );
  return fc.oneof({ weight: 3, arbitrary: focused }, { weight: 1, arbitrary: chaos });
};

export function queryString(pairs: [string, string][]): string {
  const qs = new URLSearchParams(pairs).toString();
  return qs ? `?${qs}` : "";
}

export const rawQueries = [
  "?",
  "?&&",
  "?=1",
  "?limit",
  "?limit=%ZZ",
  "?%",
  "?limit=1&&&",
  "?a=%00",
  "?q=%E0%A4%A",
];

export const idempotencyKeys = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.uuid().map((u) => `k-${u}`) },
  // DEL stands for every character outside visible ASCII: a non-ASCII value would make workerd print a
  // warning about non-ASCII header values for each request, and the API's rule refuses both alike.
  { weight: 1, arbitrary: fc.constantFrom("", " ", "a b", "\u007f", "k".repeat(256), "k".repeat(255), "\t") },
);

export function withKey(headers: Record<string, string>, key: string | undefined, op: DocumentedOperation) {
  const documented = parameters(op, "header").some((p) => p.name.toLowerCase() === "idempotency-key");
  // A fresh key per request: a reused key with another body is a (correct) 400, not what this checks.
  if (documented && key !== undefined)
    headers["Idempotency-Key"] = key.startsWith("k-") ? `k-${crypto.randomUUID()}` : key;
  return headers;
}

/** Each operation's credentials, by the first of them (the one a generated request names). */
const pools = new Map<string, readonly string[]>();
let turn = 0;

export function withCredential(headers: Record<string, string>, ctx: Context) {
  const [first] = ctx.credentials;
  if (first) {
    pools.set(first, ctx.credentials);
    headers.authorization = `Bearer ${first}`;
  }
  return headers;
}

/**
 * The headers as sent: the credential a generated request names is swapped for the next of its operation's
 * credentials (requests are generated ahead of sending, and shrinking replays them), so they take turns.
 */
export function takingTurns(headers: Record<string, string>): Record<string, string> {
  const named = headers.authorization?.replace(/^Bearer /, "");
  const pool = named ? pools.get(named) : undefined;
  return pool ? { ...headers, authorization: `Bearer ${pool[turn++ % pool.length]}` } : headers;
}

export function validSegments(ctx: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(ctx.ids).map(([k, v]) => [k, encodeURIComponent(v)]));
}

export function queryRequests(op: DocumentedOperation, ctx: Context): fc.Arbitrary<GeneratedRequest> {
  const body = bodySchema(op) ? ctx.base.map((b) => toJson(b)) : fc.constant(undefined);
  return fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: queryPairs(op).map(queryString) },
        { weight: 1, arbitrary: fc.constantFrom(...rawQueries) },
      ),
      body,
      idempotencyKeys,
    )
    .map(([query, body, key]) =>
      generated({
        path: `${pathWith(op, validSegments(ctx))}${query}`,
        headers: withKey(
          withCredential(body === undefined ? {} : { "content-type": "application/json" }, ctx),
          key,
          op,
        ),
        ...(body === undefined ? {} : { body }),
      }),
    );
}

/** A body mutated into a non-object stays a non-object only until the next field mutation. */
export function asObject(body: unknown): Record<string, unknown> {
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

export function bodyRequests(
  op: DocumentedOperation,
  ctx: Context,
  schema: JsonSchema,
): fc.Arbitrary<GeneratedRequest> {
  const s = resolve(schema);
  const fields = Object.keys(s.properties ?? {});
  const required = (s.required ?? []) as string[];
  const mutations = fc.oneof(
    // One field with a wrong type, boundary or overflow value.
    ...fields.map((field) =>
      hostileValue((s.properties![field] as JsonSchema) ?? {}).map(
        (value) => (b: Record<string, unknown>) => ({ ...asObject(b), [field]: value }),
      ),
    ),
    // One valid field (so a 2xx is expected, and checked against the document).
    ...fields.map((field) =>
      validValue((s.properties![field] as JsonSchema) ?? {}).map((value) => (b: Record<string, unknown>) => ({
        ...asObject(b),
        [field]: value,
      })),
    ),
    // A required field missing.
    ...required.map((field) =>
      fc.constant((b: Record<string, unknown>) => {
        const { [field]: _, ...rest } = asObject(b);
        return rest;
      }),
    ),
    // An unknown field, or a whole body of another type.
    fc
      .constantFrom("extra", "__proto__", "constructor", "ID", "")
      .map((name) => (b: Record<string, unknown>) => ({ ...asObject(b), [name]: 1 })),
    fc
      .constantFrom<unknown>([], null, "text", new Raw("1e309"), true, [{}])
      .map((other) => () => other as Record<string, unknown>),
  );
  return fc
    .tuple(ctx.base, fc.array(mutations, { minLength: 1, maxLength: 3 }), idempotencyKeys)
    .map(([base, changes, key]) =>
      generated({
        path: pathWith(op, validSegments(ctx)),
        headers: withKey(withCredential({ "content-type": "application/json" }, ctx), key, op),
        body: toJson(changes.reduce((b, change) => change(b), base)),
      }),
    );
}

export const invalidJson = [
  "",
  "{",
  "}",
  "{'title':'x'}",
  '{"title":"x",}',
  '{"title":"x"}garbage',
  "[1,]",
  "nul",
  "NaN",
  '{"title":"\\ud800"}',
  "\uFEFF{}",
  '{"a":1,"a":2}',
  `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
  `{"a":${'{"a":'.repeat(50_000)}1${"}".repeat(50_001)}`,
];

export function rawRequests(op: DocumentedOperation, ctx: Context): fc.Arbitrary<GeneratedRequest> {
  const contentTypes = fc.constantFrom<string | undefined>(
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/xml",
    "",
    undefined,
  );
  const bodies = fc.oneof(
    fc.constantFrom(...invalidJson),
    ctx.base.map((b) => toJson(b)),
    ctx.base.map((b) =>
      new URLSearchParams(
        Object.entries(b).map(([k, v]) => [k, typeof v === "string" ? v : toJson(v)] as [string, string]),
      ).toString(),
    ),
  );
  return fc.tuple(contentTypes, bodies).map(([type, body]) =>
    generated({
      path: pathWith(op, validSegments(ctx)),
      headers: withCredential(type === undefined ? {} : { "content-type": type }, ctx),
      // Bytes, so that "no Content-Type" really sends none.
      body: type === undefined ? new TextEncoder().encode(body) : body,
    }),
  );
}

export function oversizeRequest(op: DocumentedOperation, ctx: Context): GeneratedRequest {
  const filler = "z".repeat(MAX_BODY_BYTES);
  return generated({
    path: pathWith(op, validSegments(ctx)),
    headers: withCredential({ "content-type": "application/json" }, ctx),
    body: `{"title":"${filler}"}`,
  });
}

/** URL-encoded path segments that are not ids of this gallery. */
export function hostileSegment(prefix: string): fc.Arbitrary<string> {
  const other = ["art", "evt", "key", "we", "gal", "tag", "artist", "ses", "req"].filter((p) => p !== prefix);
  return fc.oneof(
    fc.constantFrom(...hostileStrings.filter((s) => s !== "").map(encodeURIComponent)),
    fc.constantFrom("%", "%2F", "%2e%2e", "%00", "..", ".", "%ZZ", "a%2Fb", "%E0%A4%A"),
    fc.constantFrom(...other).map((p) => newId(p)),
    fc.constant(newId(prefix)),
    fc.constant(`${prefix}_${"0".repeat(41)}`),
    fc.constant(`${prefix}_${"0".repeat(9)}`),
    fc.constant(newId(prefix).toUpperCase()),
    fc.constant(`${newId(prefix)}x`.repeat(2)),
  );
}

/** The id prefix a path parameter's pattern demands (`^art_…` → `art`); undefined when it is not an id. */
export function prefixOf(op: DocumentedOperation, name: string): string | undefined {
  const param = parameters(op, "path").find((p) => p.name === name);
  const pattern = param?.schema ? resolve(param.schema).pattern : undefined;
  return pattern ? /^\^([a-z]+)_/.exec(pattern)?.[1] : undefined;
}

export function pathRequests(op: DocumentedOperation, ctx: Context): fc.Arbitrary<GeneratedRequest> {
  const names = Object.keys(ctx.ids);
  const segments = fc.record(
    Object.fromEntries(
      names.map((name) => [
        name,
        fc.oneof(fc.constant(encodeURIComponent(ctx.ids[name]!)), hostileSegment(prefixOf(op, name) ?? "x")),
      ]),
    ),
  );
  const body = bodySchema(op) ? ctx.base.map((b) => toJson(b)) : fc.constant(undefined);
  return fc.tuple(segments, body).map(([segs, body]) =>
    generated({
      path: pathWith(op, segs as Record<string, string>),
      headers: withCredential(body === undefined ? {} : { "content-type": "application/json" }, ctx),
      ...(body === undefined ? {} : { body }),
    }),
  );
}

export function credentialKind(op: DocumentedOperation): "key" | "session" | "publishable" | "none" {
  const schemes = (op.operation.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes("bearerAuth")) return "key";
  if (schemes.includes("sessionCookie")) return "session";
  if (schemes.includes("publishableToken")) return "publishable";
  return "none";
}
