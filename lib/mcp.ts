/** Where the MCP server is served (functions/mcp/): named here for the Worker and for `npm start`'s banner alike. */
export const MCP_PATH = "/v1/mcp";
