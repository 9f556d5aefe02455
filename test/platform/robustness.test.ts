import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import worker from "../../functions/api";
import { MAX_BODY_BYTES } from "../../lib/app";
import { newId } from "../../lib/ids";
import { hashPassword } from "../../lib/password";
import { fixtureFor } from "../helpers/fixtures";
import { apiRequest, call, createGallery, db, type TestGallery } from "../helpers/gallery";
import {
  type DocumentedOperation,
  documentedOperations,
  type JsonSchema,
  matchPath,
  type OpenApiDocument,
  openApiDocument,
  requestValidatorFor,
  validateResponse,
} from "../helpers/openapi";
import { PROBLEM_FIELDS } from "../helpers/problem";

/**
 * Generated from the OpenAPI document: for every operation, fast-check sends malformed and edge requests
 * (query, path, body, content type, Idempotency-Key). Whatever the input: never a 5xx; every 4xx is a problem
 * with exactly the spec's fields and a matching `status`; a 2xx only when the input is valid per the document.
 * Every response is also checked against the document, as `call()` does. The seed is logged at start and printed by
 * fast-check on failure; `ROBUSTNESS_SEED=<seed> npx vitest run test/robustness.test.ts` replays the run.
 */

const configuredSeed = inject("robustnessSeed");
const seed = configuredSeed ? Number(configuredSeed) : Math.floor(Math.random() * 2 ** 31);
console.log(
  `robustness: fast-check seed ${seed} (replay: ROBUSTNESS_SEED=${seed} npx vitest run test/robustness.test.ts)`,
);

const RUNS = { query: 150, body: 150, raw: 60, path: 60 };
const TIMEOUT = 90_000;
/** Signing in derives a password hash for every well-formed attempt; fewer runs keep the file fast. */
const SLOW_OPERATIONS: Record<string, number> = { createSession: 0.5 };

const doc: OpenApiDocument = await openApiDocument();
const operations = documentedOperations(doc);
let sent = 0;

// ---------------------------------------------------------------------------------------------------------
// Values

/** A JSON number (or other literal) written exactly as given, e.g. `1e309` or `-0`, which JSON.stringify cannot. */
class Raw {
  constructor(readonly text: string) {}
}

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const LONG = "x".repeat(100_000);

/** Strings that are wrong for most parameters: numbers that are not, overflow, NaN-likes, odd spacing, junk. */
const hostileStrings = [
  "",
  " ",
  "0",
  "-1",
  "-0",
  "1.5",
  "1e1",
  " 5",
  "5 ",
  "+5",
  "0x10",
  "007",
  "9007199254740992",
  "9007199254740993",
  "99999999999999999999999",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "2024-02-30T00:00:00Z",
  "2024-01-01",
  "2024-01-01T25:00:00Z",
  "yesterday",
  "é😀",
  "\u0000",
  "a,b,,c",
  ",",
  "art_",
  "ART_01JD4XK9V2C7H8M3N5P6Q7R8S9",
  "evt_01jd4xk9v2c7h8m3n5p6q7r8s9",
  "art_01jd4xk9v2c7h8m3n5p6q7r8s9",
  "key_01jd4xk9v2c7h8m3n5p6q7r8s9",
  "' or 1=1 --",
  LONG,
];

const hostileJson: unknown[] = [
  new Raw("0"),
  new Raw("-0"),
  new Raw("-1"),
  new Raw("0.5"),
  new Raw("1e1"),
  new Raw("9007199254740992"),
  new Raw("9007199254740993"),
  new Raw("1e309"),
  new Raw("-1e309"),
  new Raw("1e-400"),
  true,
  false,
  null,
  [],
  {},
  [null],
  { a: 1 },
  "",
  " ",
  "NaN",
  "Infinity",
  " 5",
  "2024-02-30T00:00:00Z",
  "yesterday",
  "\u0000",
  "é😀",
  LONG,
];

function resolve(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === "string") {
    return resolve(doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]!);
  }
  return schema;
}

function types(schema: JsonSchema): string[] {
  const s = resolve(schema);
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.anyOf) return s.anyOf.flatMap((sub) => types(sub as JsonSchema));
  return [];
}

