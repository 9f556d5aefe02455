import { describe, expect, it } from "vitest";
import { RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import { call, createGallery, sessionOf } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { MCP_URL, workerFetch } from "./helpers";

/** The local limiter counts in fixed windows aligned to the period: start where the whole test fits in one. */
async function withinOneWindow(periodSeconds: number, needSeconds: number): Promise<void> {
  const left = periodSeconds * 1000 - (Date.now() % (periodSeconds * 1000));
  if (left < needSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** One POST to /v1/mcp holding these JSON-RPC messages (a batch when more than one). */
function mcpPost(credential: string, messages: object[]): Promise<Response> {
  return workerFetch(MCP_URL, {
    method: "POST",
    headers: {
      authorization: `Bearer ${credential}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(messages.length === 1 ? messages[0] : messages),
  });
}

const toolCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "getCurrentSession", arguments: {} },
});

describe("MCP: rate limits", () => {
  it("each tool call counts once against the credential's limit, like the API call it makes; a batch counts each", async () => {
    const policy = RATE_LIMIT_POLICIES.session;
    const g = await createGallery();
    const editor = await g.editor();
    const session = await sessionOf(g.id, editor.id);
    await withinOneWindow(policy.period, 7);
    // The limit less one in tool calls, in batches of up to 100 (the transport's largest), every one answered.
    let sent = 0;
    while (sent < policy.limit - 1) {
      const size = Math.min(100, policy.limit - 1 - sent);
      const response = await mcpPost(
        session,
        Array.from({ length: size }, (_, i) => toolCall(sent + i)),
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as
        | { result?: { isError?: boolean } }
        | { result?: { isError?: boolean } }[];
      const results = Array.isArray(body) ? body : [body];
      expect(results).toHaveLength(size);
      expect(results.filter((r) => !r.result || r.result.isError)).toEqual([]);
      sent += size;
    }
    // One request is left in the window, over HTTP; the next, over HTTP or MCP, is past the limit.
    expect((await call("GET", "/auth/sessions/current", { key: session })).status).toBe(200);
    await expectProblem(await call("GET", "/auth/sessions/current", { key: session }), 429, "rate_limited");
    await expectProblem(await mcpPost(session, [toolCall(0)]), 429, "rate_limited");
    // Another credential of the gallery is counted on its own.
    expect((await call("GET", "/auth/sessions/current", { key: editor.token })).status).toBe(200);
  });
});
