import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  createGalleryClient,
  GalleryApiError,
  type GalleryClient,
  verifyWebhook,
  WebhookVerificationError,
} from "../../clients/typescript/src/index";
import { webhookHeaders } from "../../lib/webhook-signing";

/**
 * The typed client (clients/typescript/) against the API Worker under `wrangler dev` (the live stack of
 * test/browser/global-setup.ts), in the suite's own empty gallery: every call here is a real request.
 */

const { api, secretKey } = inject("client");

/** Every request the client sends, in order: the fetch it is given observes them and sends them as they are. */
interface Sent {
  method: string;
  url: URL;
  idempotencyKey: string | null;
  status: number;
  replayed: boolean;
}

function observedClient(options: { dropFirstResponse?: boolean } = {}): {
  client: GalleryClient;
  sent: Sent[];
} {
  const sent: Sent[] = [];
  let drop = options.dropFirstResponse ?? false;
  const client = createGalleryClient({
    apiKey: secretKey,
    baseUrl: api,
    fetch: async (request) => {
      const response = await fetch(request);
      sent.push({
        method: request.method,
        url: new URL(request.url),
        idempotencyKey: request.headers.get("idempotency-key"),
        status: response.status,
        replayed: response.headers.get("idempotent-replayed") === "true",
      });
      if (drop) {
        // The server did the work; the answer is lost on the way back, as when a connection resets.
        drop = false;
        await response.arrayBuffer();
        throw new TypeError("fetch failed");
      }
      return response;
    },
  });
  return { client, sent };
}

