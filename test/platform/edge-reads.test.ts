import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../functions/api";
import { credentialCacheKey } from "../../lib/credentials";
import { sha256Hex } from "../../lib/crypto";
import { idempotencyCacheKey } from "../../lib/idempotency";
import { generationKey } from "../../lib/public-surface";
import { publicRoomSlug } from "../helpers/fixtures";
import {
  apiRequest,
  type CallOptions,
  call,
  createGallery,
  json,
  mintKey,
  type TestGallery,
} from "../helpers/gallery";
import { validateResponse } from "../helpers/openapi";

/**
 * What a request reads of EDGE_KV once its credential's gallery is known (an idempotent replay, a public
 * generation) is read in the credential's own call when the isolate has resolved the credential before
 * (http/edge-reads.ts): one subrequest instead of two, and the credential still read on every request.
 */

/** The keys of each `get` the Worker made on EDGE_KV while answering, in order (a bulk read is one entry). */
async function callReading(method: string, path: string, opts: CallOptions = {}) {
  const kv = env.EDGE_KV;
  const gets: string[][] = [];
  const reading = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property !== "get" || typeof value !== "function") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (keys: string | string[], ...rest: unknown[]) => {
        gets.push(Array.isArray(keys) ? [...keys] : [keys]);
        return Reflect.apply(value, target, [keys, ...rest]);
      };
    },
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(apiRequest(method, path, opts), { ...env, EDGE_KV: reading }, ctx);
  await waitOnExecutionContext(ctx);
  await validateResponse(method, path, response);
  return { response, gets };
}

async function credentialKey(token: string): Promise<string> {
  return credentialCacheKey(await sha256Hex(token));
}

/** A write's replay waits for the edge copy written after the first answer (each probe a KV read, not a sleep). */
async function untilCached(key: string): Promise<void> {
  let found = false;
  for (let i = 0; i < 500 && !found; i++) found = (await env.EDGE_KV.get(key)) !== null;
  expect(found, "the response was never kept at the edge").toBe(true);
}

