import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { hashPassword, verifyPassword } from "../../lib/password";
import { CreatedSession, CurrentSession } from "../../lib/schemas/auth";
import { readScopes } from "../../lib/scopes";
import { call, createGallery, db, json, readJson } from "../helpers/gallery";
import { createMember, type TestMember } from "../helpers/members";

function login(email: string, password: string) {
  return call("POST", "/auth/sessions", { body: { email, password } });
}

async function loginToken(member: TestMember): Promise<string> {
  const response = await login(member.email, member.password);
  const body = await readJson(CreatedSession, response);
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.token;
}

function withoutRequest(problem: Record<string, unknown>) {
  const { request_id: _requestId, instance: _instance, ...rest } = problem;
  return rest;
}

describe("lib/password", () => {
  it("hashes in the pbkdf2$sha256 format and verifies only the right password", async () => {
    const stored = await hashPassword("s3cret ✓");
    expect(stored).toMatch(/^pbkdf2\$sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword("s3cret ✓", stored)).toBe(true);
    expect(await verifyPassword("s3cret", stored)).toBe(false);
    expect(await hashPassword("s3cret ✓")).not.toBe(stored);
  });

  it("verifies hashes written by Node's pbkdf2Sync", async () => {
    // node -e 'pbkdf2Sync(password, Buffer.from("0123456789abcdef0123456789abcdef", "hex"), n, 32, "sha256")'
    const node100k =
      "pbkdf2$sha256$100000$ASNFZ4mrze8BI0VniavN7w$w_nOSl_8Tdtn0PH5pw9tvhNRBO0RxDitpi6by3U3oq4";
    const node1k = "pbkdf2$sha256$1000$ASNFZ4mrze8BI0VniavN7w$2P4MLSoflcXJKUA00-OEJZssQySAGf5p1CUCrEowoeY";
    expect(await verifyPassword("correct horse battery staple ✓", node100k)).toBe(true);
    expect(await verifyPassword("correct horse battery staple", node100k)).toBe(false);
    expect(await verifyPassword("pw", node1k)).toBe(true);
  });

  it("never matches a malformed hash, an unsupported one or a missing one", async () => {
    const valid = await hashPassword("pw");
    const [scheme, digest, , salt, hash] = valid.split("$");
    for (const stored of [
      null,
      "",
      "plain",
      `bcrypt$sha256$100000$${salt}$${hash}`,
      `${scheme}$sha512$100000$${salt}$${hash}`,
      `${scheme}$${digest}$100001$${salt}$${hash}`,
      `${scheme}$${digest}$0$${salt}$${hash}`,
      `${scheme}$${digest}$100000$${salt}$${hash!.slice(0, 20)}`,
      `${scheme}$${digest}$100000$${salt}$${hash}$extra`,
    ]) {
      expect(await verifyPassword("pw", stored), String(stored)).toBe(false);
    }
  });
});

describe("POST /auth/sessions", () => {
  it("signs a member in: token once, session cookie, only the hash stored", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "editor");
    const response = await login(member.email.toLowerCase(), member.password);
    const body = await readJson(CreatedSession, response);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.token).toMatch(/^gss_[A-Za-z0-9_-]{32}$/);
    expect(body.id).toMatch(/^ses_/);
    expect(body.gallery_id).toBe(g.id);
    expect(body.member).toEqual({
      id: member.id,
      email: member.email,
      name: "Member editor",
      role: "editor",
    });
    const days = (Date.parse(body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(response.headers.get("cache-control")).toBe("no-store");

    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie.startsWith(`gallery_session=${body.token};`)).toBe(true);
    const attributes = cookie.split(";").map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(
      expect.arrayContaining(["max-age=2592000", "path=/v1", "httponly", "secure", "samesite=lax"]),
    );

    const rows = await db().execute<{ token_hash: string; member_id: string }>(
      sql`select token_hash, member_id from sessions where id = ${body.id}`,
    );
    expect(rows.rows).toEqual([{ token_hash: await sha256Hex(body.token), member_id: member.id }]);
  });

  it("authenticates an editor's session by cookie and by Bearer, with every scope", async () => {
    const g = await createGallery();
    const token = await loginToken(await createMember(g.id, "editor"));
    const byCookie = await call("GET", "/gallery/artworks", {
      headers: { cookie: `gallery_session=${token}` },
    });
    expect(byCookie.status, await byCookie.clone().text()).toBe(200);
    const byBearer = await call("GET", "/gallery/artworks", { key: token });
    expect(byBearer.status).toBe(200);
    const created = await call("POST", "/gallery/artworks", {
      headers: { cookie: `gallery_session=${token}` },
      body: { title: "By an editor" },
    });
    expect(created.status, await created.clone().text()).toBe(201);
  });

  it("gives a viewer's session the read scopes only", async () => {
    const g = await createGallery();
    const token = await loginToken(await createMember(g.id, "viewer"));
    const list = await call("GET", "/gallery/artworks", { key: token });
    expect(list.status).toBe(200);
    const create = await call("POST", "/gallery/artworks", { key: token, body: { title: "Nope" } });
    const problem = await json<{ code: string; details: { missing_scopes: string[] } }>(create);
    expect(create.status).toBe(403);
    expect(problem.code).toBe("forbidden");
    expect(problem.details.missing_scopes).toEqual(["artworks:create"]);
  });

  it("answers a wrong password, an unknown email and a disabled member with the same 401", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "editor");
    const disabled = await createMember(g.id, "editor", { disabled: true });
    const wrong = await login(member.email, `${member.password}x`);
    const unknown = await login(`nobody-${crypto.randomUUID()}@gallery.example`, member.password);
    const off = await login(disabled.email, disabled.password);
    const bodies = [await json(wrong), await json(unknown), await json(off)];
    for (const [i, response] of [wrong, unknown, off].entries()) {
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(bodies[i]!.request_id).toEqual(expect.any(String));
    }
    expect(bodies[0]!.code).toBe("unauthenticated");
    expect(withoutRequest(bodies[1]!)).toEqual(withoutRequest(bodies[0]!));
    expect(withoutRequest(bodies[2]!)).toEqual(withoutRequest(bodies[0]!));
    expect(bodies[1]!.request_id).not.toBe(bodies[0]!.request_id);
  });

  it("rejects a malformed body with 400 and the offending fields", async () => {
    const unknownField = await call("POST", "/auth/sessions", {
      body: { email: "a@b.example", password: "x", remember: true },
    });
    const problem = await json<{ code: string; details: { field: string }[] }>(unknownField);
    expect(unknownField.status).toBe(400);
    expect(problem.code).toBe("invalid_request");
    expect(problem.details.map((d) => d.field)).toEqual(["remember"]);

    const missing = await call("POST", "/auth/sessions", { body: { email: "not-an-email" } });
    const missingProblem = await json<{ details: { field: string }[] }>(missing);
    expect(missing.status).toBe(400);
    expect(missingProblem.details.map((d) => d.field).sort()).toEqual(["email", "password"]);
  });
});

