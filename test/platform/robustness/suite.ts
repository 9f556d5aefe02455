import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import worker from "../../../functions/api";
import { newId } from "../../../lib/ids";
import { hashPassword } from "../../../lib/password";
import { allScopes, PUBLISHABLE_SCOPES } from "../../../lib/scopes";
import { providerProof } from "../../helpers/connectors";
import { connectorConnectionId, fixtureFor, publicRoomSlug } from "../../helpers/fixtures";
import {
  apiRequest,
  call,
  createGallery,
  db,
  mintKey,
  sessionOf,
  type TestGallery,
} from "../../helpers/gallery";
import {
  type DocumentedOperation,
  documentedOperations,
  type JsonSchema,
  validateResponse,
} from "../../helpers/openapi";
import { PROBLEM_FIELDS } from "../../helpers/problem";
import {
  bodyIsValid,
  bodyRequests,
  bodySchema,
  type Context,
  credentialKind,
  type GeneratedRequest,
  generated,
  headersAreValid,
  oversizeRequest,
  parameters,
  pathIsValid,
  pathRequests,
  pathWith,
  prefixOf,
  queryIsValid,
  queryRequests,
  queryString,
  rawRequests,
  short,
  takingTurns,
  validSegments,
  withCredential,
} from "./requests";
import {
  doc,
  hostileJson,
  hostileParam,
  hostileStrings,
  hostileValue,
  resolve,
  toJson,
  validValue,
} from "./values";

/**
 * Generated from the OpenAPI document: for every operation, fast-check sends malformed and edge requests
 * (query, path, body, content type, Idempotency-Key). Whatever the input: never a 5xx; every 4xx is a problem
 * with exactly the spec's fields and a matching `status`; a 2xx only when the input is valid per the document.
 * Every response is also checked against the document, as `call()` does.
 *
 * The operations are dealt into shards (test/platform/robustness-*.test.ts), one file each, so the two test
 * workers share them. `npm test` sends a share of the random requests (ROBUSTNESS_SCALE, 0.4 by default: a
 * different sample each run, from a new seed) and every request of the exhaustive sweep; `npm run
 * test:robustness` sends them all. The seed is logged at start and printed by fast-check on failure;
 * `ROBUSTNESS_SEED=<seed> ROBUSTNESS_SCALE=<scale> npx vitest run --project platform
 * test/platform/robustness-<n>.test.ts` replays a shard's run.
 */

const configuredSeed = inject("robustnessSeed");
const seed = configuredSeed ? Number(configuredSeed) : Math.floor(Math.random() * 2 ** 31);
const scale = Number(inject("robustnessScale"));

/** Random requests per operation and kind at full scale. */
const RUNS = { query: 150, body: 150, raw: 60, path: 60 };
const TIMEOUT = 90_000;
/** Signing in derives a password hash for every well-formed attempt; fewer runs keep the file fast. */
const SLOW_OPERATIONS: Record<string, number> = { createSession: 0.5 };

const operations = documentedOperations(doc);
/** Requests one shard sent (the shards' files share this module and run side by side). */
interface Tally {
  sent: number;
}

// ---------------------------------------------------------------------------------------------------------
// The property

/**
 * `call()` without `exports.default`: the pool's entrypoint wrapper nests one more Proxy around its prototype on
 * every call (@cloudflare/vitest-pool-workers 0.15.1, createProxyPrototypeClass), so a few thousand calls in
 * one file get slower each time and end in "Maximum call stack size exceeded". The same Worker handler, the
 * same request, the same response validation.
 */
async function send(method: string, path: string, request: GeneratedRequest): Promise<Response> {
  const ctx = createExecutionContext();
  // A connector's request is signed as its provider would sign it, so what follows the proof is exercised too.
  const proof = method === "POST" ? await providerProof(path.split("?")[0]!, request.body) : {};
  const response = await worker.fetch(
    apiRequest(method, path, {
      headers: { ...takingTurns(request.headers), ...proof },
      rawBody: request.body,
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  await validateResponse(method, path, response);
  return response;
}

async function expectRobust(op: DocumentedOperation, request: GeneratedRequest, tally: Tally): Promise<void> {
  tally.sent++;
  const url = new URL(`https://api.test/v1${request.path}`);
  // send() throws unless the response matches the document (documented status, content type and schema).
  const response = await send(op.method, request.path, request);
  // A file (an attachment's download) is not read as text: workerd warns of the corruption that would be.
  const textual = /^(text\/|application\/([\w.-]+\+)?json)/.test(response.headers.get("content-type") ?? "");
  const text = textual ? await response.text() : `(${(await response.arrayBuffer()).byteLength} bytes)`;
  const what = `${op.method} ${short(request.path)} → ${response.status} ${short(text)}`;
  expect(response.status, what).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.headers.get("content-type"), what).toBe("application/problem+json");
    const problem = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(problem).sort(), what).toEqual(PROBLEM_FIELDS);
    expect(problem.status, what).toBe(response.status);
  } else {
    // A dot segment (`/artworks/../events`) resolves, as URLs do, to another path: the request is then one of
    // the operation at that path, and judged as such.
    const judged = pathIsValid(op, url)
      ? op
      : (operations.find((o) => o.method === op.method && pathIsValid(o, url)) ?? op);
    const valid =
      pathIsValid(judged, url) &&
      queryIsValid(judged, url) &&
      bodyIsValid(judged, request) &&
      headersAreValid(request);
    expect(valid, `a ${response.status} for input the document calls invalid: ${what}`).toBe(true);
  }
}

