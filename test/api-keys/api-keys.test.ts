import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordApiKeyUse } from "../../db/queries/api-keys";
import { sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { hashPassword } from "../../lib/password";
import { ApiKey, CreatedApiKey } from "../../lib/schemas/api-keys";
import { CreatedSession } from "../../lib/schemas/auth";
import { call, createGallery, db, json, readJson } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import type { ProblemBody } from "../helpers/problem";

/** A key as the API shows it; `secret` is set (once) only in the create response. */
type CreatedKeyBody = z.infer<typeof CreatedApiKey>;
type ApiKeyBody = z.infer<typeof ApiKey>;

async function createKey(key: string, request: unknown, headers: Record<string, string> = {}) {
  const response = await call("POST", "/gallery/api-keys", { key, body: request, headers });
  // A refused create answers a problem: its fields are there to assert on, beside the key's.
  const body: CreatedKeyBody & Partial<ProblemBody> = await readJson(CreatedApiKey, response);
  return { response, body };
}

async function sessionFor(galleryId: string, role: "editor" | "viewer"): Promise<string> {
  const id = newId("mem");
  const password = `pw-${crypto.randomUUID()}`;
  await db().execute(sql`insert into members (id, gallery_id, email, name, role, password_hash)
    values (${id}, ${galleryId}, ${`${id}@gallery.example`}, 'M', ${role}, ${await hashPassword(password)})`);
  const response = await call("POST", "/auth/sessions", {
    body: { email: `${id}@gallery.example`, password },
  });
  return (await readJson(CreatedSession, response)).token;
}

const listScopes = ["artworks:read", "artists:read"];

/** The keys this file minted through the API: createGallery's own key is named `test`. */
async function mintedKeys(key: string): Promise<ApiKeyBody[]> {
  const page = await readJson(pageOf(ApiKey), await call("GET", "/gallery/api-keys", { key }));
  return page.data.filter((k) => k.name !== "test");
}

describe("POST /gallery/api-keys", () => {
  it("returns the secret once; lists and reads never show it; the key works", async () => {
    const g = await createGallery();
    const { response, body } = await createKey(g.key, { name: "Website sync", scopes: listScopes });
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({
      id: expect.stringMatching(/^key_/),
      name: "Website sync",
      kind: "secret",
      prefix: body.secret!.slice(0, 12),
      scopes: listScopes,
      last_used_at: null,
      revoked_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      secret: expect.stringMatching(/^gpk_[A-Za-z0-9_-]{32}$/),
    });
    const secret = body.secret!;

    const list = await call("GET", "/gallery/api-keys", { key: g.key });
    const listText = await list.text();
    expect(list.status).toBe(200);
    expect(listText).not.toContain(secret);
    const page = pageOf(ApiKey).parse(JSON.parse(listText));
    const listed = page.data.find((k) => k.id === body.id);
    const { secret: _secret, ...withoutSecret } = body;
    expect(listed).toEqual(withoutSecret);
    expect(page.data.every((k) => !("secret" in k))).toBe(true);

    const one = await call("GET", `/gallery/api-keys/${body.id}`, { key: g.key });
    expect(await json(one)).toEqual(withoutSecret);

    const stored = await db().execute<{ key_hash: string }>(
      sql`select key_hash from api_keys where id = ${body.id}`,
    );
    expect(stored.rows).toEqual([{ key_hash: await sha256Hex(secret) }]);

    const used = await call("GET", "/gallery/artworks", { key: secret });
    expect(used.status).toBe(200);
    const beyond = await call("POST", "/gallery/artworks", { key: secret, body: { title: "x" } });
    expect(beyond.status).toBe(403);
  });

  it("records api_key.created without the secret", async () => {
    const g = await createGallery();
    const { body } = await createKey(g.key, { name: "Events", scopes: ["events:read"] });
    const events = await call("GET", "/gallery/events?type=api_key.created", { key: g.key });
    const text = await events.text();
    expect(text).not.toContain(body.secret!);
    const page = JSON.parse(text) as { data: { resource_id: string; data: { object: ApiKeyBody } }[] };
    const event = page.data.find((e) => e.resource_id === body.id);
    expect(event?.data.object.id).toBe(body.id);
    expect(event?.data.object.scopes).toEqual(["events:read"]);
  });

  it("mints publishable tokens holding exactly viewing_rooms:read", async () => {
    const g = await createGallery();
    const { response, body } = await createKey(g.key, { name: "Site", kind: "publishable" });
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.kind).toBe("publishable");
    expect(body.secret).toMatch(/^gpub_/);
    expect(body.scopes).toEqual(["viewing_rooms:read"]);
    const explicit = await createKey(g.key, {
      name: "Site",
      kind: "publishable",
      scopes: ["viewing_rooms:read"],
    });
    expect(explicit.response.status).toBe(201);
    const wider = await createKey(g.key, {
      name: "Site",
      kind: "publishable",
      scopes: ["viewing_rooms:read", "artworks:read"],
    });
    expect(wider.response.status).toBe(400);
    expect(wider.body.details).toEqual([
      {
        location: "body",
        field: "scopes",
        message: "of a publishable token must be exactly `viewing_rooms:read`",
      },
    ]);
    const asKey = await call("GET", "/gallery/artworks", { key: body.secret! });
    expect(asKey.status).toBe(403);
  });

  it("names each unknown or repeated scope, and requires scopes for a secret key", async () => {
    const g = await createGallery();
    const unknown = await createKey(g.key, {
      name: "x",
      scopes: ["artworks:read", "artworks:fly", "artworks:read"],
    });
    expect(unknown.response.status).toBe(400);
    expect(unknown.body.code).toBe("invalid_request");
    expect(unknown.body.detail).toContain("artworks:fly");
    expect(unknown.body.details).toEqual([
      { location: "body", field: "scopes.1", message: "names an unknown scope `artworks:fly`" },
      { location: "body", field: "scopes.2", message: "repeats the scope `artworks:read`" },
    ]);
    const none = await createKey(g.key, { name: "x" });
    expect(none.response.status).toBe(400);
    expect(none.body.details).toEqual([
      { location: "body", field: "scopes", message: "is required for a secret key" },
    ]);
    const extra = await createKey(g.key, { name: "x", scopes: ["events:read"], expires_at: null });
    expect(extra.response.status).toBe(400);
    expect(extra.body.details).toEqual([
      { location: "body", field: "expires_at", message: "is not a known field" },
    ]);
    expect(await mintedKeys(g.key)).toEqual([]);
  });

  it("lets a read-only key create nothing", async () => {
    const g = await createGallery();
    const readOnly = await g.keyWith(["api_keys:read", "artworks:read"]);
    const { response, body } = await createKey(readOnly, { name: "x", scopes: ["artworks:read"] });
    expect(response.status).toBe(403);
    expect(body.code).toBe("forbidden");
    expect(body.details).toMatchObject({ missing_scopes: ["api_keys:create"] });
  });

  it("refuses to grant scopes the caller does not hold", async () => {
    const g = await createGallery();
    const minter = await g.keyWith(["api_keys:create", "artworks:read"]);
    const within = await createKey(minter, { name: "ok", scopes: ["artworks:read"] });
    expect(within.response.status).toBe(201);
    const beyond = await createKey(minter, { name: "no", scopes: ["artworks:read", "artworks:delete"] });
    expect(beyond.response.status).toBe(403);
    expect(beyond.body.details).toEqual({ ungrantable_scopes: ["artworks:delete"] });
    const publishable = await createKey(minter, { name: "no", kind: "publishable" });
    expect(publishable.response.status).toBe(403);
  });

  it("lets an editor session mint keys and refuses a viewer session", async () => {
    const g = await createGallery();
    const editor = await createKey(await sessionFor(g.id, "editor"), { name: "e", scopes: listScopes });
    expect(editor.response.status).toBe(201);
    const viewer = await createKey(await sessionFor(g.id, "viewer"), { name: "v", scopes: listScopes });
    expect(viewer.response.status).toBe(403);
    expect(viewer.body.details).toMatchObject({ missing_scopes: ["api_keys:create"] });
  });

  it("replays an Idempotency-Key retry with the same key and no secret", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await createKey(g.key, { name: "Retry", scopes: listScopes }, headers);
    expect(first.response.status).toBe(201);
    expect(first.body.secret).toMatch(/^gpk_/);
    const again = await createKey(g.key, { name: "Retry", scopes: listScopes }, headers);
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual({ ...first.body, secret: null });
    const stored = await db().execute<{ body: string }>(
      sql`select response_body::text as body from idempotency_keys where gallery_id = ${g.id}`,
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.body).not.toContain(first.body.secret!);
    const other = await createKey(g.key, { name: "Other", scopes: listScopes }, headers);
    expect(other.response.status).toBe(400);
    expect(other.body.code).toBe("idempotency_key_reused");
    expect((await mintedKeys(g.key)).map((k) => k.id)).toEqual([first.body.id]);
  });
});

