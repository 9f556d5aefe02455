import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import "../../functions/api";
import { encodeCursor } from "../../lib/cursor";
import { newId } from "../../lib/ids";
import { type OperationEntry, operationRegistry } from "../../lib/operation";
import { allScopes } from "../../lib/scopes";
import { fixtureFor } from "../helpers/fixtures";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";

/**
 * Generated from the route registry: every operation declared with `operation()` gets these checks, so a new
 * route cannot skip them.
 */

function pathFor(op: OperationEntry, ids: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? newId(op.pathIds[name] ?? "xx"));
}

function requestFor(op: OperationEntry, key: string | null, ids: Record<string, string> = {}, query = "") {
  const body = op.exampleBody ?? (["POST", "PATCH", "PUT"].includes(op.method) ? {} : undefined);
  return call(op.method, `${pathFor(op, ids)}${query}`, { key, body });
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
  beforeAll(async () => {
    [home, other] = await Promise.all([createGallery(), createGallery()]);
  });

  it("answers 401 without a credential", async () => {
    await expectProblem(await requestFor(op, null), 401, "unauthenticated");
  });

  it("answers 401 for an unknown or malformed credential", async () => {
    await expectProblem(
      await requestFor(op, "gpk_doesnotexistdoesnotexistdoesnotexist"),
      401,
      "unauthenticated",
    );
    await expectProblem(await requestFor(op, "not-a-key"), 401, "unauthenticated");
  });

  it.each(op.scopes.map((s) => [s]))("answers 403 when scope %s is missing", async (scope) => {
    const key = await home.keyWith(allScopes.filter((s) => s !== scope));
    const body = await expectProblem(await requestFor(op, key), 403, "forbidden");
    expect(body.details).toHaveProperty("missing_scopes", [scope]);
  });

  it.runIf(!op.credentials.includes("secret"))("answers 403 to a secret key", async () => {
    await expectProblem(await requestFor(op, home.key), 403, "forbidden");
  });

  it.runIf(Object.keys(op.pathIds).length > 0 && op.credentials.includes("secret"))(
    "answers 404 for another gallery's id",
    async () => {
      const ids: Record<string, string> = {};
      for (const [name, prefix] of Object.entries(op.pathIds)) {
        ids[name] = await fixtureFor(prefix)(other);
      }
      await expectProblem(await requestFor(op, home.key, ids), 404, "not_found");
      // The same ids exist for their owner (so the 404 above is about tenancy, not a bad fixture).
      const own = await requestFor(op, other.key, ids);
      expect(own.status).toBeLessThan(300);
    },
  );

  it.runIf(op.paginated && op.credentials.includes("secret"))(
    "rejects out-of-range limits and bad cursors",
    async () => {
      for (const limit of ["0", "101", "abc", "-1", "1.5", ""]) {
        await expectProblem(await requestFor(op, home.key, {}, `?limit=${limit}`), 400, "invalid_request");
      }
      await expectProblem(await requestFor(op, home.key, {}, "?cursor=garbage"), 400, "invalid_request");
      const sort = op.sorts[0]!;
      const cursor = await encodeCursor(env.SIGNING_SECRET, {
        r: op.operationId,
        s: sort,
        d: "desc",
        k: ["2024-01-01T00:00:00.000Z", "x_1"],
      });
      const other = op.sorts.find((s) => s !== sort);
      await expectProblem(
        await requestFor(op, home.key, {}, `?cursor=${cursor}&dir=asc`),
        400,
        "invalid_request",
      );
      if (other) {
        await expectProblem(
          await requestFor(op, home.key, {}, `?cursor=${cursor}&sort=${other}`),
          400,
          "invalid_request",
        );
      }
      const tampered = `${cursor.slice(0, 5)}${cursor[5] === "A" ? "B" : "A"}${cursor.slice(6)}`;
      await expectProblem(await requestFor(op, home.key, {}, `?cursor=${tampered}`), 400, "invalid_request");
      const foreign = await encodeCursor(env.SIGNING_SECRET, {
        r: "someOtherList",
        s: sort,
        d: "desc",
        k: [null, "x_1"],
      });
      await expectProblem(await requestFor(op, home.key, {}, `?cursor=${foreign}`), 400, "invalid_request");
    },
  );

  it.runIf(op.exampleBody !== undefined && op.credentials.includes("secret"))(
    "rejects an unknown body field",
    async () => {
      const ids: Record<string, string> = {};
      for (const [name, prefix] of Object.entries(op.pathIds)) ids[name] = await fixtureFor(prefix)(home);
      const response = await call(op.method, pathFor(op, ids), {
        key: home.key,
        body: { ...op.exampleBody, no_such_field: 1 },
      });
      const body = await expectProblem(response, 400, "invalid_request");
      expect(body.details).toContainEqual({
        location: "body",
        field: "no_such_field",
        message: "is not a known field",
      });
    },
  );

  it.runIf(op.credentials.includes("secret"))("rejects an unknown query parameter", async () => {
    const response = await requestFor(op, home.key, {}, "?no_such_param=1");
    const body = await expectProblem(response, 400, "invalid_request");
    expect(body.details).toContainEqual({
      location: "query",
      field: "no_such_param",
      message: "is not a known parameter",
    });
  });
});
