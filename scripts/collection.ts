import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "./openapi-document";

/**
 * The Postman collection (format v2.1.0, one JSON file) generated from the OpenAPI document the Worker serves:
 * one request per operation, in one folder per tag, in the document's order. Variables: `baseUrl` (the local
 * stack's http://127.0.0.1:8787/v1 by default) and `apiKey` (empty: paste the secret key `npm start` prints), sent
 * as `Authorization: Bearer {{apiKey}}` by the collection's auth; operations that take no credential say `noauth`,
 * and those that take only a publishable token use `{{publishableToken}}`. Request bodies are the document's
 * examples; path parameters carry their examples and query parameters are listed, disabled unless required.
 *
 * `npm run collection:generate` writes the file; `--check` (part of `npm run check`) fails when the committed
 * file differs from what the current document generates. Offline: the document is built in-process.
 */
const COLLECTION_PATH = fileURLToPath(
  new URL("../clients/postman/gallery-platform.postman_collection.json", import.meta.url),
);

const SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const LOCAL_BASE_URL = "http://127.0.0.1:8787/v1";
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface Schema {
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  example?: unknown;
  schema?: Schema;
}

interface MediaType {
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  security?: Record<string, string[]>[];
}

interface Document {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
}

interface KeyValue {
  key: string;
  value: string;
  description?: string;
  disabled?: boolean;
  type?: string;
}

type Auth = { type: "noauth" } | { type: "bearer"; bearer: KeyValue[] };

interface PostmanRequest {
  name: string;
  request: {
    method: string;
    header: KeyValue[];
    url: { raw: string; host: string[]; path: string[]; query?: KeyValue[]; variable?: KeyValue[] };
    body?:
      | { mode: "raw"; raw: string; options: { raw: { language: "json" } } }
      | { mode: "file"; file: { src: string } };
    auth?: Auth;
    description?: string;
  };
}

interface Folder {
  name: string;
  item: PostmanRequest[];
}

interface PostmanCollection {
  info: { name: string; description: string; schema: string };
  auth: Auth;
  variable: KeyValue[];
  item: Folder[];
}

const bearer = (variable: string): Auth => ({
  type: "bearer",
  bearer: [{ key: "token", value: `{{${variable}}}`, type: "string" }],
});

