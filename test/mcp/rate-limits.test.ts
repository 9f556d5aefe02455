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

describe("MCP: rate limits", () => {
  it("a tool call counts as its MCP request and as the API request it makes, against the credential's limit", async () => {
    const policy = RATE_LIMIT_POLICIES.session;
    const g = await createGallery();
    const editor = await g.editor();
    const session = await sessionOf(g.id, editor.id);
    const toolCall = (id: number) =>
      workerFetch(MCP_URL, {
        method: "POST",
        headers: {
          authorization: `Bearer ${session}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "getCurrentSession", arguments: {} },
        }),
      });
    await withinOneWindow(policy.period, 8);
    // Half the limit in tool calls spends all of it: each is two requests.
    for (let n = 0; n < policy.limit / 2; n++) {
      const response = await toolCall(n);
      const body = (await response.json()) as { result?: { isError?: boolean } };
      if (response.status !== 200 || body.result?.isError) {
        throw new Error(`tool call ${n + 1}: ${response.status} ${JSON.stringify(body)}`);
      }
    }
    // The session's next request, over HTTP or MCP, is past the limit.
    await expectProblem(await call("GET", "/auth/sessions/current", { key: session }), 429, "rate_limited");
    await expectProblem(await toolCall(0), 429, "rate_limited");
    // Another credential of the gallery is counted on its own.
    expect((await call("GET", "/auth/sessions/current", { key: editor.token })).status).toBe(200);
  });
});
