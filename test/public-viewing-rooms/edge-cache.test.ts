import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../functions/api";
import { canonicalQuery, noneMatch } from "../../http/edge-cache";
import { base64url } from "../../lib/crypto";
import {
  generationKey,
  PUBLIC_SURFACE_EVENT_CONDITION,
  PUBLIC_SURFACE_EVENT_TYPES,
} from "../../lib/public-surface";
import { PUBLISHABLE_SCOPES } from "../../lib/scopes";
import { renewPublicGenerations } from "../../services/edge-cache/invalidate";
import { call, createGallery, db, mintKey, type TestGallery } from "../helpers/gallery";
import { validateResponse } from "../helpers/openapi";
import { DOWN_DATABASE } from "../helpers/outage";
import { expectProblem } from "../helpers/problem";
import { seedEvent } from "../helpers/seed";

/**
 * The edge read of the public viewing room (http/edge-cache.ts) and its invalidation from the outbox
 * (services/edge-cache/invalidate.ts, run here directly as the cron Worker runs it each minute).
 */

interface PublicRoomBody {
  slug: string;
  title: string;
  closes_at: string | null;
  artworks: {
    id: string;
    title: string;
    availability: string;
    price: { price_cents: number; currency: string } | null;
    price_on_request: boolean;
  }[];
}

/**
 * A visitor's GET of the public surface, with the Worker's waitUntil work (the cache fill, the credential cache)
 * finished before it returns, so the next read finds what this one stored. Validated against the document.
 */
