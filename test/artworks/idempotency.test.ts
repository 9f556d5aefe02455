import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Artwork } from "../../lib/schemas/artworks";
import { call, createGallery, readJson } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { countRows, outboxEvents } from "../helpers/seed";
import { activity, create, forgetCachedResponse, getArtwork, patch } from "./helpers";

/** Idempotency-Key on the artwork writes: replays, reuse, concurrency, and replays from the database. */

describe("Idempotency-Key", () => {
  it("same key and body: the stored response replayed with Idempotent-Replayed: true; one artwork, one event", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "create-once-1" };
    const first = await call("POST", "/gallery/artworks", {
      key: g.key,
      body: { title: "Once", price_cents: 1, currency: "USD" },
      headers,
    });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const firstBody = await first.json();
    for (let i = 0; i < 2; i++) {
      const again = await call("POST", "/gallery/artworks", {
        key: g.key,
        // Same JSON with its keys in another order is the same request.
        body:
          i === 0
            ? { title: "Once", price_cents: 1, currency: "USD" }
            : { currency: "USD", price_cents: 1, title: "Once" },
        headers,
      });
      expect(again.status).toBe(201);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(again.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await again.json()).toEqual(firstBody);
    }
    expect(await countRows("artworks", g.id)).toBe(1);
    expect((await outboxEvents(g.id)).map((e) => e.type)).toEqual(["artwork.created"]);
    expect(await countRows("idempotency_keys", g.id)).toBe(1);
  });

  it("replays from the database when the edge cache does not have the response", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "create-db-replay" };
    const first = await create(g, { title: "Db replay" }, headers);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("POST", "/gallery/artworks", {
      key: g.key,
      body: { title: "Db replay" },
      headers,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    expect(await countRows("artworks", g.id)).toBe(1);
    const reused = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Other" }, headers });
    await expectProblem(reused, 400, "idempotency_key_reused");
  });

  it("same key, different body → 400 idempotency_key_reused, nothing written", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "reuse-me" };
    await create(g, { title: "First" }, headers);
    const res = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Second" }, headers });
    const problem = await expectProblem(res, 400, "idempotency_key_reused", {
      field: "Idempotency-Key",
      location: "header",
    });
    expect(problem.retry).toBe("permanent");
    expect(await countRows("artworks", g.id)).toBe(1);
    expect(await outboxEvents(g.id)).toHaveLength(1);
  });

  it("the same key on another operation is a reuse too", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "cross-op" };
    const work = await create(g, { title: "Target" }, headers);
    const res = await patch(g, work.id, { title: "Target" }, headers);
    await expectProblem(res, 400, "idempotency_key_reused");
  });

  it("a request that fails validation does not consume its key", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "after-a-400" };
    await expectProblem(
      await call("POST", "/gallery/artworks", { key: g.key, body: {}, headers }),
      400,
      "invalid_request",
    );
    const res = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Valid" }, headers });
    expect(res.status).toBe(201);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("rejects a malformed key", async () => {
    const g = await createGallery();
    // DEL is outside visible ASCII like any non-ASCII character, which workerd would warn about when sent.
    for (const key of ["has space", "x".repeat(256), "key\u007f"]) {
      const res = await call("POST", "/gallery/artworks", {
        key: g.key,
        body: { title: "x" },
        headers: { "Idempotency-Key": key },
      });
      await expectProblem(res, 400, "invalid_request", { field: "Idempotency-Key", location: "header" });
    }
    expect(await countRows("artworks", g.id)).toBe(0);
  });

  it("50 concurrent identical POSTs with one key: one artwork, one event, fifty 201s with the same id", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "stampede" };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        call("POST", "/gallery/artworks", {
          key: g.key,
          body: { title: "Stampede", price_cents: 42, currency: "USD" },
          headers,
        }),
      ),
    );
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(
      responses.map((r) => r.status),
      bodies.find((b) => !b.includes("art_")),
    ).toEqual(Array(50).fill(201));
    const ids = new Set(bodies.map((b) => (JSON.parse(b) as { id: string }).id));
    expect(ids.size).toBe(1);
    expect(new Set(bodies.map((b) => JSON.stringify(JSON.parse(b)))).size).toBe(1);
    expect(responses.filter((r) => r.headers.get("Idempotent-Replayed") === "true")).toHaveLength(49);
    expect(await countRows("artworks", g.id)).toBe(1);
    const events = await outboxEvents(g.id);
    expect(events.map((e) => [e.type, e.resource_id])).toEqual([["artwork.created", [...ids][0]]]);
    expect(await activity([...ids][0]!)).toHaveLength(1);
  });

  it("keys are per gallery: another gallery may use the same key for its own request", async () => {
    const g1 = await createGallery();
    const g2 = await createGallery();
    const headers = { "Idempotency-Key": "shared-key" };
    const one = await create(g1, { title: "Shared" }, headers);
    const res = await call("POST", "/gallery/artworks", { key: g2.key, body: { title: "Shared" }, headers });
    expect(res.status).toBe(201);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    const two = await readJson(Artwork, res);
    expect(two.id).not.toBe(one.id);
    expect(await countRows("artworks", g1.id)).toBe(1);
    expect(await countRows("artworks", g2.id)).toBe(1);
    expect(await getArtwork(g2, two.id)).toEqual(two);
  });

  it("PATCH and DELETE replay too", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Replayable", price_cents: 1, currency: "USD" });
    const patchHeaders = { "Idempotency-Key": "patch-once" };
    const first = await patch(g, work.id, { price_cents: 2 }, patchHeaders);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    const again = await patch(g, work.id, { price_cents: 2 }, patchHeaders);
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "artwork.price_changed")).toHaveLength(1);

    const deleteHeaders = { "Idempotency-Key": "delete-once" };
    const del = await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key, headers: deleteHeaders });
    expect(del.status).toBe(200);
    const delAgain = await call("DELETE", `/gallery/artworks/${work.id}`, {
      key: g.key,
      headers: deleteHeaders,
    });
    expect(delAgain.status).toBe(200);
    expect(delAgain.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await delAgain.json()).toEqual({ id: work.id, deleted: true });
    expect((await outboxEvents(g.id)).filter((e) => e.type === "artwork.deleted")).toHaveLength(1);
  });
});

