import { describe, expect, it } from "vitest";
import { documentedOperations, openApiDocument } from "../helpers/openapi";

/**
 * Every parameter of every operation says what it means. (Schema fields are not all described yet:
 * `npm run openapi:descriptions` measures them; this check joins them once they are.)
 */
describe("descriptions in the OpenAPI document", () => {
  it("describes every parameter of every operation", async () => {
    const doc = await openApiDocument();
    const parameters = documentedOperations(doc).flatMap(({ method, path, operation }) =>
      (operation.parameters ?? []).map((p) => ({
        where: `${method} ${path} ${p.in} ${p.name}`,
        parameter: p,
      })),
    );
    expect(parameters.length).toBeGreaterThan(400);
    const undescribed = parameters
      .filter(({ parameter }) => {
        const p = parameter as { description?: string; schema?: { description?: string } };
        return !p.description?.trim() && !p.schema?.description?.trim();
      })
      .map(({ where }) => where);
    expect(undescribed).toEqual([]);
  });
});
