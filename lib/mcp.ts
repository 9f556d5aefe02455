import type { Principal } from "./principal";

/** Where the MCP server is served (functions/mcp/): named here for the Worker and for `npm start`'s banner alike. */
export const MCP_PATH = "/v1/mcp";

/**
 * One MCP request as the API Worker hands it to the MCP Worker (wrangler.mcp.toml, functions/mcp/worker.ts) over
 * its service binding `MCP`, once the API's gate has authenticated and counted it. `tools` and `dispatch` are
 * functions of the API Worker, called back over the binding (Workers RPC): the tools are fetched only when the
 * MCP Worker holds none of `toolsVersion`, and every tool call is a request the API Worker's own app answers.
 */
export interface McpCall<Tool = unknown> {
  principal: Principal;
  /** Where resources are published (PUBLIC_BASE_URL): their URIs. */
  publicBase: string;
  /** The origin the request arrived at: the internal requests' URLs. */
  origin: string;
  requestId: string;
  /** The MCP request's credential headers, which every tool call presents as its own. */
  credentialHeaders: [string, string][];
  /** The digest of the API Worker's tools (functions/mcp/catalogue.ts). */
  toolsVersion: string;
  tools(): Promise<Tool[]>;
  /** Answers a tool call's request with the API Worker's app, not counted against the rate limit again. */
  dispatch(request: Request): Promise<Response>;
}

/** The MCP Worker as the API Worker reaches it. */
export interface McpService {
  serve(request: Request, call: McpCall): Promise<Response>;
}