describe("Idempotency-Key replay of PATCH and DELETE from the database", () => {
  // The edge cache is only a fast path: after it loses a response, the Postgres claim must still answer.
  it("PATCH: a retry replays the stored response instead of re-running as a no-op", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Replayable", price_cents: 1, currency: "USD" });
    const headers = { "Idempotency-Key": "patch-db-replay" };
    const first = await patch(g, work.id, { price_cents: 2 }, headers);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await patch(g, work.id, { price_cents: 2 }, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(firstBody);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("PATCH: the same key with a different body is refused even when the new body would be a no-op", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Replayable", price_cents: 1, currency: "USD" });
    const headers = { "Idempotency-Key": "patch-db-reuse" };
    expect((await patch(g, work.id, { price_cents: 2 }, headers)).status).toBe(200);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    await expectProblem(
      await patch(g, work.id, { title: "Replayable" }, headers),
      400,
      "idempotency_key_reused",
    );
  });

  it("DELETE: a retry replays {id, deleted: true} instead of answering 404", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Doomed" });
    const headers = { "Idempotency-Key": "delete-db-replay" };
    expect((await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key, headers })).status).toBe(200);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key, headers });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id: work.id, deleted: true });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("DELETE: the key of a finished delete cannot be reused for another artwork, present or gone", async () => {
    const g = await createGallery();
    const first = await create(g, { title: "First" });
    const second = await create(g, { title: "Second" });
    const headers = { "Idempotency-Key": "delete-reuse" };
    expect((await call("DELETE", `/gallery/artworks/${first.id}`, { key: g.key, headers })).status).toBe(200);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    for (const target of [second.id, newId("art")]) {
      const res = await call("DELETE", `/gallery/artworks/${target}`, { key: g.key, headers });
      await expectProblem(res, 400, "idempotency_key_reused");
    }
    expect(await getArtwork(g, second.id)).toEqual(second);
  });

  it("DELETE of an artwork that never existed stays a 404 on every retry and consumes no key", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": "delete-missing" };
    const missing = newId("art");
    for (let i = 0; i < 2; i++) {
      const res = await call("DELETE", `/gallery/artworks/${missing}`, { key: g.key, headers });
      await expectProblem(res, 404, "not_found");
    }
    expect(await countRows("idempotency_keys", g.id)).toBe(0);
  });

  it("PATCH: a keyed no-op is recorded like any write, so its retry replays it", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Unchanged" });
    const headers = { "Idempotency-Key": "noop-keyed" };
    const first = await patch(g, work.id, { title: "Unchanged" }, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await first.json()).toEqual(work);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await patch(g, work.id, { title: "Unchanged" }, headers);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(work);
    expect((await outboxEvents(g.id)).map((e) => e.type)).toEqual(["artwork.created"]);
  });
});
