import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, inject, it } from "vitest";

/**
 * An MCP client (the SDK's own, over Streamable HTTP) against the API Worker under `wrangler dev` (the live stack of
 * test/browser/global-setup.ts): the deployed bundle, with its aliases, over real HTTP, in two galleries of its own.
 */

const { api, allScopesKey, artworksReadKey, otherGalleryKey } = inject("mcp");
const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "gallery-live-tests", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${api}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

interface Called {
  isError: boolean;
  body: Record<string, unknown>;
  meta: Record<string, unknown>;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Called> {
  const result = await client.callTool({ name, arguments: args });
  return {
    isError: result.isError === true,
    body: (result.structuredContent ?? {}) as Record<string, unknown>,
    meta: (result._meta ?? {}) as Record<string, unknown>,
  };
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

describe("an MCP client against the live API", () => {
  it("lists tools by scope, reads, pages, replays a write, refuses a scope and another gallery's id", async () => {
    const all = await connect(allScopesKey);
    const reader = await connect(artworksReadKey);
    const allTools = (await all.listTools()).tools.map((t) => t.name);
    const readerTools = (await reader.listTools()).tools.map((t) => t.name);
    expect(allTools).toContain("createArtwork");
    expect(readerTools).toContain("listArtworks");
    expect(readerTools).not.toContain("createArtwork");
    expect(readerTools.length).toBeLessThan(allTools.length);

    const created = await call(all, "createArtwork", { body: { title: "Live, once" } });
    expect(created.isError).toBe(false);
    const replayed = await call(all, "createArtwork", {
      body: { title: "Live, once" },
      idempotency_key: created.meta.idempotency_key,
    });
    expect(replayed.meta.idempotent_replayed).toBe(true);
    expect(replayed.body.id).toBe(created.body.id);
    await call(all, "createArtwork", { body: { title: "Live, twice" } });

    const read = await call(reader, "getArtwork", { id: created.body.id });
    expect(read.body).toMatchObject({ id: created.body.id, title: "Live, once" });
    const page = await call(reader, "listArtworks", { limit: 1 });
    expect(page.body.data).toHaveLength(1);
    const next = await call(reader, "listArtworks", { limit: 1, cursor: page.body.next_cursor });
    expect(next.body.data).toHaveLength(1);
    expect(next.body.data).not.toEqual(page.body.data);

    const refused = await call(reader, "createArtwork", { body: { title: "Not allowed" } });
    expect(refused).toMatchObject({ isError: true, body: { status: 403, code: "forbidden" } });
    const other = await connect(otherGalleryKey);
    const foreign = await call(other, "getArtwork", { id: created.body.id });
    expect(foreign).toMatchObject({ isError: true, body: { status: 404, code: "not_found" } });
    const malformed = await call(all, "createArtwork", { body: { title: ["not", "a", "title"] } });
    expect(malformed).toMatchObject({ isError: true, body: { status: 400, code: "invalid_request" } });
    const total = await call(all, "listArtworks", { limit: 10 });
    expect((total.body.data as unknown[]).length).toBe(2);
  });

  it("runs a delete dry until it is confirmed", async () => {
    const client = await connect(allScopesKey);
    const offer = await call(client, "createOffer", { body: { title: "Live offer" } });
    const dry = await call(client, "deleteOffer", { id: offer.body.id });
    expect(dry.body).toMatchObject({ dry_run: true });
    expect((await call(client, "getOffer", { id: offer.body.id })).isError).toBe(false);
    const done = await call(client, "deleteOffer", { id: offer.body.id, confirm: true });
    expect(done.isError).toBe(false);
    expect((await call(client, "getOffer", { id: offer.body.id })).body).toMatchObject({ status: 404 });
  });

  it("answers 401 to a request without a key", async () => {
    const response = await fetch(`${api}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe("unauthenticated");
  });
});
