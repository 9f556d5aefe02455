import { createRouter, type Router, type RouterOptions } from "../../http/app";
import { authenticate } from "../../http/auth";
import { countedAlready } from "../../http/rate-limit";
import { publicBaseUrl } from "../../lib/env";
import { MCP_PATH } from "../../lib/mcp";
import { type ToolCatalogue, toolCatalogue } from "./catalogue";
import { MCP_CREDENTIALS, type OpenApiDocument } from "./tools";

/** The headers that carry a credential (http/auth.ts reads them), passed on to every tool call. */
const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "cookie"] as const;

/** The JSON-RPC messages of a body: a batch's length, else 1 (malformed text is one request, refused as such). */
function messageCount(text: string): number {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
  } catch {
    return 1;
  }
}

export interface McpApi {
  /** The OpenAPI document the tools are described by (functions/openapi.ts). */
  document(): OpenApiDocument;
  /** The API Worker's own app: every tool call is a request it answers. */
  dispatch(...request: Parameters<Router["fetch"]>): Response | Promise<Response>;
}

/**
 * POST /v1/mcp: the API as a Model Context Protocol server (Streamable HTTP, stateless: a server and a transport per
 * request, no session). Authenticated once per request by the API's own gate, which counts each JSON-RPC message
 * of it against the credential's rate limit; then served by the MCP Worker (functions/mcp/worker.ts, over the
 * service binding `MCP`), whose every tool call comes back as an API request of its own, with the same
 * credential, answered by this same app and not counted again: a tool call counts once, like the API call it is
 * (docs/decisions.md, "An MCP server").
 */
export function mcpRouter(options: RouterOptions, api: McpApi) {
  const app = createRouter(options);
  // Built once per isolate: the document is the same for every request of a deployment.
  let catalogue: Promise<ToolCatalogue> | undefined;
  app.post(
    MCP_PATH.replace(/^\/v1/, ""),
    authenticate({
      credentials: MCP_CREDENTIALS,
      scopes: [],
      credentialsReason:
        "Tools act for a key or a member of a gallery; a publishable token reads the public viewing rooms over HTTP.",
      // Each JSON-RPC message counts once, a tool call included: the API request it makes is not counted again.
      requestCount: async (c) => messageCount(await c.req.text()),
    }),
    async (c) => {
      // A catalogue that failed to build is not kept: the next request builds it again.
      catalogue ??= toolCatalogue(api.document()).catch((error: unknown) => {
        catalogue = undefined;
        throw error;
      });
      const { version, tools } = await catalogue;
      const credentialHeaders: [string, string][] = [];
      for (const name of CREDENTIAL_HEADERS) {
        const value = c.req.header(name);
        if (value !== undefined) credentialHeaders.push([name, value]);
      }
      // The body was read (as text) to count the request; the MCP Worker's transport reads the same bytes again.
      const request = new Request(c.req.raw.url, {
        method: "POST",
        headers: c.req.raw.headers,
        body: await c.req.text(),
      });
      // The server runs in the MCP Worker (functions/mcp/worker.ts); its tool calls come back to this app.
      return c.env.MCP.serve(request, {
        principal: c.get("principal"),
        publicBase: publicBaseUrl(c.env),
        origin: new URL(c.req.url).origin,
        requestId: c.get("requestId"),
        credentialHeaders,
        toolsVersion: version,
        tools: async () => tools,
        dispatch: async (toolRequest) => api.dispatch(countedAlready(toolRequest), c.env, c.executionCtx),
      });
    },
  );
  return app;
}
