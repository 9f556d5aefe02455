import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import worker from "../../functions/api";

export const MCP_URL = "https://api.test/v1/mcp";

/** Requests of the SDK's client answered by the API Worker in-process, as an HTTP client's would be. */
export function workerFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  return Promise.resolve(worker.fetch(new Request(url, init), env, createExecutionContext()));
}

/** The SDK's client, connected (initialised) over Streamable HTTP with `Authorization: Bearer <credential>`. */
export async function connect(credential: string): Promise<Client> {
  const client = new Client(
    { name: "gallery-tests", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: workerFetch,
    requestInit: { headers: { authorization: `Bearer ${credential}` } },
  });
  await client.connect(transport);
  return client;
}

/** A tool call's result as the API answered it: its JSON body (the structured content) and the call's facts. */
export interface CallResult {
  isError: boolean;
  body: Record<string, unknown>;
  text: string[];
  meta: Record<string, unknown>;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallResult> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return {
    isError: result.isError === true,
    body: (result.structuredContent ?? {}) as Record<string, unknown>,
    text: content.flatMap((c) => (c.type === "text" && c.text !== undefined ? [c.text] : [])),
    meta: (result._meta ?? {}) as Record<string, unknown>,
  };
}

/** Every tool name the client is offered, sorted. */
export async function toolNames(client: Client): Promise<string[]> {
  const { tools } = await client.listTools();
  return tools.map((t) => t.name).sort();
}
