import { describe, expect, it } from "vitest";
import { prompts } from "../../functions/mcp/prompts";
import { MCP_CREDENTIALS } from "../../functions/mcp/tools";
import { operationRegistry } from "../../http/operation";
import { missingScopes, readScopes } from "../../lib/scopes";
import { pricedFixtures } from "../helpers/fixtures";
import { call, createGallery, json, mintKey } from "../helpers/gallery";
import { documentedOperations, openApiDocument } from "../helpers/openapi";
import { expectProblem } from "../helpers/problem";
import { countRows } from "../helpers/seed";
import { artwork, createOffer, setItems } from "../offers/helpers";
import { callTool, connect, MCP_URL, toolNames, workerFetch } from "./helpers";

/** The operations a credential of this kind and these scopes may call: what its tools/list must show. */
function operationsFor(kind: "secret" | "session", scopes: readonly string[]): string[] {
  return operationRegistry
    .filter((op) => op.credentials.includes(kind) && missingScopes(scopes, op.scopes).length === 0)
    .map((op) => op.operationId)
    .sort();
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

function rawMcp(headers: Record<string, string>, body: unknown = initialize): Promise<Response> {
  return workerFetch(MCP_URL, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe("MCP: the tools are the registry's operations", () => {
  it("every operation a secret key or a member session can call is a tool, and every tool is one", async () => {
    const g = await createGallery();
    const editor = await g.editor();
    const viaKey = await toolNames(await connect(g.key));
    const viaSession = await toolNames(await connect(editor.token));
    const offered = [...new Set([...viaKey, ...viaSession])].sort();
    const callable = operationRegistry
      .filter((op) => op.credentials.some((kind) => MCP_CREDENTIALS.includes(kind)))
      .map((op) => op.operationId)
      .sort();
    expect(offered).toEqual(callable);
    // Connector deliveries, signed uploads and the public surface are not tools.
    for (const name of ["receiveTwilioMessage", "putUpload", "getPublicViewingRoom"]) {
      expect(offered).not.toContain(name);
    }
  });

  it("takes each operation's documented parameters and body as its arguments, and nothing else", async () => {
    const g = await createGallery();
    const editor = await g.editor();
    const tools = [
      ...(await (await connect(g.key)).listTools()).tools,
      ...(await (await connect(editor.token)).listTools()).tools,
    ];
    const documented = new Map(
      documentedOperations(await openApiDocument()).map((d) => [d.operation.operationId, d.operation]),
    );
    for (const tool of tools) {
      const entry = operationRegistry.find((op) => op.operationId === tool.name)!;
      const operation = documented.get(tool.name)!;
      const parameters = (operation.parameters ?? []).filter(
        (p) => (p.in === "path" || p.in === "query") && !(entry.dryRun && p.name === "dry_run"),
      );
      const expected = [
        ...parameters.map((p) => p.name),
        ...(operation.requestBody?.content["application/json"] ? ["body"] : []),
        ...(entry.idempotent ? ["idempotency_key"] : []),
        ...(entry.dryRun ? ["confirm"] : []),
      ];
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort(), tool.name).toEqual(expected.sort());
      const required = parameters.filter((p) => p.required).map((p) => p.name);
      if (operation.requestBody?.required) required.push("body");
      expect([...(tool.inputSchema.required ?? [])].sort(), tool.name).toEqual(required.sort());
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(entry.method.toUpperCase() === "GET");
    }
  });

  it("describes each tool by the OpenAPI document and marks reads, deletes and writes", async () => {
    const g = await createGallery();
    const { tools } = await (await connect(g.key)).listTools();
    const getArtwork = tools.find((t) => t.name === "getArtwork")!;
    expect(getArtwork.title).toBe("Retrieve an artwork");
    expect(getArtwork.inputSchema.required).toEqual(["id"]);
    expect(getArtwork.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const createArtwork = tools.find((t) => t.name === "createArtwork")!;
    expect(Object.keys(createArtwork.inputSchema.properties ?? {})).toEqual(["body", "idempotency_key"]);
    // The body's schema stands alone: no reference into a document the client does not have.
    expect(JSON.stringify(createArtwork.inputSchema)).not.toContain("$ref");
    expect(createArtwork.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    const deleteOffer = tools.find((t) => t.name === "deleteOffer")!;
    expect(Object.keys(deleteOffer.inputSchema.properties ?? {})).toEqual([
      "id",
      "idempotency_key",
      "confirm",
    ]);
    expect(deleteOffer.annotations).toMatchObject({ destructiveHint: true });
  });

  it("lists only the tools the key's scopes and kind allow", async () => {
    const g = await createGallery();
    for (const scopes of [
      ["artworks:read"],
      ["artworks:read", "artists:read"],
      ["contacts:read", "sales:read"],
    ]) {
      const names = await toolNames(await connect(await g.keyWith(scopes)));
      expect(names, scopes.join(" ")).toEqual(operationsFor("secret", scopes));
    }
    const readOnly = await toolNames(await connect(await g.keyWith(["artworks:read"])));
    expect(readOnly).toContain("getArtwork");
    expect(readOnly).not.toContain("createArtwork");
    // listArtworks needs artists:read too.
    expect(readOnly).not.toContain("listArtworks");
    // The member-private inbox needs a member session, as over HTTP.
    const all = await toolNames(await connect(g.key));
    expect(all).not.toContain("listInboxThreads");
    const editor = await g.editor();
    expect(await toolNames(await connect(editor.token))).toContain("listInboxThreads");
  });
});

describe("MCP: tool calls are API calls", () => {
  it("a read answers the API's JSON", async () => {
    const g = await createGallery();
    const id = await artwork(g, "Quist, Evening");
    const client = await connect(g.key);
    const result = await callTool(client, "getArtwork", { id });
    expect(result.isError).toBe(false);
    const http = await json(await call("GET", `/gallery/artworks/${id}`, { key: g.key }));
    expect(result.body).toEqual(http);
    expect(JSON.parse(result.text[0]!)).toEqual(http);
    expect(result.meta.status).toBe(200);
  });

  it("gated prices stay gated: a read-only key's tool sees the formats' prices null, as over HTTP", async () => {
    const g = await createGallery();
    const id = await pricedFixtures.art!(g, false);
    const readOnly = await g.keyWith(readScopes);
    const result = await callTool(await connect(readOnly), "getArtwork", { id });
    const formats = result.body.formats as { price_cents: number | null }[];
    expect(formats).toHaveLength(2);
    expect(formats.map((f) => f.price_cents)).toEqual([null, null]);
    expect(result.body).toEqual(await json(await call("GET", `/gallery/artworks/${id}`, { key: readOnly })));
    const full = await callTool(await connect(g.key), "getArtwork", { id });
    expect((full.body.formats as { price_cents: number | null }[]).map((f) => f.price_cents)).toEqual([
      4500, 6500,
    ]);
  });

  it("a paged read answers next_cursor, and the cursor argument reads the next page", async () => {
    const g = await createGallery();
    for (const title of ["One", "Two", "Three"]) await artwork(g, title);
    const client = await connect(g.key);
    const first = await callTool(client, "listArtworks", { limit: 2, sort: "created", dir: "asc" });
    expect(first.isError, first.text[0]).toBe(false);
    expect((first.body.data as { title: string }[]).map((a) => a.title)).toEqual(["One", "Two"]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await callTool(client, "listArtworks", {
      limit: 2,
      sort: "created",
      dir: "asc",
      cursor: first.body.next_cursor,
    });
    expect((second.body.data as { title: string }[]).map((a) => a.title)).toEqual(["Three"]);
    expect(second.body.next_cursor).toBeNull();
  });

  it("a write carries an idempotency key; a retry with it answers the first result and writes once", async () => {
    const g = await createGallery();
    const client = await connect(g.key);
    const first = await callTool(client, "createArtwork", { body: { title: "Once only" } });
    expect(first.isError).toBe(false);
    expect(first.meta.status).toBe(201);
    const key = first.meta.idempotency_key as string;
    expect(key).toEqual(expect.any(String));
    expect(first.text.join("\n")).toContain(key);
    const again = await callTool(client, "createArtwork", {
      body: { title: "Once only" },
      idempotency_key: key,
    });
    expect(again.isError).toBe(false);
    expect(again.meta.idempotent_replayed).toBe(true);
    expect(again.body.id).toBe(first.body.id);
    expect(await countRows("artworks", g.id)).toBe(1);
    // A call without a key is a new write, as an HTTP request without one is.
    const other = await callTool(client, "createArtwork", { body: { title: "Once only" } });
    expect(other.body.id).not.toBe(first.body.id);
    expect(other.meta.idempotency_key).not.toBe(key);
  });

  it("a delete that supports a dry run runs dry until confirmed", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    await setItems(g, offer.id, [{ artwork_id: await artwork(g, "Held") }]);
    const client = await connect(g.key);
    const dry = await callTool(client, "deleteOffer", { id: offer.id });
    expect(dry.isError).toBe(false);
    expect(dry.body).toMatchObject({ dry_run: true, effect: { items: 1 } });
    expect(dry.meta.dry_run).toBe(true);
    // A dry run claims no key, so its answer names none.
    expect(dry.meta.idempotency_key).toBeUndefined();
    expect(dry.text.join("\n")).toContain("confirm: true");
    expect((await call("GET", `/gallery/offers/${offer.id}`, { key: g.key })).status).toBe(200);
    const done = await callTool(client, "deleteOffer", { id: offer.id, confirm: true });
    expect(done.isError).toBe(false);
    expect(done.meta.dry_run).toBeUndefined();
    await expectProblem(await call("GET", `/gallery/offers/${offer.id}`, { key: g.key }), 404, "not_found");
  });

  it("a call beyond the key's scopes is the API's 403 problem, as a tool error", async () => {
    const g = await createGallery();
    const client = await connect(await g.keyWith(["artworks:read"]));
    const result = await callTool(client, "createArtwork", { body: { title: "Not mine to make" } });
    expect(result.isError).toBe(true);
    expect(result.body).toMatchObject({ status: 403, code: "forbidden" });
    expect(result.body.details).toMatchObject({ missing_scopes: ["artworks:create"] });
    // A refused write still names the key it was sent with, for a retry the problem may call for.
    const key = result.meta.idempotency_key as string;
    expect(result.text.join("\n")).toContain(`idempotency_key "${key}"`);
    expect(await countRows("artworks", g.id)).toBe(0);
  });

  it("the member-private inbox answers a member's session and refuses a key, as over HTTP", async () => {
    const g = await createGallery();
    const editor = await g.editor();
    const own = await callTool(await connect(editor.token), "listInboxThreads", { limit: 5 });
    expect(own.isError).toBe(false);
    expect(own.body).toMatchObject({ data: [], next_cursor: null });
    const byKey = await callTool(await connect(g.key), "listInboxThreads", { limit: 5 });
    expect(byKey.isError).toBe(true);
    expect(byKey.body).toMatchObject({ status: 403, code: "forbidden", details: { credential: "secret" } });
  });

  it("another gallery's id is not found, as over HTTP", async () => {
    const mine = await createGallery();
    const theirs = await createGallery();
    const theirArtwork = await artwork(theirs, "Not yours");
    const client = await connect(mine.key);
    const result = await callTool(client, "getArtwork", { id: theirArtwork });
    expect(result.isError).toBe(true);
    expect(result.body).toMatchObject({ status: 404, code: "not_found" });
    const deleted = await callTool(client, "deleteArtwork", { id: theirArtwork });
    expect(deleted.body).toMatchObject({ status: 404, code: "not_found" });
    expect((await call("GET", `/gallery/artworks/${theirArtwork}`, { key: theirs.key })).status).toBe(200);
  });

  it("malformed arguments are a clear 400 problem naming the argument, and change nothing", async () => {
    const g = await createGallery();
    const client = await connect(g.key);
    const wrongType = await callTool(client, "createArtwork", { body: { title: 5 } });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.body).toMatchObject({ status: 400, code: "invalid_request" });
    expect(wrongType.body.details).toEqual([expect.objectContaining({ location: "body", field: "title" })]);
    const unknown = await callTool(client, "createArtwork", {
      body: { title: "In the body" },
      title: "Beside the body",
    });
    expect(unknown.body).toMatchObject({ status: 400, code: "invalid_request" });
    expect(unknown.body.details).toEqual([
      expect.objectContaining({ field: "title", message: "is not a known parameter" }),
    ]);
    const noBody = await callTool(client, "createArtwork", {});
    expect(noBody.body).toMatchObject({ status: 400, code: "invalid_request" });
    const noId = await callTool(client, "getArtwork", {});
    expect(noId.body).toMatchObject({
      status: 400,
      code: "invalid_request",
      detail: "Argument `id` is required.",
    });
    const badConfirm = await callTool(client, "deleteOffer", { id: "offer_0000000000", confirm: "yes" });
    expect(badConfirm.body).toMatchObject({ status: 400, code: "invalid_request" });
    expect(await countRows("artworks", g.id)).toBe(0);
    expect(await countRows("domain_events", g.id)).toBe(0);
  });

  it("an unknown tool is a protocol error", async () => {
    const g = await createGallery();
    const client = await connect(g.key);
    await expect(client.callTool({ name: "noSuchOperation", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe("MCP: credentials", () => {
  it("no credential, or an unknown one, is the API's 401 problem on the HTTP request", async () => {
    await expectProblem(await rawMcp({}), 401, "unauthenticated");
    await expectProblem(
      await rawMcp({ authorization: "Bearer gpk_unknownunknownunknownunknown" }),
      401,
      "unauthenticated",
    );
  });

  it("a publishable token is refused with 403: tools act for a key or a member", async () => {
    const g = await createGallery();
    const token = await mintKey(g.id, ["viewing_rooms:read"], "publishable");
    await expectProblem(await rawMcp({ authorization: `Bearer ${token}` }), 403, "forbidden");
  });

  it("answers only POST: GET (no server-initiated stream) is 405", async () => {
    const g = await createGallery();
    const response = await workerFetch(MCP_URL, {
      headers: { authorization: `Bearer ${g.key}`, accept: "text/event-stream" },
    });
    await expectProblem(response, 405, "method_not_allowed");
  });
});

describe("MCP: resources and prompts", () => {
  it("offers the OpenAPI document, the event catalogue and the error dictionary, read through the API", async () => {
    const g = await createGallery();
    const client = await connect(g.key);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      "https://api.test/v1/errors",
      "https://api.test/v1/event-types",
      "https://api.test/v1/openapi.json",
    ]);
    const read = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      return JSON.parse((contents[0] as { text: string }).text) as Record<string, unknown>;
    };
    expect((await read("https://api.test/v1/openapi.json")).openapi).toBe("3.1.0");
    const errors = (await read("https://api.test/v1/errors")).data as { code: string }[];
    expect(errors.map((e) => e.code)).toContain("forbidden");
    const events = (await read("https://api.test/v1/event-types")).data as { type: string }[];
    expect(events.map((e) => e.type)).toContain("artwork.created");
  });

  it("each prompt names operations that exist, and is offered only to a caller who can call them all", async () => {
    const operations = new Set(operationRegistry.map((op) => op.operationId));
    for (const prompt of prompts) {
      for (const tool of prompt.tools) expect(operations.has(tool), `${prompt.name}: ${tool}`).toBe(true);
      // The text names each tool it lists, and no tool it does not.
      const named = [...prompt.text({}).matchAll(/`(\w+)`/g)]
        .map(([, name]) => name!)
        .filter((n) => operations.has(n));
      expect(new Set(named), prompt.name).toEqual(new Set(prompt.tools));
    }
    const g = await createGallery();
    const keyPrompts = (await (await connect(g.key)).listPrompts()).prompts.map((p) => p.name);
    expect(keyPrompts.sort()).toEqual(["find_buyers", "prepare_viewing_room"]);
    const editor = await g.editor();
    const client = await connect(editor.token);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain("triage_inbox");
    const prompt = await client.getPrompt({ name: "find_buyers", arguments: { artwork_id: "art_123" } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain("art_123");
  });
});