/** Values valid for a schema (kept small: the point is the hostile ones mixed in). */
function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf) return fc.oneof(...s.anyOf.map((sub) => validValue(sub as JsonSchema)));
  const options = types(s).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return fc.integer({ min: Math.max(s.minimum ?? -1e6, -1e6), max: Math.min(s.maximum ?? 1e6, 1e6) });
      case "number":
        return fc.double({
          min: Math.max(s.minimum ?? -1e6, -1e6),
          max: Math.min(s.maximum ?? 1e6, 1e6),
          noNaN: true,
          noDefaultInfinity: true,
        });
      case "array": {
        const items = validValue((s.items as JsonSchema | undefined) ?? {});
        return fc.array(items, { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
      }
      case "object": {
        if (!s.properties) {
          const value = s.additionalProperties && typeof s.additionalProperties === "object";
          return value
            ? fc.dictionary(
                fc.string({ minLength: 1, maxLength: 10 }),
                validValue(s.additionalProperties as JsonSchema),
                {
                  maxKeys: 3,
                },
              )
            : fc.constant({});
        }
        const props = Object.fromEntries(
          Object.entries(s.properties).map(([k, v]) => [k, validValue(v as JsonSchema)]),
        );
        return fc.record(props, { requiredKeys: (s.required ?? []) as never[] });
      }
      default: {
        if (s.format === "date-time") {
          return fc
            .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
            .map((d) => d.toISOString());
        }
        const max = Math.min(s.maxLength ?? 20, 20);
        if (s.pattern) {
          return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 1e9));
        }
        return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.max(max, s.minLength ?? 0) });
      }
    }
  });
  return options.length ? fc.oneof(...options) : fc.jsonValue();
}

/** A value that is probably wrong for this schema: another type, a boundary, too long, a bad enum member. */
function hostileValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const specific: unknown[] = [];
  if (s.maxLength !== undefined) specific.push("y".repeat(s.maxLength + 1));
  if (s.enum) specific.push(`${s.enum[0]}_not`, String(s.enum[0]).toUpperCase(), ` ${s.enum[0]}`);
  if (s.maximum !== undefined) specific.push(new Raw(String(s.maximum + 1)));
  if (s.minimum !== undefined) specific.push(new Raw(String(s.minimum - 1)));
  if (s.minItems !== undefined) specific.push([]);
  return fc.oneof(
    fc.constantFrom(...hostileJson),
    fc.constantFrom(...(specific.length ? specific : [null])),
    fc.jsonValue({ maxDepth: 2 }),
  );
}

function hostileParam(schema: JsonSchema): fc.Arbitrary<string> {
  const s = resolve(schema);
  const item = s.type === "array" ? resolve((s.items as JsonSchema | undefined) ?? {}) : s;
  const specific: string[] = [];
  if (item.maxLength !== undefined) specific.push("y".repeat(item.maxLength + 1));
  if (item.enum) specific.push(`${item.enum[0]}_not`, String(item.enum[0]).toUpperCase(), ` ${item.enum[0]}`);
  if (item.maximum !== undefined) specific.push(String(item.maximum + 1));
  if (item.minimum !== undefined) specific.push(String(item.minimum - 1));
  return fc.oneof(
    fc.constantFrom(...hostileStrings),
    fc.constantFrom(...(specific.length ? specific : ["-"])),
    fc.string({ maxLength: 12 }),
  );
}

/** A query value written the canonical way for its schema (numbers in decimal, booleans as true/false). */
function validParam(schema: JsonSchema): fc.Arbitrary<string> {
  const s = resolve(schema);
  const item = s.type === "array" ? ((s.items as JsonSchema | undefined) ?? {}) : s;
  return validValue(item).map((v) => (typeof v === "string" ? v : toJson(v)));
}

// ---------------------------------------------------------------------------------------------------------
// Validity per the document (the judge for 2xx answers)

function parameters(op: DocumentedOperation, where: "query" | "path" | "header") {
  return (op.operation.parameters ?? []).filter((p) => p.in === where);
}

