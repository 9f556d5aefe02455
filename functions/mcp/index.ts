import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createRouter, type Router, type RouterOptions } from "../../http/app";
import { authenticate } from "../../http/auth";
import { publicBaseUrl } from "../../lib/env";
import { MCP_PATH } from "../../lib/mcp";
import { mcpServer } from "./server";
import { buildTools, MCP_CREDENTIALS, type OpenApiDocument, type Tool } from "./tools";

/** The headers that carry a credential (http/auth.ts reads them), passed on to every tool call. */
const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "cookie"] as const;

export interface McpApi {
  /** The OpenAPI document the tools are described by (functions/openapi.ts). */
  document(): OpenApiDocument;
  /** The API Worker's own app: every tool call is a request it answers. */
  dispatch(...request: Parameters<Router["fetch"]>): Response | Promise<Response>;
}

/**
 * POST /v1/mcp: the API as a Model Context Protocol server (Streamable HTTP, stateless: a server and a transport per
 * request, no session). Authenticated once per request by the API's own gate, which counts the request against the
 * credential's rate limit; each tool call is then an API request of its own, with the same credential, answered by
 * the same app (docs/decisions.md, "An MCP server").
 */
export function mcpRouter(options: RouterOptions, api: McpApi) {
  const app = createRouter(options);
  // Built once per isolate: the document is the same for every request of a deployment.
  let tools: Tool[] | undefined;
  app.post(
    MCP_PATH.replace(/^\/v1/, ""),
    authenticate({
      credentials: MCP_CREDENTIALS,
      scopes: [],
      credentialsReason:
        "Tools act for a key or a member of a gallery; a publishable token reads the public viewing rooms over HTTP.",
    }),
    async (c) => {
      tools ??= buildTools(api.document());
      const credentialHeaders = new Headers();
      for (const name of CREDENTIAL_HEADERS) {
        const value = c.req.header(name);
        if (value !== undefined) credentialHeaders.set(name, value);
      }
      const server = mcpServer({
        principal: c.get("principal"),
        tools,
        publicBase: publicBaseUrl(c.env),
        origin: new URL(c.req.url).origin,
        requestId: c.get("requestId"),
        credentialHeaders,
        dispatch: async (request) => api.dispatch(request, c.env, c.executionCtx),
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(c.req.raw);
      } finally {
        await server.close();
      }
    },
  );
  return app;
}