describe("GET /gallery/api-keys", () => {
  it("pages newest first with a cursor bound to its sort and dir", async () => {
    const g = await createGallery();
    const ids: string[] = [];
    for (const name of ["a", "b", "c"]) {
      ids.push((await createKey(g.key, { name, scopes: ["events:read"] })).body.id);
    }
    const first = await readJson(
      pageOf(ApiKey),
      await call("GET", "/gallery/api-keys?limit=2", { key: g.key }),
    );
    // The gallery's own full-scope test key is the oldest.
    expect(first.data.map((k) => k.id)).toEqual([ids[2], ids[1]]);
    const second = await readJson(
      pageOf(ApiKey),
      await call("GET", `/gallery/api-keys?limit=2&cursor=${first.next_cursor}`, { key: g.key }),
    );
    expect(second.data.map((k) => k.id)[0]).toBe(ids[0]);
    expect(second.data).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    const reused = await call("GET", `/gallery/api-keys?limit=2&dir=asc&cursor=${first.next_cursor}`, {
      key: g.key,
    });
    expect(reused.status).toBe(400);
    expect((await json(reused)).code).toBe("invalid_request");
    const tooMany = await call("GET", "/gallery/api-keys?limit=101", { key: g.key });
    expect(tooMany.status).toBe(400);
  });
});