/** A parameter's example as text: its own, its schema's, else its default or first enum value, else empty. */
function exampleText(parameter: Parameter): string {
  const value =
    parameter.example ??
    parameter.schema?.example ??
    parameter.schema?.default ??
    parameter.schema?.enum?.[0];
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `noauth` for public operations, the publishable token where only it is taken; else the collection's auth. */
function operationAuth(operation: Operation): Auth | undefined {
  const security = operation.security;
  if (security === undefined) return undefined;
  if (security.length === 0) return { type: "noauth" };
  const schemes = security.flatMap((requirement) => Object.keys(requirement));
  if (schemes.length > 0 && schemes.every((s) => s === "publishableToken")) return bearer("publishableToken");
  return undefined;
}

function body(operation: Operation): { header: KeyValue[]; body: PostmanRequest["request"]["body"] } | null {
  const content = operation.requestBody?.content;
  if (!content) return null;
  const json = content["application/json"];
  if (json) {
    const example = json.example ?? Object.values(json.examples ?? {})[0]?.value;
    return {
      header: [{ key: "Content-Type", value: "application/json" }],
      body: {
        mode: "raw",
        raw: example === undefined ? "{}" : JSON.stringify(example, null, 2),
        options: { raw: { language: "json" } },
      },
    };
  }
  // Binary uploads (the bytes of an image): the file is chosen in Postman.
  const type = Object.keys(content)[0];
  if (!type) return null;
  return { header: [{ key: "Content-Type", value: type }], body: { mode: "file", file: { src: "" } } };
}

function request(path: string, method: string, operation: Operation): PostmanRequest {
  const parameters = operation.parameters ?? [];
  const segments = path
    .split("/")
    .filter((s) => s !== "")
    .map((s) => s.replace(/^\{(.+)\}$/, ":$1"));
  const variable = parameters
    .filter((p) => p.in === "path")
    .map((p) => ({
      key: p.name,
      value: exampleText(p),
      ...(p.description ? { description: p.description } : {}),
    }));
  const query = parameters
    .filter((p) => p.in === "query")
    .map((p) => ({
      key: p.name,
      value: exampleText(p),
      ...(p.description ? { description: p.description } : {}),
      ...(p.required ? {} : { disabled: true }),
    }));
  const header = parameters
    .filter((p) => p.in === "header")
    .map((p) => ({
      key: p.name,
      // A fresh key per send: Postman's dynamic variable.
      value: p.name.toLowerCase() === "idempotency-key" ? "{{$guid}}" : exampleText(p),
      ...(p.description ? { description: p.description } : {}),
      ...(p.required ? {} : { disabled: true }),
    }));
  const sent = body(operation);
  const enabledQuery = query.filter((q) => !q.disabled);
  const raw = `{{baseUrl}}/${segments.join("/")}${
    enabledQuery.length > 0 ? `?${enabledQuery.map((q) => `${q.key}=${q.value}`).join("&")}` : ""
  }`;
  const auth = operationAuth(operation);
  return {
    name: operation.summary ?? operation.operationId ?? `${method.toUpperCase()} ${path}`,
    request: {
      method: method.toUpperCase(),
      header: [...(sent?.header ?? []), ...header],
      url: {
        raw,
        host: ["{{baseUrl}}"],
        path: segments,
        ...(query.length > 0 ? { query } : {}),
        ...(variable.length > 0 ? { variable } : {}),
      },
      ...(sent?.body ? { body: sent.body } : {}),
      ...(auth ? { auth } : {}),
      ...(operation.description ? { description: operation.description } : {}),
    },
  };
}

function buildCollection(document: Document): PostmanCollection {
  const folders = new Map<string, Folder>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "Other";
      let folder = folders.get(tag);
      if (!folder) {
        folder = { name: tag, item: [] };
        folders.set(tag, folder);
      }
      folder.item.push(request(path, method, operation));
    }
  }
  return {
    info: {
      name: document.info.title,
      description: [
        `Generated from the OpenAPI document (version ${document.info.version}) by \`npm run collection:generate\`; do not edit by hand.`,
        `Set \`baseUrl\` (default: the local stack of \`npm start\`, ${LOCAL_BASE_URL}) and \`apiKey\` (a secret key \`gpk_…\`, sent as \`Authorization: Bearer\`); \`publishableToken\` (\`gpub_…\`) serves the public viewing-room reads.`,
      ].join("\n\n"),
      schema: SCHEMA,
    },
    auth: bearer("apiKey"),
    variable: [
      { key: "baseUrl", value: LOCAL_BASE_URL, type: "string" },
      { key: "apiKey", value: "", type: "string" },
      { key: "publishableToken", value: "", type: "string" },
    ],
    item: [...folders.values()],
  };
}

const generated = `${JSON.stringify(buildCollection((await openApiDocument()) as Document), null, 2)}\n`;

if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(COLLECTION_PATH, "utf8");
  } catch {
    // Missing: reported below as out of date.
  }
  if (committed !== generated) {
    console.error(
      "clients/postman/gallery-platform.postman_collection.json is out of date with the OpenAPI document: run `npm run collection:generate` and commit it.",
    );
    process.exit(1);
  }
  console.log("clients/postman/gallery-platform.postman_collection.json matches the OpenAPI document.");
} else {
  mkdirSync(dirname(COLLECTION_PATH), { recursive: true });
  writeFileSync(COLLECTION_PATH, generated);
  console.log(`wrote ${COLLECTION_PATH} (${generated.length} characters)`);
}