async function ownMember(galleryId: string): Promise<{ id: string; token: string }> {
  const id = newId("mem");
  const password = `pw-${crypto.randomUUID()}`;
  await db().execute(sql`insert into members (id, gallery_id, email, name, role, password_hash)
    values (${id}, ${galleryId}, ${`${id}@gallery.example`}, 'Robust', 'editor', ${await hashPassword(password)})`);
  const response = await call("POST", "/auth/sessions", {
    body: { email: `${id}@gallery.example`, password },
  });
  return { id, token: ((await response.json()) as { token: string }).token };
}

/** Credentials each operation's requests take turns with (see Context.credentials). */
const CREDENTIALS_PER_OPERATION = 8;

async function contextFor(op: DocumentedOperation, gallery: TestGallery): Promise<Context> {
  const kind = credentialKind(op);
  const ids: Record<string, string> = {};
  const byPrefix: Record<string, string> = {};
  for (const p of parameters(op, "path")) {
    const prefix = prefixOf(op, p.name);
    // A path parameter that is not an id (an error code) gets a value valid for its schema.
    // The browser surface's `{slug}` names a room visitors may read, so valid requests reach the room.
    // A connector's `{connection_id}` names a connection of its channel, with the secrets the proofs are made with.
    const id = prefix
      ? await fixtureFor(prefix)(gallery, byPrefix)
      : p.name === "slug" && kind === "publishable"
        ? await publicRoomSlug(gallery)
        : p.name === "connection_id"
          ? await connectorConnectionId(gallery, op.path)
          : String(fc.sample(validValue(p.schema ?? {}), { numRuns: 1, seed })[0]);
    ids[p.name] = id;
    if (prefix) byPrefix[prefix] = id;
  }
  // The fixtures make a session-only operation's resources for the gallery's fixture editor (the inbox is
  // member-private); an operation without path ids gets a member of its own (signing out ends only its sessions).
  const member =
    kind !== "session"
      ? null
      : Object.keys(ids).length > 0
        ? await gallery.editor()
        : await ownMember(gallery.id);
  const mint = (): Promise<string> | null =>
    kind === "key"
      ? gallery.keyWith(allScopes)
      : member
        ? sessionOf(gallery.id, member.id)
        : kind === "publishable"
          ? mintKey(gallery.id, PUBLISHABLE_SCOPES, "publishable")
          : null;
  // Several credentials per operation, taking turns (takingTurns), so none comes near its rate limit.
  const credentials = await Promise.all(
    Array.from({ length: kind === "none" ? 0 : CREDENTIALS_PER_OPERATION }, () => mint()!),
  );
  const schema = bodySchema(op);
  const base = schema ? (validValue(schema) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({});
  return { ids, base, credentials };
}

function runs(op: DocumentedOperation, n: number): number {
  return Math.max(5, Math.round(n * scale * (SLOW_OPERATIONS[op.operation.operationId] ?? 1)));
}

const options = (numRuns: number) => ({ numRuns, seed, endOnFailure: false });

/**
 * Every query parameter alone with every hostile string, and every body field of a valid body with every
 * hostile JSON value: exhaustive where the random search above is sparse.
 */
function sweep(op: DocumentedOperation, ctx: Context): GeneratedRequest[] {
  const path = pathWith(op, validSegments(ctx));
  const schema = bodySchema(op);
  const base = schema ? fc.sample(ctx.base, { numRuns: 1, seed })[0]! : undefined;
  const headers = withCredential(schema ? { "content-type": "application/json" } : {}, ctx);
  const body = base ? toJson(base) : undefined;
  const requests: GeneratedRequest[] = [];
  for (const p of parameters(op, "query")) {
    for (const value of [
      ...hostileStrings,
      ...fc.sample(hostileParam(p.schema ?? {}), { numRuns: 5, seed }),
    ]) {
      requests.push(
        generated({ path: `${path}${queryString([[p.name, value]])}`, headers, ...(body ? { body } : {}) }),
      );
    }
  }
  if (schema && base) {
    for (const field of Object.keys(resolve(schema).properties ?? {})) {
      const fieldSchema = (resolve(schema).properties![field] as JsonSchema) ?? {};
      for (const value of [...hostileJson, ...fc.sample(hostileValue(fieldSchema), { numRuns: 5, seed })]) {
        requests.push(generated({ path, headers, body: toJson({ ...base, [field]: value }) }));
      }
    }
  }
  return requests;
}

/** The operations of shard `shard` (1-based) of `shards`: every operation is in exactly one. */
export function shardOf(shard: number, shards: number): DocumentedOperation[] {
  return operations.filter((_, i) => i % shards === shard - 1);
}

/** The suite for one shard of the operations (its own file, so the test workers run the shards side by side). */
export function describeRobustness(shard: number, shards: number): void {
  const ops = shardOf(shard, shards);
  const tally: Tally = { sent: 0 };
  console.log(
    `robustness ${shard}/${shards}: fast-check seed ${seed}, scale ${scale} (replay: ROBUSTNESS_SEED=${seed} ROBUSTNESS_SCALE=${scale} npx vitest run --project platform test/platform/robustness-${shard}.test.ts)`,
  );
  describe(`generated robustness (from the OpenAPI document), shard ${shard} of ${shards}`, () => {
    let gallery: TestGallery;
    const started = Date.now();
    beforeAll(async () => {
      gallery = await createGallery();
    });

    it("covers its share of the documented operations", () => {
      expect(operations.length).toBeGreaterThan(20);
      expect(ops.length).toBeGreaterThanOrEqual(Math.floor(operations.length / shards));
    });

    describe.each(ops.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", (_, op) => {
      let ctx: Context;
      beforeAll(async () => {
        ctx = await contextFor(op, gallery);
      });

      it(
        "query parameters: wrong types, boundaries, overflow, repeated, empty, unknown",
        async () => {
          await fc.assert(
            fc.asyncProperty(queryRequests(op, ctx), (r) => expectRobust(op, r, tally)),
            options(runs(op, RUNS.query)),
          );
        },
        TIMEOUT,
      );

      it(
        "every parameter and body field against every hostile value",
        async () => {
          const failures: string[] = [];
          for (const request of sweep(op, ctx)) {
            try {
              await expectRobust(op, request, tally);
            } catch (error) {
              failures.push(String(error).slice(0, 600));
            }
          }
          expect(failures.slice(0, 5), `${failures.length} failing requests`).toEqual([]);
        },
        TIMEOUT,
      );

      it.runIf(parameters(op, "path").length > 0)(
        "path ids: malformed, of another prefix, unknown",
        async () => {
          await fc.assert(
            fc.asyncProperty(pathRequests(op, ctx), (r) => expectRobust(op, r, tally)),
            options(runs(op, RUNS.path)),
          );
        },
        TIMEOUT,
      );

      it.runIf(bodySchema(op) !== undefined)(
        "body fields: wrong types, boundaries, too long, missing, extra",
        async () => {
          await fc.assert(
            fc.asyncProperty(bodyRequests(op, ctx, bodySchema(op)!), (r) => expectRobust(op, r, tally)),
            options(runs(op, RUNS.body)),
          );
        },
        TIMEOUT,
      );

      it.runIf(bodySchema(op) !== undefined)(
        "raw bodies: invalid JSON, wrong content types, oversize",
        async () => {
          await fc.assert(
            fc.asyncProperty(rawRequests(op, ctx), (r) => expectRobust(op, r, tally)),
            options(runs(op, RUNS.raw)),
          );
          const oversize = oversizeRequest(op, ctx);
          const response = await send(op.method, oversize.path, oversize);
          tally.sent++;
          expect(response.status).toBe(413);
          expect(((await response.json()) as { code: string }).code).toBe("payload_too_large");
          if (op.operation.requestBody?.required) {
            // No body at all (no bytes, no Content-Type) is not an empty object: 400, not a no-op update.
            const path = pathWith(op, validSegments(ctx));
            const none = await send(
              op.method,
              path,
              generated({ path, headers: withCredential({}, ctx), body: new Uint8Array() }),
            );
            tally.sent++;
            expect(none.status).toBe(400);
          }
        },
      );
    });

    it("reports how much was sent", () => {
      console.log(
        `robustness ${shard}/${shards}: ${tally.sent} generated requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${seed}, scale ${scale})`,
      );
      expect(tally.sent).toBeGreaterThan(25 * ops.length);
    });
  });
}
