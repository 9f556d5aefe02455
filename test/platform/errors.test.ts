import { describe, expect, it } from "vitest";
import { errorCodes } from "../../lib/problem";
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
