import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import "../../functions/api";
import { type OperationEntry, operationRegistry } from "../../http/operation";
import { type CursorKey, encodeCursor } from "../../lib/cursor";
import { newId } from "../../lib/ids";
import { policyHeader, RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import { allScopes, PUBLISHABLE_SCOPES, readScopes } from "../../lib/scopes";
import {
  bodyFixtures,
  connectorConnectionId,
  fixtureIdsFor,
  pricedFixtureFor,
  pricedFixtures,
  publicRoomSlug,
} from "../helpers/fixtures";
import {
  call,
  createGallery,
  db,
  mintKey,
  sessionOf,
  signedInMember,
  type TestGallery,
} from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { countRows } from "../helpers/seed";
import { PNG } from "../helpers/uploads";

/**
 * Generated from the route registry: every operation declared with `operation()` gets these checks, so a new
 * route cannot skip them.
 */

function pathFor(op: OperationEntry, ids: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? newId(op.pathIds[name] ?? "xx"));
}

/** Real resources in `g` for every id in the operation's path. */
function fixtureIds(op: OperationEntry, g: TestGallery): Promise<Record<string, string>> {
  return fixtureIdsFor(op.pathIds, g);
}

function bodyFor(op: OperationEntry): Record<string, unknown> | undefined {
  return op.exampleBody ?? (["POST", "PATCH", "PUT"].includes(op.method) ? {} : undefined);
}

/** A body the operation accepts at these ids of `g`: made for them when it must name something (bodyFixtures). */
async function validBody(
  op: OperationEntry,
  g: TestGallery,
  ids: Record<string, string>,
): Promise<Record<string, unknown> | undefined> {
  const make = bodyFixtures[op.operationId];
  return make ? make(g, ids) : bodyFor(op);
}

/**
 * Another valid request body: the example body with its first string or number field changed (a timestamp a
 * year earlier, any other string suffixed, a number plus one); undefined when it has no such field.
 */
function alteredBody(body: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  for (const [field, value] of Object.entries(body ?? {})) {
    if (typeof value === "string") {
      const year = /^(\d{4})-\d\d-\d\dT/.exec(value)?.[1];
      const other = year ? `${Number(year) - 1}${value.slice(4)}` : `${value}-2`;
      return { ...body, [field]: other };
    }
    if (typeof value === "number") return { ...body, [field]: value + 1 };
  }
  return undefined;
}

/** A response's body as text for a failure message; a file (an attachment's download) by its size only. */
async function textOf(response: Response): Promise<string> {
  const type = response.headers.get("content-type") ?? "";
  if (/^(text\/|application\/([\w.-]+\+)?json)/.test(type) || type === "") return response.clone().text();
  return `(${type}, ${(await response.clone().arrayBuffer()).byteLength} bytes)`;
}

/** The JSON body of a response (null when it has none). */
async function bodyOf(response: Response): Promise<Record<string, unknown> | null> {
  const text = await response.text();
  return text === "" ? null : (JSON.parse(text) as Record<string, unknown>);
}

/** Every value at a path such as `formats[].price_cents` (`[]` walks an array). */
function valuesAt(value: unknown, segments: readonly string[]): unknown[] {
  const [segment, ...rest] = segments;
  if (segment === undefined) return [value];
  const many = segment.endsWith("[]");
  const next = (value as Record<string, unknown> | null)?.[many ? segment.slice(0, -2) : segment];
  if (many) return Array.isArray(next) ? next.flatMap((item) => valuesAt(item, rest)) : [];
  return next === undefined ? [] : valuesAt(next, rest);
}

/**
 * The credential the generated checks send for `g`: its all-scopes secret key, or, for an operation that takes
 * a member session only (the member-private inbox), the gallery's fixture editor's session, which the fixtures
 * make their resources for.
 */
async function credentialFor(op: OperationEntry, g: TestGallery): Promise<string> {
  return op.credentials.includes("secret") ? g.key : (await g.editor()).token;
}

function requestFor(op: OperationEntry, key: string | null, ids: Record<string, string> = {}, query = "") {
  const body = op.exampleBody ?? (["POST", "PATCH", "PUT"].includes(op.method) ? {} : undefined);
  return call(op.method, `${pathFor(op, ids)}${query}`, { key, body });
}

