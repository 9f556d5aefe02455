import { exports } from "cloudflare:workers";
import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";

/**
 * The OpenAPI document the Worker serves, and validators compiled from it. `call()` runs every response through
 * `validateResponse`, so a test fails as soon as behaviour and document disagree.
 */

export type JsonSchema = Schema & Record<string, unknown>;

export interface MediaObject {
  schema?: JsonSchema;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaObject>;
}

export interface ParameterObject {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

export interface OperationObject {
  operationId: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaObject> };
  responses: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

/** One operation of the document, with its method and path template. */
export interface DocumentedOperation {
  method: string;
  path: string;
  operation: OperationObject;
}

let loaded: OpenApiDocument | undefined;

/**
 * Fetched once through the Worker, as a client would. Only the parsed document is kept (not a promise): workerd
 * does not let one test's request context await I/O begun in another's.
 */
export async function openApiDocument(): Promise<OpenApiDocument> {
  if (!loaded) {
    const response = await exports.default.fetch(new Request("https://api.test/v1/openapi.json"));
    if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
    loaded = (await response.json()) as OpenApiDocument;
  }
  return loaded;
}

export function documentedOperations(doc: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => ({
      method: m.toUpperCase(),
      path,
      operation: item[m] as OperationObject,
    })),
  );
}

const validators = new WeakMap<object, Validator>();

function resolveRef(components: OpenApiDocument["components"], schema: JsonSchema): JsonSchema {
  const name = typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined;
  return (name && components.schemas[name]) || schema;
}

/**
 * Closes every object schema that does not say otherwise (`additionalProperties: false`), so a response field
 * the document does not describe fails too. zod leaves response objects open; a closed `allOf` branch would
 * reject its siblings' fields, so an `allOf` of objects is merged into one object first. Mutates `schema`.
 */
function closeObjects(schema: unknown, components: OpenApiDocument["components"]): void {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return;
  const node = schema as JsonSchema;
  if (Array.isArray(node.allOf)) {
    const branches = node.allOf.map((b) => resolveRef(components, b as JsonSchema));
    if (branches.every((b) => b.type === "object" && b.properties)) {
      node.type = "object";
      node.properties = Object.assign({}, ...branches.map((b) => structuredClone(b.properties)));
      node.required = [...new Set(branches.flatMap((b) => b.required ?? []))];
      delete node.allOf;
    }
  }
  if (node.properties && node.additionalProperties === undefined && node.patternProperties === undefined) {
    node.additionalProperties = false;
  }
  for (const key of ["properties", "patternProperties", "$defs"] as const) {
    for (const sub of Object.values(node[key] ?? {})) closeObjects(sub, components);
  }
  for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"] as const) {
    for (const sub of (node[key] as unknown[] | undefined) ?? []) closeObjects(sub, components);
  }
  for (const key of ["items", "additionalProperties", "not", "if", "then", "else"] as const) {
    closeObjects(node[key], components);
  }
}

let closedComponents: OpenApiDocument["components"] | undefined;

/**
 * A validator for one (response) schema of the document, with every object closed (see `closeObjects`).
 * `#/components/schemas/…` references resolve because the components are carried inside the compiled schema
 * (JSON Schema ignores the unknown `components` keyword, and the dereferencer indexes it by JSON pointer).
 */
export function validatorFor(doc: OpenApiDocument, schema: JsonSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    if (!closedComponents) {
      const components = structuredClone(doc.components);
      for (const sub of Object.values(components.schemas)) closeObjects(sub, components);
      closedComponents = components;
    }
    const root = structuredClone(schema);
    closeObjects(root, closedComponents);
    validator = new Validator(
      { ...root, components: structuredClone(closedComponents) } as Schema,
      "2020-12",
      false,
    );
    validators.set(schema, validator);
  }
  return validator;
}

/** A validator for a request schema exactly as documented (objects stay as open as the document says). */
const requestValidators = new WeakMap<object, Validator>();

export function requestValidatorFor(doc: OpenApiDocument, schema: JsonSchema): Validator {
  let validator = requestValidators.get(schema);
  if (!validator) {
    validator = new Validator(
      { ...structuredClone(schema), components: structuredClone(doc.components) } as Schema,
      "2020-12",
      true,
    );
    requestValidators.set(schema, validator);
  }
  return validator;
}

const componentRefs = new Map<string, JsonSchema>();

