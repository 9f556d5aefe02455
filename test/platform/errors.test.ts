import { describe, expect, it } from "vitest";
import { ApiError, errorCodes } from "../../lib/problem";
import { call } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";

/** GET /v1/errors and /v1/errors/{code}: the dictionary that every problem's `type` points to. */
describe("error dictionary", () => {
  it("lists every code and serves each one", async () => {
    const list = (await (await call("GET", "/errors")).json()) as { data: { code: string }[] };
    expect(list.data.map((e) => e.code).sort()).toEqual(Object.keys(errorCodes).sort());
    const one = (await (await call("GET", "/errors/not_found")).json()) as Record<string, unknown>;
    expect(one).toMatchObject({ code: "not_found", status: 404, retry: "permanent" });
  });

  it("answers 404 for names an object inherits (toString, constructor, __proto__), not an entry", async () => {
    for (const code of ["toString", "constructor", "__proto__", "hasOwnProperty", "nope"]) {
      await expectProblem(await call("GET", `/errors/${code}`), 404, "not_found");
    }
  });
});

describe("ApiError", () => {
  it("captures no stack trace, and leaves the limit for every other error as it was", () => {
    const before = Error.stackTraceLimit;
    const error = new ApiError("not_found", "No artwork has this id.");
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe("No artwork has this id.");
    expect(error.status).toBe(404);
    expect(error.stack).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error("a fault").stack).toMatch(/\n\s+at /);
  });
});