/** A query string value read as the JSON value its schema describes, or undefined when it cannot be one. */
function coerce(value: string, schema: JsonSchema): unknown {
  const t = types(schema);
  if (t.includes("string")) return value;
  if (t.includes("integer")) return /^-?(0|[1-9]\d*)$/.test(value) ? Number(value) : undefined;
  if (t.includes("number")) return /^-?(0|[1-9]\d*)(\.\d+)?$/.test(value) ? Number(value) : undefined;
  if (t.includes("boolean")) return value === "true" ? true : value === "false" ? false : undefined;
  return undefined;
}

function validAgainst(schema: JsonSchema, value: unknown): boolean {
  return value !== undefined && requestValidatorFor(doc, schema).validate(value).valid;
}

function queryIsValid(op: DocumentedOperation, url: URL): boolean {
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

function pathIsValid(op: DocumentedOperation, url: URL): boolean {
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

function bodySchema(op: DocumentedOperation): JsonSchema | undefined {
  return op.operation.requestBody?.content["application/json"]?.schema;
}

function bodyIsValid(op: DocumentedOperation, request: GeneratedRequest): boolean {
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

function headersAreValid(request: GeneratedRequest): boolean {
  const key = new Headers(request.headers).get("idempotency-key");
  return key === null || /^[\x21-\x7e]{1,255}$/.test(key);
}

// ---------------------------------------------------------------------------------------------------------
// Requests

interface GeneratedRequest {
  /** Path under /v1 with its query string. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

function short(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…(${value.length} chars)` : value;
}

function generated(request: GeneratedRequest): GeneratedRequest {
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

interface Context {
  credential?: string;
  /** Path parameter name → an id of a real resource of the test gallery. */
  ids: Record<string, string>;
  /** A body the operation accepts, as a base for single-field mutations. */
  base: fc.Arbitrary<Record<string, unknown>>;
}

function pathWith(op: DocumentedOperation, segments: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => segments[name]!);
}

const queryPairs = (op: DocumentedOperation): fc.Arbitrary<[string, string][]> => {
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

function queryString(pairs: [string, string][]): string {
  const qs = new URLSearchParams(pairs).toString();
  return qs ? `?${qs}` : "";
}

const rawQueries = ["?", "?&&", "?=1", "?limit", "?limit=%ZZ", "?%", "?limit=1&&&", "?a=%00", "?q=%E0%A4%A"];

const idempotencyKeys = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.uuid().map((u) => `k-${u}`) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "a b", "é", "k".repeat(256), "k".repeat(255), "\t") },
);

function withKey(headers: Record<string, string>, key: string | undefined, op: DocumentedOperation) {
  const documented = parameters(op, "header").some((p) => p.name.toLowerCase() === "idempotency-key");
  // A fresh key per request: a reused key with another body is a (correct) 400, not what this checks.
  if (documented && key !== undefined)
    headers["Idempotency-Key"] = key.startsWith("k-") ? `k-${crypto.randomUUID()}` : key;
  return headers;
}

function withCredential(headers: Record<string, string>, ctx: Context) {
  if (ctx.credential) headers.authorization = `Bearer ${ctx.credential}`;
  return headers;
}

function validSegments(ctx: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(ctx.ids).map(([k, v]) => [k, encodeURIComponent(v)]));
}