describe("GET /auth/sessions/current", () => {
  it("says who is signed in, in which gallery, with which scopes", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "viewer");
    const token = await loginToken(member);
    const response = await call("GET", "/auth/sessions/current", { key: token });
    const body = await readJson(CurrentSession, response);
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.id).toMatch(/^ses_/);
    expect(body.member).toEqual({
      id: member.id,
      email: member.email,
      name: "Member viewer",
      role: "viewer",
    });
    expect(body.gallery).toEqual({ id: g.id, name: `Test ${g.id}`, livemode: false });
    expect(body.scopes).toEqual([...readScopes]);
  });

  it("refuses an API key: the endpoint is about a member session", async () => {
    const g = await createGallery();
    const response = await call("GET", "/auth/sessions/current", { key: g.key });
    const problem = await json<{ code: string; details: { accepted: string[] } }>(response);
    expect(response.status).toBe(403);
    expect(problem.details.accepted).toEqual(["session"]);
  });
});

describe("DELETE /auth/sessions/current", () => {
  it("revokes the session at once, though its credential was cached", async () => {
    const g = await createGallery();
    const token = await loginToken(await createMember(g.id, "editor"));
    const cookie = { cookie: `gallery_session=${token}` };
    expect((await call("GET", "/gallery/artworks", { headers: cookie })).status).toBe(200);

    const current = await readJson(
      CurrentSession,
      await call("GET", "/auth/sessions/current", { key: token }),
    );
    const logout = await call("DELETE", "/auth/sessions/current", { headers: cookie });
    const body = await json(logout);
    expect(logout.status, JSON.stringify(body)).toBe(200);
    expect(body).toEqual({ id: current.id, deleted: true });
    const cleared = logout.headers.get("set-cookie") ?? "";
    expect(cleared).toMatch(/^gallery_session=;/);
    expect(cleared.toLowerCase()).toContain("max-age=0");
    expect(cleared.toLowerCase()).toContain("path=/v1");

    const afterCookie = await call("GET", "/gallery/artworks", { headers: cookie });
    expect(afterCookie.status).toBe(401);
    expect((await call("GET", "/gallery/artworks", { key: token })).status).toBe(401);
    expect((await call("DELETE", "/auth/sessions/current", { key: token })).status).toBe(401);
    const row = await db().execute<{ revoked: boolean }>(
      sql`select revoked_at is not null as revoked from sessions where id = ${current.id}`,
    );
    expect(row.rows).toEqual([{ revoked: true }]);
  });

  it("leaves the member's other sessions alone", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "editor");
    const first = await loginToken(member);
    const second = await loginToken(member);
    expect((await call("DELETE", "/auth/sessions/current", { key: first })).status).toBe(200);
    expect((await call("GET", "/gallery/artworks", { key: second })).status).toBe(200);
  });

  it("refuses a secret key", async () => {
    const g = await createGallery();
    const response = await call("DELETE", "/auth/sessions/current", { key: g.key });
    expect(response.status).toBe(403);
    expect((await call("GET", "/gallery/artworks", { key: g.key })).status).toBe(200);
  });
});

describe("expired sessions", () => {
  it("are 401", async () => {
    const g = await createGallery();
    const member = await createMember(g.id, "editor");
    const token = randomToken("gss_");
    await db().execute(sql`insert into sessions (id, gallery_id, member_id, token_hash, expires_at, created_at)
      values (${newId("ses")}, ${g.id}, ${member.id}, ${await sha256Hex(token)}, now() - interval '1 second',
        now() - interval '30 days')`);
    const response = await call("GET", "/gallery/artworks", { key: token });
    expect(response.status).toBe(401);
    expect((await json(response)).code).toBe("unauthenticated");
    const byCookie = await call("GET", "/auth/sessions/current", {
      headers: { cookie: `gallery_session=${token}` },
    });
    expect(byCookie.status).toBe(401);
  });
});