async function visit(
  path: string,
  token: string,
  headers: Record<string, string> = {},
  bindings: Cloudflare.Env = env,
): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`https://api.test/v1${path}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  const response = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  await validateResponse("GET", path, response);
  return response;
}

async function roomBody(response: Response): Promise<PublicRoomBody> {
  expect(response.status).toBe(200);
  return (await response.json()) as PublicRoomBody;
}

async function created(path: string, g: TestGallery, body: Record<string, unknown>): Promise<string> {
  const response = await call("POST", path, { key: g.key, body });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function patch(path: string, g: TestGallery, body: Record<string, unknown>): Promise<void> {
  const response = await call("PATCH", path, { key: g.key, body });
  if (response.status !== 200) throw new Error(`PATCH ${path}: ${response.status} ${await response.text()}`);
}

interface Room {
  id: string;
  slug: string;
  /** A public-priced work whose price the room shows. */
  priced: string;
  /** A work whose price is on request. */
  onRequest: string;
}

async function openRoom(g: TestGallery, fields: Record<string, unknown> = {}): Promise<Room> {
  const priced = await created("/gallery/artworks", g, {
    title: "Harbour at Dusk",
    price_cents: 1_250_000,
    currency: "USD",
    show_price_publicly: true,
  });
  const onRequest = await created("/gallery/artworks", g, {
    title: "Quiet Field",
    price_cents: 900_000,
    currency: "USD",
  });
  const slug = `room-${crypto.randomUUID().slice(0, 8)}`;
  const id = await created("/gallery/viewing-rooms", g, {
    title: "Winter Room",
    slug,
    visibility: "public",
    artworks: [
      { artwork_id: priced, show_price: true },
      { artwork_id: onRequest, show_price: true },
    ],
    ...fields,
  });
  return { id, slug, priced, onRequest };
}

/** The invalidation pass, as the cron Worker runs it. */
const renew = () => renewPublicGenerations(env);

let g: TestGallery;
let token: string;

beforeAll(async () => {
  g = await createGallery();
  token = await mintKey(g.id, PUBLISHABLE_SCOPES, "publishable");
});

/** Calls `read` counting the data center cache's lookups (caches.default.match) it makes. */
async function countingLookups(
  read: () => Promise<Response>,
): Promise<{ response: Response; lookups: number }> {
  const cache = caches.default;
  const match = cache.match.bind(cache);
  let lookups = 0;
  const spy = vi.spyOn(cache, "match").mockImplementation((...args: Parameters<Cache["match"]>) => {
    lookups += 1;
    return match(...args);
  });
  try {
    const response = await read();
    return { response, lookups };
  } finally {
    spy.mockRestore();
  }
}

describe("the isolate's own copy in front of the data center's cache", () => {
  it("answers a warm read from the isolate's copy, the same bytes and ETag, without a Cache API lookup", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    const cold = await countingLookups(() => visit(path, token));
    expect(cold.lookups).toBe(1);
    const text = await cold.response.text();
    const warm = await countingLookups(() => visit(path, token));
    expect(warm.lookups).toBe(0);
    expect(await warm.response.text()).toBe(text);
    expect(warm.response.headers.get("etag")).toBe(cold.response.headers.get("etag"));
    expect(warm.response.headers.get("cache-control")).toBe("public, max-age=30, s-maxage=30");
    const revalidated = await countingLookups(() =>
      visit(path, token, { "if-none-match": cold.response.headers.get("etag")! }),
    );
    expect(revalidated.response.status).toBe(304);
    expect(revalidated.lookups).toBe(0);
  });

  it("keeps to the generation: once it moves, the isolate's copy is not served and the read is built afresh", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    expect((await roomBody(await visit(path, token))).title).toBe("Winter Room");
    await patch(`/gallery/viewing-rooms/${room.id}`, g, { title: "Spring Room" });
    // Until the pass moves the generation, the copy built before the change is what the data center serves too.
    expect((await roomBody(await visit(path, token))).title).toBe("Winter Room");
    await renew();
    const fresh = await countingLookups(() => visit(path, token));
    expect(fresh.lookups).toBe(1);
    expect((await roomBody(fresh.response)).title).toBe("Spring Room");
  });
});

describe("the public room read: ETag, 304 and Cache-Control", () => {
  it("carries a strong ETag (the body's SHA-256), stable across reads, and public Cache-Control", async () => {
    const room = await openRoom(g);
    const first = await visit(`/public/viewing-rooms/${room.slug}`, token);
    const text = await first.text();
    expect(first.status).toBe(200);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    expect(first.headers.get("etag")).toBe(`"${base64url(new Uint8Array(digest))}"`);
    expect(first.headers.get("cache-control")).toBe("public, max-age=30, s-maxage=30");
    expect(first.headers.get("vary")).toBe("Authorization");
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    const second = await visit(`/public/viewing-rooms/${room.slug}`, token);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await second.text()).toBe(text);
    const body = JSON.parse(text) as PublicRoomBody;
    expect(body.artworks.map((a) => [a.title, a.price?.price_cents ?? null, a.price_on_request])).toEqual([
      ["Harbour at Dusk", 1_250_000, false],
      ["Quiet Field", null, true],
    ]);
  });

  it("answers a matching If-None-Match with 304, no body, the ETag and Cache-Control; another tag with 200", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    const etag = (await visit(path, token)).headers.get("etag")!;
    for (const tags of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const response = await visit(path, token, { "if-none-match": tags });
      expect(response.status, tags).toBe(304);
      expect(await response.text()).toBe("");
      expect(response.headers.get("etag")).toBe(etag);
      expect(response.headers.get("cache-control")).toBe("public, max-age=30, s-maxage=30");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
    }
    const other = await visit(path, token, { "if-none-match": '"something-else"' });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).toBe(etag);
  });

  it("answers 304 on a cold read too, when the tag matches what the database builds", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    const etag = (await visit(path, token)).headers.get("etag")!;
    // A new generation: the next read is built from the database again.
    await seedEvent(g.id, { type: "viewing_room.updated", created_at: new Date().toISOString() });
    await renew();
    expect((await visit(path, token, { "if-none-match": etag })).status).toBe(304);
  });

  it("keeps secret-key reads no-store, without ETag", async () => {
    const room = await openRoom(g);
    const response = await call("GET", `/gallery/viewing-rooms/${room.id}`, { key: g.key });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("etag")).toBeNull();
  });

  it("never answers a problem from the cache nor with public caching", async () => {
    const response = await visit("/public/viewing-rooms/no-such-room", token);
    await expectProblem(response, 404, "not_found");
    expect(response.headers.get("etag")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps each gallery's answer apart, for the same slug", async () => {
    const other = await createGallery();
    const otherToken = await mintKey(other.id, PUBLISHABLE_SCOPES, "publishable");
    const slug = `same-${crypto.randomUUID().slice(0, 8)}`;
    await openRoom(g, { slug, title: "Ours" });
    await openRoom(other, { slug, title: "Theirs" });
    expect((await roomBody(await visit(`/public/viewing-rooms/${slug}`, token))).title).toBe("Ours");
    expect((await roomBody(await visit(`/public/viewing-rooms/${slug}`, otherToken))).title).toBe("Theirs");
    expect((await roomBody(await visit(`/public/viewing-rooms/${slug}`, token))).title).toBe("Ours");
  });

  it("shares one entry between orders of the same query on the list, and caches the list", async () => {
    const gallery = await createGallery();
    const listToken = await mintKey(gallery.id, PUBLISHABLE_SCOPES, "publishable");
    await openRoom(gallery);
    const first = await visit("/public/viewing-rooms?limit=5&dir=desc", listToken);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=30, s-maxage=30");
    // A room added without the invalidation pass is not listed yet: the list is answered from the cache.
    await openRoom(gallery);
    const reordered = await visit("/public/viewing-rooms?dir=desc&limit=5", listToken);
    expect(reordered.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(((await reordered.json()) as { data: unknown[] }).data).toHaveLength(1);
    await renew();
    const renewed = await visit("/public/viewing-rooms?dir=desc&limit=5", listToken);
    expect(((await renewed.json()) as { data: unknown[] }).data).toHaveLength(2);
  });
});

describe("a warm read makes no database round trip", () => {
  it("answers from the cache while the database cannot be reached, and only then", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    const warm = await visit(path, token);
    const etag = warm.headers.get("etag");
    const unreachable = { ...env, ...DOWN_DATABASE };
    const fromCache = await visit(path, token, {}, unreachable);
    expect(fromCache.status).toBe(200);
    expect(fromCache.headers.get("etag")).toBe(etag);
    // The same database-less Worker cannot build a read it has not cached: 503, retry later (and it logs why).
    const other = await openRoom(g);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const cold = await visit(`/public/viewing-rooms/${other.slug}`, token, {}, unreachable);
    expect(cold.status).toBe(503);
    expect(cold.headers.get("retry-after")).toBe("5");
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it("still answers a room deleted behind the API's back until an event moves the generation", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    // The room's creation is an event: its pass first, so the entry below is filled under the latest generation.
    await renew();
    await visit(path, token);
    // No event: nothing tells the cache.
    await db().execute(sql`delete from viewing_rooms where id = ${room.id}`);
    expect((await visit(path, token)).status).toBe(200);
    await renew();
    expect((await visit(path, token)).status).toBe(200);
    // The outbox event is what invalidates.
    await seedEvent(g.id, { type: "viewing_room.deleted", created_at: new Date().toISOString() });
    await renew();
    await expectProblem(await visit(path, token), 404, "not_found");
  });
});

describe("invalidation driven by the outbox events", () => {
  it("shows a work sold (artwork.updated) after the pass, and not before", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    expect((await roomBody(await visit(path, token))).artworks[0]!.availability).toBe("available");
    await patch(`/gallery/artworks/${room.priced}`, g, { availability_state: "sold" });
    expect((await roomBody(await visit(path, token))).artworks[0]!.availability).toBe("available");
    await renew();
    expect((await roomBody(await visit(path, token))).artworks[0]!.availability).toBe("sold");
  });

  it("shows a new price (artwork.price_changed)", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    await visit(path, token);
    await patch(`/gallery/artworks/${room.priced}`, g, { price_cents: 1_400_000 });
    await renew();
    expect((await roomBody(await visit(path, token))).artworks[0]!.price).toEqual({
      price_cents: 1_400_000,
      currency: "USD",
    });
  });

  it("drops a deleted work (artwork.deleted)", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    await visit(path, token);
    expect((await call("DELETE", `/gallery/artworks/${room.onRequest}`, { key: g.key })).status).toBe(200);
    await renew();
    expect((await roomBody(await visit(path, token))).artworks.map((a) => a.id)).toEqual([room.priced]);
  });

  it("follows the room's own changes (viewing_room.updated): title, visibility, close time", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    await visit(path, token);
    await patch(`/gallery/viewing-rooms/${room.id}`, g, { title: "Spring Room" });
    await renew();
    expect((await roomBody(await visit(path, token))).title).toBe("Spring Room");
    await patch(`/gallery/viewing-rooms/${room.id}`, g, { visibility: "private" });
    await renew();
    await expectProblem(await visit(path, token), 404, "not_found");

    const closing = await openRoom(g);
    const closingPath = `/public/viewing-rooms/${closing.slug}`;
    await visit(closingPath, token);
    await patch(`/gallery/viewing-rooms/${closing.id}`, g, {
      closes_at: new Date(Date.now() - 60_000).toISOString(),
    });
    await renew();
    await expectProblem(await visit(closingPath, token), 404, "not_found");
  });

  it("follows a room's deletion (viewing_room.deleted)", async () => {
    const room = await openRoom(g);
    const path = `/public/viewing-rooms/${room.slug}`;
    await visit(path, token);
    expect((await call("DELETE", `/gallery/viewing-rooms/${room.id}`, { key: g.key })).status).toBe(200);
    await renew();
    await expectProblem(await visit(path, token), 404, "not_found");
  });

  it("moves the gallery's generation for every event kind that changes a public room, and for no other", async () => {
    const gallery = await createGallery();
    const key = generationKey(gallery.id);
    const now = () => new Date().toISOString();
    for (const type of ["viewing_room.created", "viewing_room.updated", ...PUBLIC_SURFACE_EVENT_TYPES]) {
      const id = await seedEvent(gallery.id, { type, created_at: now() });
      await renew();
      expect(await env.EDGE_KV.get(key), type).toBe(id);
    }
    const before = await env.EDGE_KV.get(key);
    for (const type of ["contact.created", "sale.created", "artwork.created", "invoice.paid"]) {
      await seedEvent(gallery.id, { type, created_at: now() });
    }
    await renew();
    expect(await env.EDGE_KV.get(key)).toBe(before);
  });

  it("writes a generation once: a repeated pass renews nothing, and events past the window are not read", async () => {
    const gallery = await createGallery();
    await seedEvent(gallery.id, { type: "artwork.updated", created_at: new Date().toISOString() });
    await renew();
    const key = generationKey(gallery.id);
    const ours = await env.EDGE_KV.get(key);
    expect(ours).not.toBeNull();
    const written: string[] = [];
    const kv = env.EDGE_KV;
    const counting = {
      get: (k: string) => kv.get(k),
      put: (k: string, value: string, options?: KVNamespacePutOptions) => {
        written.push(k);
        return kv.put(k, value, options);
      },
    } as unknown as KVNamespace;
    await renewPublicGenerations({ ...env, EDGE_KV: counting });
    expect(written).not.toContain(key);
    expect(await kv.get(key)).toBe(ours);

    const old = await createGallery();
    await seedEvent(old.id, {
      type: "artwork.updated",
      created_at: new Date(Date.now() - 3_600_000).toISOString(),
    });
    await renew();
    expect(await env.EDGE_KV.get(generationKey(old.id))).toBeNull();
  });

  it("reads the outbox through its partial index", async () => {
    const [, plan] = await db().batch([
      db().execute(sql`set local enable_seqscan = off`),
      db().execute<{ "QUERY PLAN": string }>(
        sql`explain select gallery_id, max(id) from domain_events where ${sql.raw(PUBLIC_SURFACE_EVENT_CONDITION)}
          and created_at > now() - interval '10 minutes' group by gallery_id`,
      ),
    ]);
    expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain(
      "domain_events_public_surface_idx",
    );
  });
});

describe("never a closed room", () => {
  it("tells no cache to keep a room past its close, and keeps it no longer itself", async () => {
    const room = await openRoom(g, { closes_at: new Date(Date.now() + 10_000).toISOString() });
    const response = await visit(`/public/viewing-rooms/${room.slug}`, token);
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(0);
    expect(maxAge).toBeLessThanOrEqual(10);
  });

  it("does not serve a cached room once its closes_at has passed", async () => {
    // The real clock, not a faked one: other test files run in this isolate at the same time, and a faked Date
    // would move theirs too. A close a few seconds ahead, then a wait past it.
    const closesAt = Date.now() + 5_000;
    const room = await openRoom(g, { closes_at: new Date(closesAt).toISOString() });
    const path = `/public/viewing-rooms/${room.slug}`;
    await visit(path, token);
    // Gone from the database without an event: before the close, only the cache can still answer.
    await db().execute(sql`delete from viewing_rooms where id = ${room.id}`);
    expect((await visit(path, token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, closesAt + 1_000 - Date.now())));
    await expectProblem(await visit(path, token), 404, "not_found");
  });

  it("answers a room as soon as it opens: a 404 is never cached", async () => {
    const room = await openRoom(g, { visibility: "private" });
    const path = `/public/viewing-rooms/${room.slug}`;
    await expectProblem(await visit(path, token), 404, "not_found");
    await patch(`/gallery/viewing-rooms/${room.id}`, g, { visibility: "public" });
    expect((await visit(path, token)).status).toBe(200);
  });
});

describe("helpers", () => {
  it("orders query parameters by name, keeping the order of one name's values", () => {
    expect(canonicalQuery(new URL("https://x.test/p?sort=created&b=2&a=1&b=1"))).toBe(
      "a=1&b=2&b=1&sort=created",
    );
    expect(canonicalQuery(new URL("https://x.test/p"))).toBe("");
  });

  it("matches If-None-Match by weak comparison", () => {
    expect(noneMatch('"a"', '"a"')).toBe(true);
    expect(noneMatch('W/"a"', '"a"')).toBe(true);
    expect(noneMatch('"b", "a"', '"a"')).toBe(true);
    expect(noneMatch("*", '"a"')).toBe(true);
    expect(noneMatch('"b"', '"a"')).toBe(false);
    expect(noneMatch(undefined, '"a"')).toBe(false);
    expect(noneMatch("a", '"a"')).toBe(false);
  });
});
