/**
 * How much of the OpenAPI document says what its parameters and fields mean: counts the operations' parameters
 * and the schema fields (component and inline properties, request and response) without a description, and
 * lists the most frequent missing field names. `npm run openapi:descriptions [-- path/to/openapi.json]`.
 */
import { readFileSync } from "node:fs";
import { createApiApp } from "../functions/api";

type Node = Record<string, unknown>;

async function loadDocument(path: string | undefined): Promise<Node> {
  if (path) return JSON.parse(readFileSync(path, "utf8")) as Node;
  const env = {
    PUBLIC_BASE_URL: "https://api.gallery-platform.example",
    DATABASE_URL: "x",
    SIGNING_SECRET: "x",
  };
  return (await (await createApiApp().request("http://localhost/v1/openapi.json", {}, env)).json()) as Node;
}

const doc = await loadDocument(process.argv[2]);
let params = 0;
let paramsMissing = 0;
let fields = 0;
let fieldsMissing = 0;
const missingNames = new Map<string, number>();

const described = (schema: Node | undefined) =>
  Boolean(
    schema && (schema.description || (typeof schema.$ref === "string" && schema.description !== undefined)),
  );

function walk(node: unknown): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) walk(item);
    return;
  }
  const n = node as Node;
  if (n.properties && typeof n.properties === "object") {
    for (const [name, sub] of Object.entries(n.properties as Record<string, Node>)) {
      fields++;
      if (!described(sub)) {
        fieldsMissing++;
        missingNames.set(name, (missingNames.get(name) ?? 0) + 1);
      }
    }
  }
  for (const value of Object.values(n)) walk(value);
}

for (const item of Object.values((doc.paths ?? {}) as Record<string, Node>)) {
  for (const op of Object.values(item) as Node[]) {
    for (const p of (op.parameters ?? []) as Node[]) {
      params++;
      if (!p.description && !(p.schema as Node | undefined)?.description) paramsMissing++;
    }
  }
}
walk(doc.paths);
walk(doc.webhooks);
walk((doc.components as Node | undefined)?.schemas);

const pct = (missing: number, total: number) => `${(((total - missing) / total) * 100).toFixed(1)} %`;
console.log(`parameters: ${params - paramsMissing} of ${params} described (${pct(paramsMissing, params)})`);
console.log(
  `schema fields: ${fields - fieldsMissing} of ${fields} described (${pct(fieldsMissing, fields)})`,
);
const top = [...missingNames.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30));
console.log(
  `most frequent undescribed fields: ${top.map(([name, count]) => `${name} (${count})`).join(", ")}`,
);