describe("DELETE /gallery/api-keys/{id}", () => {
  it("revokes a key so that its very next request is 401, though it was cached", async () => {
    const g = await createGallery();
    const { body: created } = await createKey(g.key, { name: "Doomed", scopes: listScopes });
    const secret = created.secret!;
    expect((await call("GET", "/gallery/artworks", { key: secret })).status).toBe(200);
    expect((await call("GET", "/gallery/artworks", { headers: { "x-api-key": secret } })).status).toBe(200);

    const revoke = await call("DELETE", `/gallery/api-keys/${created.id}`, { key: g.key });
    const revoked = await readJson(ApiKey, revoke);
    expect(revoke.status, JSON.stringify(revoked)).toBe(200);
    expect(revoked.id).toBe(created.id);
    expect(revoked.revoked_at).toEqual(expect.any(String));

    const after = await call("GET", "/gallery/artworks", { key: secret });
    expect(after.status).toBe(401);
    expect((await json(after)).code).toBe("unauthenticated");
    expect((await call("GET", "/gallery/artworks", { headers: { "x-api-key": secret } })).status).toBe(401);

    const listed = await readJson(pageOf(ApiKey), await call("GET", "/gallery/api-keys", { key: g.key }));
    expect(listed.data.find((k) => k.id === created.id)?.revoked_at).toBe(revoked.revoked_at);
    const again = await call("DELETE", `/gallery/api-keys/${created.id}`, { key: g.key });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(revoked);

    const events = await json<{ data: { resource_id: string; data: { object: ApiKeyBody } }[] }>(
      await call("GET", "/gallery/events?type=api_key.revoked", { key: g.key }),
    );
    expect(events.data.map((e) => e.resource_id)).toEqual([created.id]);
    expect(events.data[0]!.data.object.revoked_at).toBe(revoked.revoked_at);
  });

  it("lets a key revoke itself", async () => {
    const g = await createGallery();
    const { body } = await createKey(g.key, { name: "Self", scopes: ["api_keys:delete"] });
    const response = await call("DELETE", `/gallery/api-keys/${body.id}`, { key: body.secret! });
    expect(response.status).toBe(200);
    const retry = await call("DELETE", `/gallery/api-keys/${body.id}`, { key: body.secret! });
    expect(retry.status).toBe(401);
  });

  it("treats another gallery's key as missing", async () => {
    const mine = await createGallery();
    const theirs = await createGallery();
    const { body } = await createKey(theirs.key, { name: "Theirs", scopes: listScopes });
    const revoke = await call("DELETE", `/gallery/api-keys/${body.id}`, { key: mine.key });
    expect(revoke.status).toBe(404);
    expect((await json(revoke)).code).toBe("not_found");
    expect((await call("GET", `/gallery/api-keys/${body.id}`, { key: mine.key })).status).toBe(404);
    expect((await call("GET", "/gallery/artworks", { key: body.secret! })).status).toBe(200);
  });

  it("needs api_keys:delete", async () => {
    const g = await createGallery();
    const { body } = await createKey(g.key, { name: "Kept", scopes: listScopes });
    const reader = await g.keyWith(["api_keys:read", "api_keys:create"]);
    const response = await call("DELETE", `/gallery/api-keys/${body.id}`, { key: reader });
    expect(response.status).toBe(403);
    expect((await json<ProblemBody>(response)).details).toMatchObject({
      missing_scopes: ["api_keys:delete"],
    });
    expect((await call("GET", "/gallery/artworks", { key: body.secret! })).status).toBe(200);
  });
});