describe("the typed client against the live API", () => {
  const created: string[] = [];

  beforeAll(async () => {
    const { client } = observedClient();
    for (const n of [1, 2, 3, 4, 5]) {
      const { data } = await client.POST("/gallery/artworks", {
        body: { title: `Client study ${n}`, price_cents: 100_000 * n, currency: "USD" },
      });
      created.push(data.id);
    }
  });

  it("walks a list over every page by following next_cursor", async () => {
    const { client, sent } = observedClient();
    const titles: string[] = [];
    const ids: string[] = [];
    for await (const artwork of client.paginate("/gallery/artworks", {
      params: { query: { limit: 2, sort: "price", dir: "asc" } },
    })) {
      ids.push(artwork.id);
      titles.push(artwork.title);
    }
    expect(ids).toEqual(created);
    expect(titles).toEqual([1, 2, 3, 4, 5].map((n) => `Client study ${n}`));
    // Three pages of 2, 2 and 1: the first without a cursor, the next two with the previous page's.
    expect(sent.map((s) => s.url.searchParams.has("cursor"))).toEqual([false, true, true]);
    expect(sent.every((s) => s.url.searchParams.get("limit") === "2" && s.idempotencyKey === null)).toBe(
      true,
    );
  });

  it("gives every write its own Idempotency-Key, and a retry after a lost answer replays it", async () => {
    const { client, sent } = observedClient({ dropFirstResponse: true });
    const { data, response } = await client.POST("/gallery/artworks", {
      body: { title: "Lost answer", price_cents: 50_000, currency: "USD" },
    });
    // Sent twice with one key: the first created the work, the second was answered from the stored response.
    expect(sent).toHaveLength(2);
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(sent.map((s) => [s.status, s.replayed])).toEqual([
      [201, false],
      [201, true],
    ]);
    expect(response.headers.get("idempotent-replayed")).toBe("true");
    const { client: reader } = observedClient();
    const works = [];
    for await (const work of reader.paginate("/gallery/artworks", {
      params: { query: { q: "Lost answer" } },
    })) {
      works.push(work.id);
    }
    expect(works).toEqual([data.id]);

    // Two writes of the same body are two writes: each call draws a new key.
    const second = await client.POST("/gallery/tags", { body: { name: "Client tag A", scope: "artwork" } });
    const third = await client.PATCH("/gallery/tags/{id}", {
      params: { path: { id: second.data.id } },
      body: { name: "Client tag B" },
    });
    expect(third.data.name).toBe("Client tag B");
    const keys = sent.slice(2).map((s) => s.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set([sent[0]?.idempotencyKey, ...keys]).size).toBe(3);
  });

  it("sends the caller's own Idempotency-Key instead, and the same key replays", async () => {
    const { client, sent } = observedClient();
    const key = `client-suite-${Date.now()}`;
    const send = () =>
      client.POST("/gallery/artworks", {
        body: { title: "Keyed once", currency: "USD" },
        headers: { "Idempotency-Key": key },
      });
    const first = await send();
    const again = await send();
    expect(again.data.id).toBe(first.data.id);
    expect(sent.map((s) => [s.idempotencyKey, s.replayed])).toEqual([
      [key, false],
      [key, true],
    ]);
  });

  it("throws a 404 as a typed problem", async () => {
    const { client } = observedClient();
    const error = await client
      .GET("/gallery/artworks/{id}", { params: { path: { id: "art_0000000000000000000000000" } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GalleryApiError);
    const problem = error as GalleryApiError;
    expect(problem.status).toBe(404);
    expect(problem.code).toBe("not_found");
    expect(problem.retry).toBe("permanent");
    expect(problem.requestId).toMatch(/\S/);
    expect(problem.instance).toBe("/v1/gallery/artworks/art_0000000000000000000000000");
  });

  it("throws a 400 with its code and the field issues in details, and does not send it again", async () => {
    const { client, sent } = observedClient();
    const error = await client
      .POST("/gallery/artworks", { body: { title: "Negative", price_cents: -1, currency: "USD" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GalleryApiError);
    const problem = error as GalleryApiError;
    expect(problem.status).toBe(400);
    expect(problem.code).toBe("invalid_request");
    expect(problem.retry).toBe("permanent");
    expect(problem.details).toEqual(problem.fieldIssues);
    expect(problem.fieldIssues).toEqual([
      expect.objectContaining({ location: "body", field: "price_cents" }),
    ]);
    expect(sent).toHaveLength(1);
  });

  it("throws a 429 with its Retry-After at once when the delay is longer than it waits for", async () => {
    const { client, sent } = observedClient();
    // Sign-in allows 5 attempts a minute per email; the next is refused with `Retry-After: 60`, beyond the
    // client's default 30 s, so it is thrown rather than waited for. The limiter counts in fixed minutes, so
    // attempts that straddle a minute's end may get 5 more before the refusal: at most 11 are made.
    const email = `nobody-${Date.now()}@client-suite.example`;
    const attempts: unknown[] = [];
    while (attempts.length < 11) {
      const e = await client
        .POST("/auth/sessions", { body: { email, password: "not the password" } })
        .catch((x) => x);
      attempts.push(e);
      if ((e as GalleryApiError).code === "rate_limited") break;
    }
    const codes = attempts.map((e) => (e as GalleryApiError).code);
    expect(codes.at(-1)).toBe("rate_limited");
    expect(codes.length).toBeGreaterThanOrEqual(6);
    expect(codes.slice(0, -1).every((c) => c === "unauthenticated")).toBe(true);
    const limited = attempts.at(-1) as GalleryApiError;
    expect(limited.status).toBe(429);
    expect(limited.retry).toBe("after_delay");
    expect(limited.retryAfterSeconds).toBe(60);
    // Neither the 401s (permanent) nor the 429 were sent again.
    expect(sent).toHaveLength(codes.length);
  });

  it("verifies a delivery signed as the cron Worker signs it, and refuses an altered one", async () => {
    const { client } = observedClient();
    const { data: endpoint } = await client.POST("/gallery/webhook-endpoints", {
      body: { url: "http://127.0.0.1:9/hooks", event_types: ["artwork.*"] },
    });
    const secret = endpoint.secret;
    if (!secret) throw new Error("a new endpoint's response carries its secret");
    const { data: events } = await client.GET("/gallery/events", {
      params: { query: { type: "artwork.created", limit: 1 } },
    });
    const event = events.data[0];
    if (!event) throw new Error("the suite's creates recorded artwork.created events");
    const body = JSON.stringify(event);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = await webhookHeaders({ id: event.id, timestamp, body, secrets: [secret] });

    const verified = verifyWebhook(secret, body, new Headers(headers));
    expect(verified.id).toBe(event.id);
    expect(verified.type).toBe("artwork.created");

    const altered = body.replace('"livemode":false', '"livemode":true');
    expect(altered).not.toBe(body);
    expect(() => verifyWebhook(secret, altered, headers)).toThrow(WebhookVerificationError);
    const otherSecret = `whsec_${btoa("another endpoint's secret, 32 b")}`;
    expect(() => verifyWebhook(otherSecret, body, headers)).toThrow(WebhookVerificationError);
    const stale = await webhookHeaders({ id: event.id, timestamp: timestamp - 600, body, secrets: [secret] });
    expect(() => verifyWebhook(secret, body, stale)).toThrow(WebhookVerificationError);
  });
});
