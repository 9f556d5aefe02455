import { WorkerEntrypoint } from "cloudflare:workers";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { McpCall, McpService } from "../../lib/mcp";
import { mcpServer } from "./server";
import type { Tool } from "./tools";

/**
 * The MCP Worker (wrangler.mcp.toml): the Model Context Protocol server of POST /v1/mcp, with the MCP SDK, outside
 * the API Worker's bundle (docs/decisions.md, "Bundles and startup, per Worker"). The API Worker authenticates and
 * counts the request (functions/mcp/index.ts) and hands it over its service binding `MCP` with what the server
 * needs (lib/mcp.ts `McpCall`): the principal, and two functions of the API Worker called back over the binding,
 * the tools of its OpenAPI document and the dispatch of each tool call to its own app. It holds no binding and
 * serves no HTTP: it is reached only through the API Worker's binding.
 */

/** The tools of the last version the API Worker named: fetched again only when the version changes (a deployment). */
let catalogue: { version: string; tools: Promise<Tool[]> } | undefined;

export default class McpWorker extends WorkerEntrypoint implements McpService {
  override async fetch(): Promise<Response> {
    return new Response(null, { status: 404 });
  }

  async serve(request: Request, call: McpCall<Tool>): Promise<Response> {
    if (catalogue?.version !== call.toolsVersion) {
      const tools = call.tools();
      catalogue = { version: call.toolsVersion, tools };
      // A failed fetch is not kept: the next request asks again.
      tools.catch(() => {
        if (catalogue?.tools === tools) catalogue = undefined;
      });
    }
    const server = mcpServer({
      principal: call.principal,
      tools: await catalogue.tools,
      publicBase: call.publicBase,
      origin: call.origin,
      requestId: call.requestId,
      credentialHeaders: new Headers(call.credentialHeaders),
      dispatch: (toolRequest) => call.dispatch(toolRequest),
    });
    // Stateless: a server and a transport per request, no session; the answer is one JSON body.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  }
}
