import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { credentialCacheKey } from "../../lib/credentials";
import { sha256Hex } from "../../lib/crypto";
import { CreatedSession, CurrentSession } from "../../lib/schemas/auth";
import { Member } from "../../lib/schemas/members";
import { call, callJson, createGallery, json, readJson } from "../helpers/gallery";
import { createMember, type TestMember } from "../helpers/members";
import { pageOf } from "../helpers/pages";

async function signedIn(member: TestMember): Promise<string> {
  const response = await call("POST", "/auth/sessions", {
    body: { email: member.email, password: member.password },
  });
  expect(response.status).toBe(201);
  return (await readJson(CreatedSession, response)).token;
}

/**
 * A request with the session, then the credential cache entry it filled (the fill runs after the response):
 * the next request is answered from the cache, not the database.
 */
async function cachedSession(token: string) {
  expect((await call("GET", "/auth/sessions/current", { key: token })).status).toBe(200);
  const key = credentialCacheKey(await sha256Hex(token));
  for (let i = 0; i < 100 && (await env.EDGE_KV.get(key)) === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(await env.EDGE_KV.get(key)).not.toBeNull();
}

function patch(key: string, id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return callJson(Member, "PATCH", `/gallery/members/${id}`, { key, body, headers });
}

describe("GET /gallery/members", () => {
  it("lists the gallery's members newest first, never a password, and pages with a cursor", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const a = await createMember(g.id, "editor");
    const b = await createMember(g.id, "viewer", { disabled: true });
    await createMember(other.id, "editor");
    const first = await callJson(pageOf(Member), "GET", "/gallery/members?limit=1", { key: g.key });
    expect(first.status).toBe(200);
    expect(first.body.data.map((m) => m.id)).toEqual([b.id]);
    expect(first.body.data[0]).toMatchObject({ role: "viewer", disabled: true, email: b.email });
    expect(JSON.stringify(first.body)).not.toContain("pbkdf2");
    const second = await callJson(
      pageOf(Member),
      "GET",
      `/gallery/members?limit=1&cursor=${first.body.next_cursor}`,
      { key: g.key },
    );
    expect(second.body.data.map((m) => m.id)).toEqual([a.id]);
    expect(second.body.next_cursor).toBeNull();
  });

  it("requires members:read", async () => {
    const g = await createGallery();
    const response = await call("GET", "/gallery/members", { key: await g.keyWith(["artworks:read"]) });
    expect(response.status).toBe(403);
  });
});

describe("PATCH /gallery/members/{id}", () => {
  it("a disabled member's cached session is refused on its very next request", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "editor");
    const token = await signedIn(member);
    await cachedSession(token);

    const { status, body } = await patch(g.key, member.id, { disabled: true });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: member.id, disabled: true });
    expect(body.disabled_at).not.toBeNull();

    const refused = await call("GET", "/auth/sessions/current", { key: token });
    expect(refused.status).toBe(401);
    const write = await call("POST", "/gallery/artworks", { key: token, body: { title: "After" } });
    expect(write.status).toBe(401);
    // Disabled: no sign-in; re-enabled: signs in again, but the revoked session stays revoked.
    const login = { email: member.email, password: member.password };
    expect((await call("POST", "/auth/sessions", { body: login })).status).toBe(401);
    expect((await patch(g.key, member.id, { disabled: false })).body).toMatchObject({
      disabled: false,
      disabled_at: null,
    });
    expect((await call("GET", "/auth/sessions/current", { key: token })).status).toBe(401);
    expect((await call("POST", "/auth/sessions", { body: login })).status).toBe(201);
  });

  it("a role change takes effect on the member's next request, though its session was cached", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "editor");
    const token = await signedIn(member);
    await cachedSession(token);
    expect(
      (await call("POST", "/gallery/artworks", { key: token, body: { title: "As editor" } })).status,
    ).toBe(201);

    expect((await patch(g.key, member.id, { role: "viewer" })).body.role).toBe("viewer");
    const denied = await call("POST", "/gallery/artworks", { key: token, body: { title: "As viewer" } });
    expect(denied.status).toBe(403);
    const session = await readJson(
      CurrentSession,
      await call("GET", "/auth/sessions/current", { key: token }),
    );
    expect(session.member.role).toBe("viewer");
    expect(session.scopes.every((s) => s.endsWith(":read"))).toBe(true);

    await cachedSession(token);
    await patch(g.key, member.id, { role: "editor" });
    expect(
      (await call("POST", "/gallery/artworks", { key: token, body: { title: "Editor again" } })).status,
    ).toBe(201);
  });

  it("records member.updated with previous_attributes; a no-op records nothing; a retry replays", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "viewer");
    const headers = { "Idempotency-Key": `k-${crypto.randomUUID()}` };
    const first = await patch(g.key, member.id, { role: "editor", disabled: true }, headers);
    const again = await patch(g.key, member.id, { role: "editor", disabled: true }, headers);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((await patch(g.key, member.id, { role: "editor" })).status).toBe(200);

    const events = await json<{ data: { data: Record<string, unknown> }[] }>(
      await call("GET", "/gallery/events?type=member.updated", { key: g.key }),
    );
    expect(events.data).toHaveLength(1);
    expect(events.data[0]!.data).toEqual({
      object: first.body,
      previous_attributes: { role: "viewer", disabled: false, disabled_at: null },
    });
  });

  it("refuses unknown fields and roles, and needs members:update", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "viewer");
    expect(
      (await call("PATCH", `/gallery/members/${member.id}`, { key: g.key, body: { role: "owner" } })).status,
    ).toBe(400);
    expect(
      (await call("PATCH", `/gallery/members/${member.id}`, { key: g.key, body: { email: "x@y.z" } })).status,
    ).toBe(400);
    const readOnly = await g.keyWith(["members:read"]);
    expect(
      (await call("PATCH", `/gallery/members/${member.id}`, { key: readOnly, body: { role: "editor" } }))
        .status,
    ).toBe(403);
  });
});
