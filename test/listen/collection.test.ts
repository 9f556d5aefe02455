import { readFileSync } from "node:fs";
import { Collection, type Item } from "postman-collection";
import { beforeAll, describe, expect, inject, it } from "vitest";

/**
 * The committed Postman collection (clients/postman/, `npm run collection:generate`) read by Postman's own
 * collection library, against the OpenAPI document the API Worker under `wrangler dev` serves (the live stack of
 * test/browser/global-setup.ts): one request per operation, in its tag's folder, with the document's example
 * bodies; and two of its requests sent as they stand, with the variables filled in, in the suite's gallery.
 */

const { api, secretKey } = inject("listen");
const COLLECTION = "clients/postman/gallery-platform.postman_collection.json";
const METHODS = ["get", "post", "put", "patch", "delete"];

interface Operation {
  operationId: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
}

let document: { paths: Record<string, Record<string, Operation>> };
let collection: Collection;
const requests = new Map<string, Item>();

/** `METHOD /path/{param}`, the document's spelling, for a request of the collection. */
function key(item: Item): string {
  const path = item.request.url.getPath(true).replace(/\/:([^/]+)/g, "/{$1}");
  return `${item.request.method} ${path}`;
}

function send(item: Item, variables: Record<string, string>, token: string): Promise<Response> {
  const fill = (s: string) => s.replace(/\{\{(\w+)\}\}/g, (_, name: string) => variables[name] ?? "");
  const path = item.request.url
    .getPath(true)
    .replace(/\/:([^/]+)/g, (_, name: string) => `/${encodeURIComponent(variables[name] ?? "")}`);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  for (const header of item.request.headers.all()) {
    if (!header.disabled) headers[header.key] = fill(header.value);
  }
  const body = item.request.body?.raw;
  return fetch(`${variables.baseUrl}${path}`, { method: item.request.method, headers, body });
}

beforeAll(async () => {
  document = (await (await fetch(`${api}/openapi.json`)).json()) as typeof document;
  collection = new Collection(JSON.parse(readFileSync(COLLECTION, "utf8")));
  collection.forEachItem((item) => {
    expect(requests.has(key(item)), `${key(item)} appears once`).toBe(false);
    requests.set(key(item), item);
  });
});

describe("the Postman collection", () => {
  it("has one request per operation of the served document, in the folder of the operation's tag", () => {
    const operations: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const name = `${method.toUpperCase()} ${path}`;
        operations.push(name);
        const request = requests.get(name);
        expect(request, name).toBeDefined();
        expect(request?.parent()?.name, name).toBe(operation.tags?.[0]);
      }
    }
    expect(operations.length).toBeGreaterThan(100);
    expect([...requests.keys()].sort()).toEqual(operations.sort());
  });

  it("carries the document's example bodies and sends `Bearer {{apiKey}}` against `{{baseUrl}}`", () => {
    const variables = Object.fromEntries(collection.variables.all().map((v) => [v.key, v.value]));
    expect(variables).toMatchObject({ baseUrl: "http://127.0.0.1:8787/v1", apiKey: "" });
    const auth = collection.auth?.toJSON() as { type: string; bearer: { key: string; value: string }[] };
    expect(auth.type).toBe("bearer");
    expect(auth.bearer).toContainEqual(expect.objectContaining({ key: "token", value: "{{apiKey}}" }));
    let examples = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const example = item[method]?.requestBody?.content?.["application/json"]?.example;
        if (example === undefined) continue;
        examples++;
        const raw = requests.get(`${method.toUpperCase()} ${path}`)?.request.body?.raw ?? "";
        expect(JSON.parse(raw), `${method} ${path}`).toEqual(example);
      }
    }
    expect(examples).toBeGreaterThan(50);
  });

  it("works as it stands against the live API once baseUrl and apiKey are set", async () => {
    const variables: Record<string, string> = { baseUrl: api, apiKey: secretKey };
    const create = requests.get("POST /gallery/artworks");
    if (!create) throw new Error("no request for POST /gallery/artworks");
    const created = await send(create, variables, secretKey);
    expect(created.status).toBe(201);
    const artwork = (await created.json()) as { id: string; title: string };
    expect(JSON.parse(create.request.body?.raw ?? "{}")).toMatchObject({ title: artwork.title });

    const retrieve = requests.get("GET /gallery/artworks/{id}");
    if (!retrieve) throw new Error("no request for GET /gallery/artworks/{id}");
    const read = await send(retrieve, { ...variables, id: artwork.id }, secretKey);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { id: string }).id).toBe(artwork.id);
  });
});