/** A validator for `#/components/schemas/<name>`. */
export async function componentValidator(name: string): Promise<Validator> {
  const doc = await openApiDocument();
  let ref = componentRefs.get(name);
  if (!ref) {
    if (!doc.components.schemas[name]) throw new Error(`no component schema ${name}`);
    ref = { $ref: `#/components/schemas/${name}` };
    componentRefs.set(name, ref);
  }
  return validatorFor(doc, ref);
}

/** Validator errors as one line each (the leaf errors only; the summary units repeat them). */
export function describeErrors(errors: OutputUnit[]): string {
  const leaves = errors.filter((e) => !/^(Property|Items|Item at index|A subschema)/.test(e.error));
  return (leaves.length ? leaves : errors)
    .slice(0, 12)
    .map((e) => `  ${e.instanceLocation} ${e.keyword}: ${e.error}`)
    .join("\n");
}

function templatePattern(template: string): RegExp {
  const source = template
    .split("/")
    .map((segment) =>
      /^\{[^}]+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  return new RegExp(`^${source}$`);
}

const patterns = new Map<string, RegExp>();

/** The document's path template matching a concrete path; literal segments win over `{param}` ones. */
export function matchPath(doc: OpenApiDocument, path: string): string | undefined {
  const templates = Object.keys(doc.paths).sort(
    (a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0),
  );
  return templates.find((template) => {
    let pattern = patterns.get(template);
    if (!pattern) {
      pattern = templatePattern(template);
      patterns.set(template, pattern);
    }
    return pattern.test(path);
  });
}

/** `/gallery/artworks?x=1`, `/v1/gallery/artworks` or a full URL → `/gallery/artworks`. */
function apiPath(path: string): string {
  // Resolved as the request's URL is (dot segments such as `/./` removed), so the template matched is the one
  // the server saw: `/webhook-endpoints/./test` reaches `/webhook-endpoints/{id}`, not `…/{id}/test`.
  const url = /^https?:\/\//.test(path) ? path : `https://api.test${path.split(/[?#]/)[0] ?? ""}`;
  const pathname = new URL(url).pathname;
  return pathname.startsWith("/v1/") ? pathname.slice(3) : pathname;
}

function mediaType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * Fails (throws) unless the response is one the document allows for this method and path: a documented status
 * (exact or `default`), the documented content type, and a body valid against that response's schema. A path
 * outside the document (the document itself, an unknown route) is not checked; a documented path with an
 * undocumented method must answer with a valid problem. The response's own body is left unread.
 */
export async function validateResponse(method: string, path: string, response: Response): Promise<void> {
  const doc = await openApiDocument();
  const concretePath = apiPath(path);
  const template = matchPath(doc, concretePath);
  if (!template) return;
  const verb = method.toUpperCase();
  if (verb === "HEAD" || verb === "OPTIONS") return;
  const where = `${verb} ${path} → ${response.status}`;
  const fail = (why: string): never => {
    throw new Error(`Response does not match the OpenAPI document: ${where}: ${why}`);
  };
  const operation = doc.paths[template]![verb.toLowerCase()];
  let documented: ResponseObject | undefined;
  if (operation) {
    documented = operation.responses[String(response.status)] ?? operation.responses.default;
    if (!documented) {
      fail(
        `status ${response.status} is not documented for ${operation.operationId} (documented: ${Object.keys(operation.responses).join(", ")})`,
      );
    }
  } else {
    if (response.status < 400 || response.status >= 500) {
      fail(`${template} has no ${verb} operation, yet the answer is not a 4xx problem`);
    }
    documented = {
      description: "undocumented method",
      content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
    };
  }
  const content = documented!.content ?? {};
  if (Object.keys(content).length === 0) {
    const text = await response.clone().text();
    if (text !== "") fail(`no body is documented, got ${text.slice(0, 200)}`);
    return;
  }
  const type = mediaType(response);
  // A media type range (`image/*`, `*/*`) documents every type it covers; the most specific key applies (OpenAPI 3.1).
  const media = content[type] ?? content[`${type.split("/")[0]}/*`] ?? content["*/*"];
  if (!media)
    fail(`content type "${type}" is not documented (documented: ${Object.keys(content).join(", ")})`);
  // A body of another type (a stored image) is only checked for its documented type.
  if (!media!.schema || !/^application\/([\w.-]+\+)?json$/.test(type)) return;
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail(`the body is not JSON: ${text.slice(0, 200)}`);
  }
  const result = validatorFor(doc, media!.schema).validate(body);
  if (!result.valid) {
    fail(
      `the body does not match its schema:\n${describeErrors(result.errors)}\nbody: ${text.slice(0, 1000)}`,
    );
  }
}
