/**
 * Stands in for the MCP SDK's Ajv validator module (`../validation/ajv-provider.js`, imported by the SDK's server)
 * in the MCP Worker's deployed bundle (wrangler.mcp.toml `[alias]`). Ajv compiles each schema into code with
 * `new Function`, which Workers refuse, so on Workers it could never validate anything; with its formats and URI
 * parser it is about 130 KiB of the minified bundle. The SDK's validator for Workers (on @cfworker/json-schema,
 * which interprets schemas) takes its name, so the server's default validator is one that works here.
 * functions/mcp/server.ts names that validator itself too, so a bundle that keeps the SDK whole runs the same one.
 */
export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
