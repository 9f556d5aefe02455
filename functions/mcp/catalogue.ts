import { DRY_RUN_PARAM } from "../../http/dry-run";
import { type OperationEntry, operationRegistry } from "../../http/operation";
import { sha256Hex } from "../../lib/crypto";
import type { JsonSchema } from "../../lib/openapi-examples";
import {
  BODY_ARGUMENT,
  CONFIRM_ARGUMENT,
  IDEMPOTENCY_ARGUMENT,
  MCP_CREDENTIALS,
  type OpenApiDocument,
  type Tool,
} from "./tools";

/**
 * The tools' catalogue, built by the API Worker (whose registry and document describe the operations) and handed
 * to the MCP Worker (worker.ts) over the service binding: one tool per operation a secret key or a member
 * session can call, its input schema standing alone.
 */

interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}

/** `#/components/schemas/Name` → Name. */
const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/**
 * A schema with every `$ref` to a component replaced by the component itself: a tool's input schema stands alone
 * (an MCP client has no document to resolve references against). A schema that refers to itself would never end,
 * so it is refused when the tools are built, naming the operation.
 */
function inlined(
  node: unknown,
  components: Record<string, JsonSchema>,
  operationId: string,
  open: readonly string[] = [],
): unknown {
  if (Array.isArray(node)) return node.map((item) => inlined(item, components, operationId, open));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  if (typeof $ref === "string") {
    const name = COMPONENT_REF.exec($ref)?.[1];
    const target = name ? components[name] : undefined;
    if (!name || !target) throw new Error(`${operationId}: unresolvable schema reference ${$ref}`);
    if (open.includes(name)) throw new Error(`${operationId}: schema ${name} refers to itself`);
    const resolved = inlined(target, components, operationId, [...open, name]) as Record<string, unknown>;
    // Keywords beside a reference (a field's own description) say more than the component's.
    return { ...resolved, ...(inlined(rest, components, operationId, open) as Record<string, unknown>) };
  }
  return Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, inlined(value, components, operationId, open)]),
  );
}

const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

function operationsOf(document: OpenApiDocument): Map<string, OperationObject> {
  const byId = new Map<string, OperationObject>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = (item as Record<string, OperationObject | undefined>)[method];
      if (op?.operationId) byId.set(op.operationId, op);
    }
  }
  return byId;
}

const CONFIRM_NOTE = `Without \`${CONFIRM_ARGUMENT}: true\` this tool changes nothing: it runs the operation as a dry run and answers what the call would change. Call it again with \`${CONFIRM_ARGUMENT}: true\` (and the same \`${IDEMPOTENCY_ARGUMENT}\`) to do it.`;

const IDEMPOTENCY_NOTE = `A write: the result names the \`${IDEMPOTENCY_ARGUMENT}\` it was made with (one is generated when none is given); calling again with that key and the same arguments answers the first result instead of writing twice.`;

function toolOf(entry: OperationEntry, op: OperationObject, components: Record<string, JsonSchema>): Tool {
  const schema = (node: JsonSchema | undefined): JsonSchema =>
    inlined(node ?? {}, components, entry.operationId) as JsonSchema;
  const confirms = entry.dryRun;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const pathParameters: string[] = [];
  for (const parameter of op.parameters ?? []) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    // The tool decides the dry run from `confirm`; the parameter itself is not an argument of it.
    if (confirms && parameter.in === "query" && parameter.name === DRY_RUN_PARAM) continue;
    if ([BODY_ARGUMENT, IDEMPOTENCY_ARGUMENT, CONFIRM_ARGUMENT].includes(parameter.name)) {
      throw new Error(`${entry.operationId}: parameter ${parameter.name} is a tool argument of its own`);
    }
    const own = schema(parameter.schema);
    properties[parameter.name] = parameter.description ? { ...own, description: parameter.description } : own;
    if (parameter.in === "path") pathParameters.push(parameter.name);
    if (parameter.required) required.push(parameter.name);
  }
  const body = op.requestBody?.content?.["application/json"]?.schema;
  if (body) {
    properties[BODY_ARGUMENT] = {
      ...schema(body),
      description: "The request body, as the HTTP operation takes it.",
    } as JsonSchema;
    if (op.requestBody?.required) required.push(BODY_ARGUMENT);
  }
  if (entry.idempotent) {
    properties[IDEMPOTENCY_ARGUMENT] = {
      type: "string",
      minLength: 1,
      maxLength: 255,
      description:
        "The write's Idempotency-Key (1 to 255 visible ASCII characters). Give the key of an earlier call to retry it safely; when absent, one is generated and returned with the result.",
    } as JsonSchema;
  }
  if (confirms) {
    properties[CONFIRM_ARGUMENT] = {
      type: "boolean",
      description: "`true` does it; absent or `false` runs a dry run that changes nothing.",
    } as JsonSchema;
  }
  const method = entry.method.toUpperCase();
  const readOnly = method === "GET";
  const title = op.summary ?? entry.operationId;
  const description = [
    op.summary,
    op.description,
    confirms ? CONFIRM_NOTE : undefined,
    entry.idempotent ? IDEMPOTENCY_NOTE : undefined,
  ]
    .filter(Boolean)
    .join("\n\n");
  return {
    name: entry.operationId,
    title,
    description,
    inputSchema: { type: "object", properties, required, additionalProperties: false },
    annotations: {
      title,
      readOnlyHint: readOnly,
      destructiveHint: method === "DELETE" || confirms,
      // Repeating the same arguments changes nothing more: reads, and writes the HTTP semantics make so.
      idempotentHint: readOnly || method === "PUT" || method === "DELETE",
      openWorldHint: false,
    },
    operation: entry,
    pathParameters,
    takesBody: Boolean(body),
    confirms,
  };
}

/**
 * Every tool, one per operation a secret key or a member session can call, in the registry's order. Only the
 * operations of this document: an operation the serving Worker does not mount is not its tool (test/mcp/ holds
 * the API Worker's tools to the whole registry).
 */
export function buildTools(document: OpenApiDocument): Tool[] {
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const operations = operationsOf(document);
  return operationRegistry.flatMap((entry) => {
    const op = operations.get(entry.operationId);
    const callable = entry.credentials.some((kind) => MCP_CREDENTIALS.includes(kind));
    return op && callable ? [toolOf(entry, op, components)] : [];
  });
}

/** The tools and their digest: the MCP Worker keeps the tools of the digest it was last given (worker.ts). */
export interface ToolCatalogue {
  version: string;
  tools: Tool[];
}

/**
 * The catalogue of the document's tools, its version the SHA-256 of their JSON: the same for every isolate of a
 * deployment, so the MCP Worker fetches the tools again only when a deployment changes them.
 */
export async function toolCatalogue(document: OpenApiDocument): Promise<ToolCatalogue> {
  const tools = buildTools(document);
  return { version: await sha256Hex(JSON.stringify(tools)), tools };
}