function queryRequests(op: DocumentedOperation, ctx: Context): fc.Arbitrary<GeneratedRequest> {
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
function asObject(body: unknown): Record<string, unknown> {
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function bodyRequests(
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

const invalidJson = [
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

function rawRequests(op: DocumentedOperation, ctx: Context): fc.Arbitrary<GeneratedRequest> {
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

function oversizeRequest(op: DocumentedOperation, ctx: Context): GeneratedRequest {
  const filler = "z".repeat(MAX_BODY_BYTES);
  return generated({
    path: pathWith(op, validSegments(ctx)),
    headers: withCredential({ "content-type": "application/json" }, ctx),
    body: `{"title":"${filler}"}`,
  });
}

/** URL-encoded path segments that are not ids of this gallery. */
function hostileSegment(prefix: string): fc.Arbitrary<string> {
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
function prefixOf(op: DocumentedOperation, name: string): string | undefined {
  const param = parameters(op, "path").find((p) => p.name === name);
  const pattern = param?.schema ? resolve(param.schema).pattern : undefined;
  return pattern ? /^\^([a-z]+)_/.exec(pattern)?.[1] : undefined;
}

function pathRequests(op: DocumentedOperation, ctx: Context): fc.Arbitrary<GeneratedRequest> {
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

// ---------------------------------------------------------------------------------------------------------
// The property

/**
 * `call()` without `exports.default`: the pool's entrypoint wrapper nests one more Proxy around its prototype on
 * every call (@cloudflare/vitest-pool-workers 0.15.1, createProxyPrototypeClass), so a few thousand calls in
 * one file get slower each time and end in "Maximum call stack size exceeded". The same Worker handler, the
 * same request, the same response validation.
 */
async function send(method: string, path: string, request: GeneratedRequest): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    apiRequest(method, path, { headers: request.headers, rawBody: request.body }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  await validateResponse(method, path, response);
  return response;
}

async function expectRobust(op: DocumentedOperation, request: GeneratedRequest): Promise<void> {
  sent++;
  const url = new URL(`https://api.test/v1${request.path}`);
  // send() throws unless the response matches the document (documented status, content type and schema).
  const response = await send(op.method, request.path, request);
  const text = await response.text();
  const what = `${op.method} ${short(request.path)} → ${response.status} ${short(text)}`;
  expect(response.status, what).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.headers.get("content-type"), what).toBe("application/problem+json");
    const problem = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(problem).sort(), what).toEqual(PROBLEM_FIELDS);
    expect(problem.status, what).toBe(response.status);
  } else {
    const valid =
      pathIsValid(op, url) && queryIsValid(op, url) && bodyIsValid(op, request) && headersAreValid(request);
    expect(valid, `a ${response.status} for input the document calls invalid: ${what}`).toBe(true);
  }
}

function credentialKind(op: DocumentedOperation): "key" | "session" | "none" {
  const schemes = (op.operation.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes("bearerAuth")) return "key";
  if (schemes.includes("sessionCookie")) return "session";
  return "none";
}

async function sessionToken(galleryId: string): Promise<string> {
  const id = newId("mem");
  const password = `pw-${crypto.randomUUID()}`;
  await db().execute(sql`insert into members (id, gallery_id, email, name, role, password_hash)
    values (${id}, ${galleryId}, ${`${id}@gallery.example`}, 'Robust', 'editor', ${await hashPassword(password)})`);
  const response = await call("POST", "/auth/sessions", {
    body: { email: `${id}@gallery.example`, password },
  });
  return ((await response.json()) as { token: string }).token;
}

async function contextFor(op: DocumentedOperation, gallery: TestGallery): Promise<Context> {
  const ids: Record<string, string> = {};
  for (const p of parameters(op, "path")) {
    const prefix = prefixOf(op, p.name);
    // A path parameter that is not an id (an error code) gets a value valid for its schema.
    ids[p.name] = prefix
      ? await fixtureFor(prefix)(gallery)
      : String(fc.sample(validValue(p.schema ?? {}), { numRuns: 1, seed })[0]);
  }
  const kind = credentialKind(op);
  const credential =
    kind === "key" ? gallery.key : kind === "session" ? await sessionToken(gallery.id) : undefined;
  const schema = bodySchema(op);
  const base = schema ? (validValue(schema) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({});
  return { ids, base, ...(credential ? { credential } : {}) };
}

function runs(op: DocumentedOperation, n: number): number {
  return Math.max(5, Math.round(n * (SLOW_OPERATIONS[op.operation.operationId] ?? 1)));
}

const options = (numRuns: number) => ({ numRuns, seed, endOnFailure: false });

/**
 * Every query parameter alone with every hostile string, and every body field of a valid body with every
 * hostile JSON value: exhaustive where the random search above is sparse.
 */
function sweep(op: DocumentedOperation, ctx: Context): GeneratedRequest[] {
  const path = pathWith(op, validSegments(ctx));
  const schema = bodySchema(op);
  const base = schema ? fc.sample(ctx.base, { numRuns: 1, seed })[0]! : undefined;
  const headers = withCredential(schema ? { "content-type": "application/json" } : {}, ctx);
  const body = base ? toJson(base) : undefined;
  const requests: GeneratedRequest[] = [];
  for (const p of parameters(op, "query")) {
    for (const value of [
      ...hostileStrings,
      ...fc.sample(hostileParam(p.schema ?? {}), { numRuns: 5, seed }),
    ]) {
      requests.push(
        generated({ path: `${path}${queryString([[p.name, value]])}`, headers, ...(body ? { body } : {}) }),
      );
    }
  }
  if (schema && base) {
    for (const field of Object.keys(resolve(schema).properties ?? {})) {
      const fieldSchema = (resolve(schema).properties![field] as JsonSchema) ?? {};
      for (const value of [...hostileJson, ...fc.sample(hostileValue(fieldSchema), { numRuns: 5, seed })]) {
        requests.push(generated({ path, headers, body: toJson({ ...base, [field]: value }) }));
      }
    }
  }
  return requests;
}

describe("generated robustness (from the OpenAPI document)", () => {
  let gallery: TestGallery;
  const started = Date.now();
  beforeAll(async () => {
    gallery = await createGallery();
  });

  it("covers every documented operation", () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  describe.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", (_, op) => {
    let ctx: Context;
    beforeAll(async () => {
      ctx = await contextFor(op, gallery);
    });

    it(
      "query parameters: wrong types, boundaries, overflow, repeated, empty, unknown",
      async () => {
        await fc.assert(
          fc.asyncProperty(queryRequests(op, ctx), (r) => expectRobust(op, r)),
          options(runs(op, RUNS.query)),
        );
      },
      TIMEOUT,
    );

    it(
      "every parameter and body field against every hostile value",
      async () => {
        const failures: string[] = [];
        for (const request of sweep(op, ctx)) {
          try {
            await expectRobust(op, request);
          } catch (error) {
            failures.push(String(error).slice(0, 600));
          }
        }
        expect(failures.slice(0, 5), `${failures.length} failing requests`).toEqual([]);
      },
      TIMEOUT,
    );

    it.runIf(parameters(op, "path").length > 0)(
      "path ids: malformed, of another prefix, unknown",
      async () => {
        await fc.assert(
          fc.asyncProperty(pathRequests(op, ctx), (r) => expectRobust(op, r)),
          options(runs(op, RUNS.path)),
        );
      },
      TIMEOUT,
    );

    it.runIf(bodySchema(op) !== undefined)(
      "body fields: wrong types, boundaries, too long, missing, extra",
      async () => {
        await fc.assert(
          fc.asyncProperty(bodyRequests(op, ctx, bodySchema(op)!), (r) => expectRobust(op, r)),
          options(runs(op, RUNS.body)),
        );
      },
      TIMEOUT,
    );

    it.runIf(bodySchema(op) !== undefined)(
      "raw bodies: invalid JSON, wrong content types, oversize",
      async () => {
        await fc.assert(
          fc.asyncProperty(rawRequests(op, ctx), (r) => expectRobust(op, r)),
          options(runs(op, RUNS.raw)),
        );
        const oversize = oversizeRequest(op, ctx);
        const response = await send(op.method, oversize.path, oversize);
        sent++;
        expect(response.status).toBe(413);
        expect(((await response.json()) as { code: string }).code).toBe("payload_too_large");
        if (op.operation.requestBody?.required) {
          // No body at all (no bytes, no Content-Type) is not an empty object: 400, not a no-op update.
          const path = pathWith(op, validSegments(ctx));
          const none = await send(
            op.method,
            path,
            generated({ path, headers: withCredential({}, ctx), body: new Uint8Array() }),
          );
          sent++;
          expect(none.status).toBe(400);
        }
      },
    );
  });

  it("reports how much was sent", () => {
    console.log(
      `robustness: ${sent} generated requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${seed})`,
    );
    expect(sent).toBeGreaterThan(1000);
  });
});