/** A method the operation's path does not take (every path takes fewer than all four). */
function unusedMethod(op: OperationEntry): string {
  const taken = new Set(operationRegistry.filter((o) => o.path === op.path).map((o) => o.method));
  return ["PUT", "PATCH", "DELETE", "POST"].find((m) => !taken.has(m))!;
}

/** Headers every answer to a credential carries: no sniffing, no caching. */
function expectPrivate(response: Response): void {
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("cache-control")).toBe("no-store");
}

const operations = operationRegistry.filter(
  (op) => op.credentials.includes("secret") || op.credentials.includes("session"),
);

describe("route registry", () => {
  it("has the foundation's operations", () => {
    const ids = operationRegistry.map((op) => op.operationId);
    for (const id of [
      "listArtworks",
      "getArtwork",
      "createArtwork",
      "updateArtwork",
      "deleteArtwork",
      "listEvents",
    ]) {
      expect(ids).toContain(id);
    }
  });
});

describe.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", (_, op) => {
  let home: TestGallery;
  let other: TestGallery;
  /** What each gallery's checks send (credentialFor). */
  let homeCredential: string;
  let otherCredential: string;
  beforeAll(async () => {
    [home, other] = await Promise.all([createGallery(), createGallery()]);
    [homeCredential, otherCredential] = await Promise.all([
      credentialFor(op, home),
      credentialFor(op, other),
    ]);
  });

  it("answers 401 without a credential", async () => {
    const response = await requestFor(op, null);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("ratelimit-policy")).toBe(policyHeader(RATE_LIMIT_POLICIES.client_ip));
    await expectProblem(response, 401, "unauthenticated");
  });

  it("names the limit of its credential in RateLimit-Policy, on a problem and on a success", async () => {
    const expected = policyHeader(
      op.credentials.includes("secret") ? RATE_LIMIT_POLICIES.secret : RATE_LIMIT_POLICIES.session,
    );
    const problem = await requestFor(op, homeCredential, {}, "?no_such_param=1");
    expect(problem.status).toBe(400);
    expect(problem.headers.get("ratelimit-policy")).toBe(expected);
    // A session of its own for a session-only operation: signing out ends the session it is sent with.
    const ids = await fixtureIds(op, home);
    const ok = await call(op.method, pathFor(op, ids), {
      key: op.credentials.includes("secret") ? home.key : await sessionOf(home.id, (await home.editor()).id),
      body: await validBody(op, home, ids),
    });
    expect(ok.status, await textOf(ok)).toBeLessThan(300);
    expect(ok.headers.get("ratelimit-policy")).toBe(expected);
    // No remaining count is claimed: the limiter says only whether a request is within the limit.
    expect(ok.headers.get("ratelimit")).toBeNull();
  });

  it("answers a method its path does not take with 405 and Allow", async () => {
    const method = unusedMethod(op);
    const response = await call(method, pathFor(op), { key: home.key });
    expect(response.headers.get("allow")?.split(", ")).toContain(op.method);
    expect(response.headers.get("allow")?.split(", ")).not.toContain(method);
    expectPrivate(response);
    await expectProblem(response, 405, "method_not_allowed");
  });

  it("answers OPTIONS with 204 and Allow, without CORS headers", async () => {
    const response = await call("OPTIONS", pathFor(op), {
      headers: { origin: "https://elsewhere.example", "access-control-request-method": op.method },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")?.split(", ")).toContain(op.method);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect([...response.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });

  it("answers 401 for an unknown or malformed credential", async () => {
    const unknown = await requestFor(op, "gpk_doesnotexistdoesnotexistdoesnotexist");
    expectPrivate(unknown);
    await expectProblem(unknown, 401, "unauthenticated");
    await expectProblem(await requestFor(op, "not-a-key"), 401, "unauthenticated");
  });

  it.each(
    (op.credentials.includes("secret") ? op.scopes : []).map((s) => [s]),
  )("answers 403 when scope %s is missing", async (scope) => {
    const key = await home.keyWith(allScopes.filter((s) => s !== scope));
    const response = await requestFor(op, key);
    expectPrivate(response);
    const body = await expectProblem(response, 403, "forbidden");
    expect(body.details).toHaveProperty("missing_scopes", [scope]);
  });

  // A member's scopes come from their role: a viewer holds only `:read` scopes, so it lacks every other one.
  it.each(
    (op.credentials.includes("secret") ? [] : op.scopes.filter((s) => !s.endsWith(":read"))).map((s) => [s]),
  )("answers 403 to a viewer's session, which lacks %s", async (scope) => {
    const viewer = await signedInMember(home.id, "viewer");
    const response = await requestFor(op, viewer.token);
    expectPrivate(response);
    const body = await expectProblem(response, 403, "forbidden");
    expect(body.details).toHaveProperty("missing_scopes", expect.arrayContaining([scope]));
  });

  it.runIf(!op.credentials.includes("secret"))("answers 403 to a secret key", async () => {
    await expectProblem(await requestFor(op, home.key), 403, "forbidden");
  });

  it.runIf(Object.keys(op.pathIds).length > 0)("answers 404 for another gallery's id", async () => {
    const ids = await fixtureIds(op, other);
    await expectProblem(await requestFor(op, homeCredential, ids), 404, "not_found");
    // The same ids exist for their owner (so the 404 above is about tenancy, not a bad fixture).
    const own = await call(op.method, pathFor(op, ids), {
      key: otherCredential,
      body: await validBody(op, other, ids),
    });
    expect(own.status).toBeLessThan(300);
    expectPrivate(own);
  });

  it.runIf(op.paginated)("rejects out-of-range limits and bad cursors", async () => {
    for (const limit of ["0", "101", "abc", "-1", "1.5", ""]) {
      await expectProblem(
        await requestFor(op, homeCredential, {}, `?limit=${limit}`),
        400,
        "invalid_request",
      );
    }
    await expectProblem(await requestFor(op, homeCredential, {}, "?cursor=garbage"), 400, "invalid_request");
    const sort = op.sorts[0]!;
    const homeIds = await fixtureIds(op, home);
    const scope = { gallery: home.id, route: op.operationId, sort, dir: "desc" as const };
    // A position of the list's first sort: a probability for the matches, else a timestamp.
    const position: CursorKey = sort === "probability" ? [0.75, "x_1"] : ["2024-01-01T00:00:00.000Z", "x_1"];
    const cursor = await encodeCursor(env.SIGNING_SECRET, scope, position);
    // The control: minted for this gallery, list, sort and dir, it is accepted.
    const accepted = await requestFor(op, homeCredential, homeIds, `?cursor=${cursor}`);
    expect(accepted.status, await textOf(accepted)).toBe(200);
    const otherSort = op.sorts.find((s) => s !== sort);
    await expectProblem(
      await requestFor(op, homeCredential, homeIds, `?cursor=${cursor}&dir=asc`),
      400,
      "invalid_request",
    );
    if (otherSort) {
      await expectProblem(
        await requestFor(op, homeCredential, homeIds, `?cursor=${cursor}&sort=${otherSort}`),
        400,
        "invalid_request",
      );
    }
    for (const at of [0, 5, Math.floor(cursor.length / 2), cursor.length - 1]) {
      const tampered = `${cursor.slice(0, at)}${cursor[at] === "A" ? "B" : "A"}${cursor.slice(at + 1)}`;
      await expectProblem(
        await requestFor(op, homeCredential, homeIds, `?cursor=${tampered}`),
        400,
        "invalid_request",
      );
    }
    const foreign = await encodeCursor(env.SIGNING_SECRET, { ...scope, route: "someOtherList" }, position);
    await expectProblem(
      await requestFor(op, homeCredential, homeIds, `?cursor=${foreign}`),
      400,
      "invalid_request",
    );
    // Another gallery's cursor for the same list, sort and dir.
    const elsewhere = await encodeCursor(env.SIGNING_SECRET, { ...scope, gallery: other.id }, position);
    await expectProblem(
      await requestFor(op, homeCredential, homeIds, `?cursor=${elsewhere}`),
      400,
      "invalid_request",
      {
        field: "cursor",
      },
    );
    const minted = await requestFor(op, otherCredential, await fixtureIds(op, other), `?cursor=${elsewhere}`);
    expect(minted.status).toBe(200);
  });

  it.runIf(op.exampleBody !== undefined)("rejects an unknown body field", async () => {
    const ids = await fixtureIds(op, home);
    const response = await call(op.method, pathFor(op, ids), {
      key: homeCredential,
      body: { ...op.exampleBody, no_such_field: 1 },
    });
    const body = await expectProblem(response, 400, "invalid_request");
    expect(body.details).toContainEqual({
      location: "body",
      field: "no_such_field",
      message: "is not a known field",
    });
  });

  it("rejects an unknown query parameter", async () => {
    const response = await requestFor(op, homeCredential, {}, "?no_such_param=1");
    const body = await expectProblem(response, 400, "invalid_request");
    expect(body.details).toContainEqual({
      location: "query",
      field: "no_such_param",
      message: "is not a known parameter",
    });
  });
});

/**
 * Operations authorised by a one-time upload token in their path (PUT /uploads/{token}): the token is the URL,
 * so an unknown one is 404 and a spent one 410, whatever else is sent. Each token fixture is a fresh PNG target.
 */
const uploadTokenOperations = operationRegistry.filter((op) => op.credentials.includes("upload_token"));

describe.each(
  uploadTokenOperations.map((op) => [`${op.method} ${op.path}`, op] as const),
)("%s (one-time upload token)", (_, op) => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  function send(path: string, headers: Record<string, string> = {}) {
    return call(op.method, path, { rawBody: PNG, headers: { "content-type": "image/png", ...headers } });
  }

  it("answers 404 for an unknown or malformed token, with or without a key", async () => {
    const unknown = await send(pathFor(op));
    // The URL is the credential: counted by client address, whoever presents it.
    expect(unknown.headers.get("ratelimit-policy")).toBe(policyHeader(RATE_LIMIT_POLICIES.client_ip));
    await expectProblem(unknown, 404, "not_found");
    await expectProblem(await send(pathFor(op, { token: "not-a-token" })), 404, "not_found");
    await expectProblem(await send(pathFor(op), { authorization: `Bearer ${g.key}` }), 404, "not_found");
  });

  it("accepts its token once: a second use is 410 upload_token_used", async () => {
    const ids = await fixtureIds(op, g);
    const first = await send(pathFor(op, ids));
    expect(first.status, await textOf(first)).toBeLessThan(300);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    await expectProblem(await send(pathFor(op, ids)), 410, "upload_token_used");
  });

  it("answers a method its path does not take with 405 and Allow", async () => {
    const method = unusedMethod(op);
    const response = await call(method, pathFor(op));
    expect(response.headers.get("allow")?.split(", ")).toContain(op.method);
    await expectProblem(response, 405, "method_not_allowed");
  });

  it("answers OPTIONS with 204 and Allow, without CORS headers", async () => {
    const response = await call("OPTIONS", pathFor(op), {
      headers: { origin: "https://elsewhere.example", "access-control-request-method": op.method },
    });
    expect(response.status).toBe(204);
    expect([...response.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });

  it("rejects an unknown query parameter, leaving the token unspent", async () => {
    const ids = await fixtureIds(op, g);
    const body = await expectProblem(
      await send(`${pathFor(op, ids)}?no_such_param=1`),
      400,
      "invalid_request",
    );
    expect(body.details).toContainEqual({
      location: "query",
      field: "no_such_param",
      message: "is not a known parameter",
    });
    expect((await send(pathFor(op, ids))).status).toBeLessThan(300);
  });
});

/**
 * Raw JSON bodies that JSON.parse and a lenient decoder would accept, built from the operation's example body:
 * a repeated key, an unpaired surrogate escape and an invalid UTF-8 byte, each with the field a 400 must name.
 */
function strictJsonCases(
  op: OperationEntry,
): { name: string; body: Uint8Array; field: string; message: string }[] {
  const example = op.exampleBody ?? {};
  const encode = (text: string) => new TextEncoder().encode(text);
  const json = JSON.stringify(example);
  const [firstKey, firstValue] = Object.entries(example)[0] ?? ["x", 1];
  const stringField = Object.entries(example).find(([, v]) => typeof v === "string")?.[0];
  const withString = (raw: string) =>
    stringField ? JSON.stringify({ ...example, [stringField]: "@@" }).replace('"@@"', raw) : `{${raw}:1}`;
  const utf8 = encode(withString('"caf@@"'));
  const at = [...utf8].findIndex((b, i) => b === 0x40 && utf8[i + 1] === 0x40);
  return [
    {
      name: "a repeated key",
      body: encode(
        `{${JSON.stringify(firstKey)}:${JSON.stringify(firstValue)},${json === "{}" ? '"x":1}' : json.slice(1)}`,
      ),
      field: firstKey,
      message: "appears more than once",
    },
    {
      name: "an unpaired surrogate escape",
      body: encode(withString('"\\ud800"')),
      field: stringField ?? "\uFFFD",
      message: "unpaired UTF-16 surrogate",
    },
    {
      name: "an invalid UTF-8 byte",
      body: new Uint8Array([...utf8.subarray(0, at), 0xe9, ...utf8.subarray(at + 2)]),
      field: stringField ?? "(root)",
      message: "not valid UTF-8",
    },
  ];
}

const bodyOperations = operations.filter((op) => op.jsonBody);

describe.each(
  bodyOperations.map((op) => [`${op.method} ${op.path}`, op] as const),
)("%s: strict JSON bodies", (_, op) => {
  let g: TestGallery;
  let credential: string;
  beforeAll(async () => {
    g = await createGallery();
    credential = await credentialFor(op, g);
  });

  it.each(
    strictJsonCases(op).map((c) => [c.name, c] as const),
  )("refuses %s with a 400 naming the field, and stores nothing", async (_, c) => {
    const ids = await fixtureIds(op, g);
    const events = async () =>
      (
        await db().execute<{ n: number }>(
          sql`select count(*)::int as n from domain_events where gallery_id = ${g.id}`,
        )
      ).rows[0]!.n;
    const before = await events();
    const key = `strict-${crypto.randomUUID()}`;
    const response = await call(op.method, pathFor(op, ids), {
      key: credential,
      rawBody: c.body,
      headers: { "content-type": "application/json", ...(op.idempotent ? { "Idempotency-Key": key } : {}) },
    });
    const problem = await expectProblem(response, 400, "invalid_request");
    expect(problem.details).toContainEqual({
      location: "body",
      field: c.field,
      message: expect.stringContaining(c.message),
    });
    expect(await events()).toBe(before);
    if (op.idempotent) {
      // No claim was made: the key still takes a valid body as a first request.
      const valid = await call(op.method, pathFor(op, ids), {
        key: credential,
        body: await validBody(op, g, ids),
        headers: { "Idempotency-Key": key },
      });
      expect(valid.status, await textOf(valid)).toBeLessThan(300);
      expect(valid.headers.get("idempotent-replayed")).toBeNull();
    }
  });
});

const idempotentOperations = operations.filter((op) => op.idempotent);

describe.each(
  idempotentOperations.map((op) => [`${op.method} ${op.path}`, op] as const),
)("%s with an Idempotency-Key", (_, op) => {
  let g: TestGallery;
  let credential: string;
  beforeAll(async () => {
    g = await createGallery();
    credential = await credentialFor(op, g);
  });

  function send(key: string, ids: Record<string, string>, body: Record<string, unknown> | undefined) {
    return call(op.method, pathFor(op, ids), { key: credential, body, headers: { "Idempotency-Key": key } });
  }

  it("replays the first response for the same key and body, marked Idempotent-Replayed", async () => {
    const ids = await fixtureIds(op, g);
    const key = `conformance-${crypto.randomUUID()}`;
    const body = await validBody(op, g, ids);
    const first = await send(key, ids, body);
    expect(first.status).toBeLessThan(300);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstText = await textOf(first);
    const firstBody = await bodyOf(first);
    const again = await send(key, ids, body);
    expect(again.status).toBe(first.status);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const againText = await textOf(again);
    const againBody = await bodyOf(again);
    // Byte for byte what was sent the first time, unless a field is declared as shown once.
    if (!op.replayOmits) expect(againText).toBe(firstText);
    // Declared (replayOmits): a field shown once, such as a secret, is null in the replay and only there.
    for (const field of op.replayOmits ?? []) {
      expect(firstBody?.[field], `${field} in the first response`).toEqual(expect.anything());
      expect(againBody?.[field], `${field} in the replay`).toBeNull();
      delete firstBody?.[field];
      delete againBody?.[field];
    }
    expect(againBody).toEqual(firstBody);
  });

  it.runIf(alteredBody(op.exampleBody) !== undefined)(
    "refuses the same key with another body: 400 idempotency_key_reused",
    async () => {
      const ids = await fixtureIds(op, g);
      const key = `conformance-${crypto.randomUUID()}`;
      const body = await validBody(op, g, ids);
      const first = await send(key, ids, body);
      expect(first.status, await first.text()).toBeLessThan(300);
      await expectProblem(await send(key, ids, alteredBody(body)), 400, "idempotency_key_reused");
    },
  );

  it.runIf(Object.keys(op.pathIds).length > 0)(
    "refuses the same key on another id: 400 idempotency_key_reused",
    async () => {
      const [ids, otherIds] = [await fixtureIds(op, g), await fixtureIds(op, g)];
      const key = `conformance-${crypto.randomUUID()}`;
      const body = await validBody(op, g, ids);
      const first = await send(key, ids, body);
      expect(first.status, await first.text()).toBeLessThan(300);
      await expectProblem(await send(key, otherIds, body), 400, "idempotency_key_reused");
    },
  );
});

/**
 * Operations declared with `dryRun` (http/dry-run.ts): `dry_run=true` answers 200 with `X-Dry-Run: true` and
 * the Dry-run result, and leaves no trace: no domain event, no idempotency claim (its key stays unused).
 */
const dryRunOperations = operations.filter((op) => op.dryRun);

describe.each(
  dryRunOperations.map((op) => [`${op.method} ${op.path}`, op] as const),
)("%s with dry_run=true", (_, op) => {
  let g: TestGallery;
  let credential: string;
  beforeAll(async () => {
    g = await createGallery();
    credential = await credentialFor(op, g);
  });

  it("answers 200 with X-Dry-Run and the Dry-run result, recording no event and claiming no key", async () => {
    const ids = await fixtureIds(op, g);
    const body = await validBody(op, g, ids);
    const key = `dry-run-${crypto.randomUUID()}`;
    const traces = async () => [
      await countRows("domain_events", g.id),
      await countRows("idempotency_keys", g.id),
    ];
    const before = await traces();
    const dry = await call(op.method, `${pathFor(op, ids)}?dry_run=true`, {
      key: credential,
      body,
      headers: { "Idempotency-Key": key },
    });
    expect(dry.status, await textOf(dry)).toBe(200);
    expect(dry.headers.get("x-dry-run")).toBe("true");
    expect(await bodyOf(dry)).toMatchObject({ dry_run: true });
    expect(await traces()).toEqual(before);
    // The key was not claimed: the real call with it is a first request, not a replay of the dry run.
    const real = await call(op.method, pathFor(op, ids), {
      key: credential,
      body,
      headers: { "Idempotency-Key": key },
    });
    expect(real.status, await textOf(real)).toBeLessThan(300);
    expect(real.headers.get("idempotent-replayed")).toBeNull();
    expect(real.headers.get("x-dry-run")).toBeNull();
    expect((await bodyOf(real))?.dry_run).toBeUndefined();
  });

  it.runIf(Object.keys(op.pathIds).length > 0)("answers a dry run on a missing id with 404", async () => {
    const response = await call(op.method, `${pathFor(op)}?dry_run=true`, { key: credential });
    expect(response.headers.get("x-dry-run")).toBeNull();
    await expectProblem(response, 404, "not_found");
  });
});

const gatedOperations = operations.filter(
  (op) => op.gatedPrices?.length && op.credentials.includes("secret"),
);

describe.each(
  gatedOperations.map((op) => [`${op.method} ${op.path}`, op] as const),
)("%s: membership-gated prices", (_, op) => {
  /**
   * The gated prices one gallery's read-only key (exactly the operation's scopes, all `:read`) and full key
   * see, with priced fixtures (public-priced or not) at the path's ids, or of every kind for a list.
   */
  async function pricesSeen(publicPriced: boolean): Promise<{ readOnly: unknown[]; full: unknown[] }> {
    const g = await createGallery();
    const ids: Record<string, string> = {};
    for (const [name, prefix] of Object.entries(op.pathIds)) {
      ids[name] = await pricedFixtureFor(prefix)(g, publicPriced);
    }
    if (Object.keys(op.pathIds).length === 0) {
      for (const make of Object.values(pricedFixtures)) await make(g, publicPriced);
    }
    expect(op.scopes.every((s) => s.endsWith(":read"))).toBe(true);
    // Every read scope: still read-only, and able to read what the operation shows (an event's object too).
    const readOnlyKey = await g.keyWith(readScopes);
    const seen = async (key: string) => {
      const response = await call(op.method, pathFor(op, ids), { key });
      expect(response.status).toBe(200);
      const body = await bodyOf(response);
      const items = op.paginated ? (body?.data as unknown[]) : [body];
      return items.flatMap((item) => op.gatedPrices!.flatMap((path) => valuesAt(item, path.split("."))));
    };
    return { readOnly: await seen(readOnlyKey), full: await seen(g.key) };
  }

  it("a read-only key sees them null unless public-priced; a full key sees them", async () => {
    const { readOnly, full } = await pricesSeen(false);
    expect(full.length).toBeGreaterThan(0);
    expect(full.every((price) => typeof price === "number")).toBe(true);
    expect(readOnly).toEqual(full.map(() => null));
  });

  it("a read-only key sees them when the resource is public-priced", async () => {
    const { readOnly, full } = await pricesSeen(true);
    expect(full.length).toBeGreaterThan(0);
    expect(full.every((price) => typeof price === "number")).toBe(true);
    expect(readOnly).toEqual(full);
  });
});

/**
 * The browser surface (http/cors.ts): operations for publishable tokens alone, everything under /public/. Each
 * answers a preflight CORS-open, carries `Access-Control-Allow-Origin: *` on every answer (problems included) and
 * never `Access-Control-Allow-Credentials`, and refuses a secret key and a member session. The checks above
 * assert that every other operation sends no CORS header.
 */
const browserOperations = operationRegistry.filter((op) => op.credentials.includes("publishable"));

describe.each(
  browserOperations.map((op) => [`${op.method} ${op.path}`, op] as const),
)("%s (browser surface)", (_, op) => {
  let g: TestGallery;
  let token: string;
  let path: string;
  beforeAll(async () => {
    g = await createGallery();
    token = await mintKey(g.id, PUBLISHABLE_SCOPES, "publishable");
    // A room visitors may read, for the one path parameter of the surface that is not an id.
    const slug = op.path.includes("{slug}") ? await publicRoomSlug(g) : "";
    path = pathFor(op, { ...(await fixtureIds(op, g)), slug });
  });

  const origin = { origin: "https://visitor.example" };
  const corsOf = (response: Response) =>
    Object.fromEntries([...response.headers].filter(([h]) => h.startsWith("access-control-")));

  it("lives under /public/ and takes publishable tokens alone", () => {
    expect(op.path.startsWith("/public/")).toBe(true);
    expect(op.credentials).toEqual(["publishable"]);
    expect(op.scopes.every((s) => PUBLISHABLE_SCOPES.includes(s))).toBe(true);
  });

  it("answers a preflight with 204 and the CORS headers, never with credentials", async () => {
    const response = await call("OPTIONS", path, {
      headers: {
        ...origin,
        "access-control-request-method": op.method,
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(response.status).toBe(204);
    const cors = corsOf(response);
    expect(cors["access-control-allow-origin"]).toBe("*");
    expect(cors["access-control-allow-methods"]?.split(", ")).toEqual(
      expect.arrayContaining([op.method, "OPTIONS"]),
    );
    expect(cors["access-control-allow-headers"]?.split(", ")).toEqual(
      expect.arrayContaining(["authorization", "content-type", "idempotency-key", "if-none-match"]),
    );
    expect(Number(cors["access-control-max-age"])).toBeGreaterThan(0);
    expect(cors["access-control-allow-credentials"]).toBeUndefined();
  });

  it("answers its token, and every problem, with Access-Control-Allow-Origin: * and no credentials", async () => {
    const body = bodyFor(op);
    const answers = [
      await call(op.method, path, { key: token, body, headers: origin }),
      await call(op.method, path, { key: null, body, headers: origin }),
      await call(op.method, path, { key: g.key, body, headers: origin }),
      await call(op.method, `${path}?no_such_param=1`, { key: token, body, headers: origin }),
      await call(unusedMethod(op), path, { key: token, headers: origin }),
    ];
    expect(answers[0]!.status, await answers[0]!.clone().text()).toBeLessThan(300);
    expect(answers.slice(1).map((r) => r.status)).toEqual([401, 403, 400, 405]);
    const policies = answers.map((r) => r.headers.get("ratelimit-policy"));
    const publishable = policyHeader(RATE_LIMIT_POLICIES.publishable);
    // The token's limit; without a credential the address's; the 403's secret key its own; a 405 is no operation's,
    // so it is counted by the address.
    expect(policies).toEqual([
      publishable,
      policyHeader(RATE_LIMIT_POLICIES.client_ip),
      policyHeader(RATE_LIMIT_POLICIES.secret),
      publishable,
      policyHeader(RATE_LIMIT_POLICIES.client_ip),
    ]);
    for (const response of answers) {
      expect(response.headers.get("access-control-expose-headers")).toContain("ratelimit-policy");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      expect(response.headers.get("access-control-expose-headers")).toContain("etag");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("refuses a secret key and a member session with 403, saying the surface takes publishable tokens", async () => {
    const body = bodyFor(op);
    const secret = await expectProblem(await call(op.method, path, { key: g.key, body }), 403, "forbidden");
    expect(secret.detail).toContain("publishable");
    const editor = await g.editor();
    await expectProblem(await call(op.method, path, { key: editor.token, body }), 403, "forbidden");
  });

  it("answers another gallery's token as if the room did not exist", async () => {
    const other = await createGallery();
    const otherToken = await mintKey(other.id, PUBLISHABLE_SCOPES, "publishable");
    const response = await call(op.method, path, { key: otherToken, body: bodyFor(op) });
    if (op.path.includes("{")) await expectProblem(response, 404, "not_found");
    else expect(response.status).toBe(200);
  });
});

/**
 * Operations a provider calls with a connection's messages (`/connectors/{channel}/{connection_id}`): proved by the
 * provider's signature (or Meta's verify token) made with the connection's secret, checked before anything else.
 * An unknown connection, or one of another channel, is 404; a request without the proof is 401; neither is counted
 * against the connection, only by client address.
 */
const connectorOperations = operationRegistry.filter((op) => op.credentials.includes("connector"));

describe.each(
  connectorOperations.map((op) => [`${op.method} ${op.path}`, op] as const),
)("%s (a provider's delivery)", (_, op) => {
  let g: TestGallery;
  let connectionId: string;
  beforeAll(async () => {
    g = await createGallery();
    connectionId = await connectorConnectionId(g, op.path);
  });

  const at = (id: string) => op.path.replace("{connection_id}", id);

  it("answers 404 for an unknown or malformed connection, counted by client address", async () => {
    const unknown = await call(op.method, at(crypto.randomUUID()), {
      headers: { "cf-connecting-ip": "203.0.113.7" },
    });
    expect(unknown.headers.get("ratelimit-policy")).toBe(policyHeader(RATE_LIMIT_POLICIES.client_ip));
    await expectProblem(unknown, 404, "not_found");
    await expectProblem(await call(op.method, at("not-a-connection")), 404, "not_found");
  });

  it("answers 401 without the provider's proof, even with the gallery's key, and stores nothing", async () => {
    const before = await countRows("inbox_messages", g.id);
    const unsigned = await call(op.method, at(connectionId), { key: g.key });
    expect(unsigned.headers.get("ratelimit-policy")).toBe(policyHeader(RATE_LIMIT_POLICIES.client_ip));
    await expectProblem(unsigned, 401, "unauthenticated");
    expect(await countRows("inbox_messages", g.id)).toBe(before);
  });

  it("answers 404 for a connection of another channel", async () => {
    const other = await connectorConnectionId(
      g,
      op.path.startsWith("/connectors/sms/") ? "/connectors/whatsapp/" : "/connectors/sms/",
    );
    await expectProblem(await call(op.method, at(other)), 404, "not_found");
  });

  it("answers a method its path does not take with 405 and Allow", async () => {
    const response = await call(unusedMethod(op), at(connectionId));
    expect(response.headers.get("allow")?.split(", ")).toContain(op.method);
    await expectProblem(response, 405, "method_not_allowed");
  });

  it("answers OPTIONS with 204 and Allow, without CORS headers", async () => {
    const response = await call("OPTIONS", at(connectionId), {
      headers: { origin: "https://elsewhere.example", "access-control-request-method": op.method },
    });
    expect(response.status).toBe(204);
    expect([...response.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });
});
