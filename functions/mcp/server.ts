import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import type { Principal } from "../../lib/principal";
import { prompts } from "./prompts";
import {
  allows,
  BODY_ARGUMENT,
  CONFIRM_ARGUMENT,
  IDEMPOTENCY_ARGUMENT,
  problemResult,
  type Tool,
  type ToolResult,
  toolRequest,
  toolResult,
} from "./tools";

export const MCP_SERVER_NAME = "gallery-platform-api";

/** What the server tells every client once, at initialisation: how the tools take their arguments. */
const INSTRUCTIONS = `The Gallery Platform API as tools, one per operation, named by its operationId and described by the OpenAPI document (the resource openapi.json). Arguments: path and query parameters by name, at the top level; a JSON request body as \`${BODY_ARGUMENT}\`. Results are the API's JSON as it answers it: a list is one page, and \`next_cursor\` (when not null) is the \`cursor\` argument of the next page. An error is the API's problem (code, detail, details per field). Every write takes \`${IDEMPOTENCY_ARGUMENT}\`: the result says which key was used, and a retry with it never writes twice. A tool that deletes or sends and supports a dry run answers a dry run unless called with \`${CONFIRM_ARGUMENT}: true\`. The tools you see are those your key's scopes allow; the gallery is always your key's.`;

/** A document the API serves, offered as a resource: read through the API like any call. */
interface DocumentResource {
  path: string;
  name: string;
  title: string;
  description: string;
}

const documents: readonly DocumentResource[] = [
  {
    path: "/v1/openapi.json",
    name: "openapi",
    title: "OpenAPI document",
    description: "Every operation, its parameters, bodies, responses, scopes and problems (OpenAPI 3.1).",
  },
  {
    path: "/v1/event-types",
    name: "event-catalogue",
    title: "Event catalogue",
    description:
      "Every domain event type the API emits, when, the scopes that read it and the JSON Schema of its data.",
  },
  {
    path: "/v1/errors",
    name: "errors",
    title: "Error dictionary",
    description: "Every problem code: its status, title, whether to retry, and what it means.",
  },
];

export interface McpContext {
  principal: Principal;
  tools: readonly Tool[];
  /** Where resources are published (PUBLIC_BASE_URL): their URIs. */
  publicBase: string;
  /** The origin the request arrived at: the internal requests' URLs (the router reads only their paths). */
  origin: string;
  /** The MCP request's own id: the `request_id` of a problem answered before any internal request. */
  requestId: string;
  /** The MCP request's credential headers, which every tool call presents as its own. */
  credentialHeaders: Headers;
  /** Answers a request with the API itself (the same app, middleware and handlers as over HTTP). */
  dispatch(request: Request): Promise<Response>;
}

function toolOf(context: McpContext, name: string): Tool {
  const tool = context.tools.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  return tool;
}

async function callTool(
  context: McpContext,
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<ToolResult> {
  const tool = toolOf(context, name);
  // A tool outside the caller's scopes is still dispatched: the API answers the same 403 as over HTTP.
  const made = toolRequest(tool, args ?? {}, context.origin, context.credentialHeaders);
  if (!made.ok) {
    return problemResult(context.publicBase, made.error, `/v1${tool.operation.path}`, context.requestId);
  }
  return toolResult(made, await context.dispatch(made.request));
}

/** A server for one MCP request: stateless, it holds nothing beyond the request (functions/mcp/index.ts). */
export function mcpServer(context: McpContext): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: "Gallery Platform API", version: "1.0.0" },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: INSTRUCTIONS,
      // The SDK's default validator compiles schemas with `new Function`, which Workers refuse.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  const visible = context.tools.filter((tool) => allows(context.principal, tool));
  const visibleNames = new Set(visible.map((tool) => tool.name));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: visible.map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(context, request.params.name, request.params.arguments),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: documents.map((doc) => ({
      uri: `${context.publicBase}${doc.path}`,
      name: doc.name,
      title: doc.title,
      description: doc.description,
      mimeType: "application/json",
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const doc = documents.find((d) => `${context.publicBase}${d.path}` === request.params.uri);
    if (!doc) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
    const response = await context.dispatch(new Request(`${context.origin}${doc.path}`));
    if (!response.ok) {
      throw new McpError(
        ErrorCode.InternalError,
        `${doc.path} answered ${response.status}`,
        await response.text(),
      );
    }
    return {
      contents: [{ uri: request.params.uri, mimeType: "application/json", text: await response.text() }],
    };
  });
  // A prompt is offered when the caller can call every tool it names.
  const usable = prompts.filter((prompt) => prompt.tools.every((name) => visibleNames.has(name)));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: usable.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = usable.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
    if (missing.length > 0) {
      throw new McpError(ErrorCode.InvalidParams, `Missing argument(s): ${missing.join(", ")}`);
    }
    return {
      description: prompt.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt.text(args) } }],
    };
  });
  return server;
}