describe("reads beside the credential", () => {
  it("reads a write's credential and its replay in one call once the isolate knows the credential", async () => {
    const g = await createGallery();
    const key = await mintKey(g.id, ["artworks:read", "artworks:create"]);
    const body = { title: "Read beside" };
    const idempotencyKey = `beside-${crypto.randomUUID()}`;
    const replayKey = await idempotencyCacheKey(g.id, idempotencyKey);
    const headers = { "Idempotency-Key": idempotencyKey };

    // The credential's first request in this isolate: its gallery is not known yet, so the two reads follow
    // one another.
    const first = await callReading("POST", "/gallery/artworks", { key, body, headers });
    expect(first.response.status).toBe(201);
    expect(first.gets).toEqual([[await credentialKey(key)], [replayKey]]);
    await untilCached(replayKey);

    // Known now: one bulk read of both, and the replay comes from it.
    const again = await callReading("POST", "/gallery/artworks", { key, body, headers });
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.response.json()).toEqual(await first.response.json());
    expect(again.gets).toEqual([[await credentialKey(key), replayKey]]);

    // A new key: nothing to replay, and still one call.
    const other = `beside-${crypto.randomUUID()}`;
    const fresh = await callReading("POST", "/gallery/artworks", {
      key,
      body,
      headers: { "Idempotency-Key": other },
    });
    expect(fresh.response.status).toBe(201);
    expect(fresh.response.headers.get("idempotent-replayed")).toBeNull();
    expect(fresh.gets).toEqual([[await credentialKey(key), await idempotencyCacheKey(g.id, other)]]);
  });

  it("reads nothing beside the credential for a write without an Idempotency-Key, or a malformed one", async () => {
    const g = await createGallery();
    await call("GET", "/gallery/artworks?limit=1", { key: g.key });
    const plain = await callReading("POST", "/gallery/artworks", { key: g.key, body: { title: "Plain" } });
    expect(plain.response.status).toBe(201);
    expect(plain.gets).toEqual([[await credentialKey(g.key)]]);

    const malformed = await callReading("POST", "/gallery/artworks", {
      key: g.key,
      body: { title: "Malformed key" },
      headers: { "Idempotency-Key": "x".repeat(256) },
    });
    expect(malformed.response.status).toBe(400);
    expect(malformed.gets).toEqual([[await credentialKey(g.key)]]);
  });

  it("refuses a revoked key though its gallery and the replay it asks for are known: 401, never the replay", async () => {
    const g = await createGallery();
    const created = await json<{ id: string; secret: string }>(
      await call("POST", "/gallery/api-keys", {
        key: g.key,
        body: { name: "Soon revoked", scopes: ["artworks:read", "artworks:create"] },
      }),
    );
    const request = {
      key: created.secret,
      body: { title: "Written before the revoke" },
      headers: { "Idempotency-Key": `revoked-${crypto.randomUUID()}` },
    };
    expect((await call("POST", "/gallery/artworks", request)).status).toBe(201);
    await untilCached(await idempotencyCacheKey(g.id, request.headers["Idempotency-Key"]));
    const replayed = await call("POST", "/gallery/artworks", request);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");

    expect((await call("DELETE", `/gallery/api-keys/${created.id}`, { key: g.key })).status).toBe(200);
    const refused = await callReading("POST", "/gallery/artworks", request);
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get("idempotent-replayed")).toBeNull();
    expect(((await refused.response.json()) as { code: string }).code).toBe("unauthenticated");
  });

  it("replays another key's write of the same gallery from the edge copy, read beside that key", async () => {
    const g = await createGallery();
    const second = await mintKey(g.id, ["artworks:read", "artworks:create"]);
    await call("GET", "/gallery/artworks?limit=1", { key: second });
    const idempotencyKey = `shared-${crypto.randomUUID()}`;
    const request = { body: { title: "Either key" }, headers: { "Idempotency-Key": idempotencyKey } };
    const first = await call("POST", "/gallery/artworks", { key: g.key, ...request });
    expect(first.status).toBe(201);
    const replayKey = await idempotencyCacheKey(g.id, idempotencyKey);
    await untilCached(replayKey);
    const replayed = await callReading("POST", "/gallery/artworks", { key: second, ...request });
    expect(replayed.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.gets).toEqual([[await credentialKey(second), replayKey]]);
  });

  describe("a public read", () => {
    let g: TestGallery;
    let token: string;
    let slug: string;

    it("reads the token and its gallery's public generation in one call once the token is known", async () => {
      g = await createGallery();
      token = await mintKey(g.id, ["viewing_rooms:read"], "publishable");
      slug = await publicRoomSlug(g);
      const path = `/public/viewing-rooms/${slug}`;
      const first = await callReading("GET", path, { key: token });
      expect(first.response.status).toBe(200);
      expect(first.gets).toEqual([[await credentialKey(token)], [generationKey(g.id)]]);
      const warm = await callReading("GET", path, { key: token });
      expect(warm.response.status).toBe(200);
      expect(warm.gets).toEqual([[await credentialKey(token), generationKey(g.id)]]);
    });

    it("builds afresh under a moved generation read beside the token", async () => {
      const path = `/public/viewing-rooms/${slug}`;
      const before = await call("GET", path, { key: token });
      const etag = before.headers.get("etag");
      const room = await json<{ data: { id: string; slug: string }[] }>(
        await call("GET", "/gallery/viewing-rooms?limit=1", { key: g.key }),
      );
      const id = room.data[0]!.id;
      expect(
        (await call("PATCH", `/gallery/viewing-rooms/${id}`, { key: g.key, body: { title: "Renamed room" } }))
          .status,
      ).toBe(200);
      // The cron Worker's pass moves the generation; a read beside the token sees it at once.
      await env.EDGE_KV.put(generationKey(g.id), `moved-${crypto.randomUUID()}`);
      const after = await callReading("GET", path, { key: token });
      expect(after.response.status).toBe(200);
      expect(after.gets).toEqual([[await credentialKey(token), generationKey(g.id)]]);
      expect(after.response.headers.get("etag")).not.toBe(etag);
      expect(((await after.response.json()) as { title: string }).title).toBe("Renamed room");
    });
  });
});