describe("last_used_at", () => {
  /** The key as the API shows it, once its recorded use has landed (the record is written after the answer). */
  async function readKey(adminKey: string, id: string, until: (k: ApiKeyBody) => boolean) {
    for (let attempt = 0; ; attempt++) {
      const key = await readJson(ApiKey, await call("GET", `/gallery/api-keys/${id}`, { key: adminKey }));
      if (until(key) || attempt >= 40) return key;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("is null until the key authenticates a request, then when it did (to the hour); a revoke still works", async () => {
    const g = await createGallery();
    const { body } = await createKey(g.key, { name: "Nightly export", scopes: listScopes });
    expect(body.last_used_at).toBeNull();
    const before = Date.now();
    const used = await call("GET", "/gallery/artworks?limit=1", { key: body.secret! });
    expect(used.status).toBe(200);
    const key = await readKey(g.key, body.id, (k) => k.last_used_at !== null);
    expect(key.last_used_at).not.toBeNull();
    expect(Math.abs(Date.parse(key.last_used_at!) - before)).toBeLessThan(60_000);
    // A refused request (a scope the key lacks) is still a use of the key; within the hour nothing is rewritten.
    await call("GET", "/gallery/contacts", { key: body.secret! });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await readKey(g.key, body.id, () => true)).last_used_at).toBe(key.last_used_at);
    // Recording a use leaves the key's own version alone: a revoke (a guarded write) goes through.
    expect((await call("DELETE", `/gallery/api-keys/${body.id}`, { key: g.key })).status).toBe(200);
    const revoked = await readKey(g.key, body.id, () => true);
    expect(revoked.revoked_at).not.toBeNull();
    expect(revoked.last_used_at).toBe(key.last_used_at);
  });

  it("an hour-old record is moved forward by the next use (the write is guarded by the stored time, not only by the isolate)", async () => {
    const g = await createGallery();
    const { body } = await createKey(g.key, { name: "Sync", scopes: listScopes });
    const stale = "2026-01-01T00:00:00.000Z";
    await db().execute(sql`update api_keys set last_used_at = ${stale} where id = ${body.id}`);
    await recordApiKeyUse(db(), body.id);
    const moved = await readKey(g.key, body.id, () => true);
    expect(Date.parse(moved.last_used_at!)).toBeGreaterThan(Date.parse(stale));
    // Within the hour, the statement writes nothing.
    const recent = new Date(Date.now() - 10 * 60_000).toISOString();
    await db().execute(sql`update api_keys set last_used_at = ${recent} where id = ${body.id}`);
    await recordApiKeyUse(db(), body.id);
    expect((await readKey(g.key, body.id, () => true)).last_used_at).toBe(recent);
  });
});
