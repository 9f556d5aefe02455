import { describe, expect, it } from "vitest";
import { documentedOperations, openApiDocument } from "../helpers/openapi";

type Node = Record<string, unknown>;

/**
 * Every property of `node` and of the schemas nested in it, with where it is: `<where> .<name>`. An example
 * value is data, not schema, so it is not walked.
 */
function properties(node: unknown, where: string, out: { where: string; schema: Node }[]): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) properties(item, where, out);
    return;
  }
  const n = node as Node;
  if (n.properties && typeof n.properties === "object") {
    for (const [name, schema] of Object.entries(n.properties as Record<string, Node>)) {
      out.push({ where: `${where} .${name}`, schema });
    }
  }
  for (const [key, value] of Object.entries(n)) {
    if (key === "example" || key === "examples") continue;
    properties(value, where, out);
  }
}

/** Every parameter and every schema field of the document says what it means. */
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

  it("describes every field of every schema: components, request and response bodies, webhook payloads", async () => {
    const doc = (await openApiDocument()) as unknown as Node;
    const fields: { where: string; schema: Node }[] = [];
    for (const { method, path, operation } of documentedOperations(doc as never)) {
      properties(operation, `${method} ${path}`, fields);
    }
    for (const [name, item] of Object.entries((doc.webhooks ?? {}) as Node)) {
      properties(item, `webhook ${name}`, fields);
    }
    for (const [name, schema] of Object.entries(((doc.components as Node)?.schemas ?? {}) as Node)) {
      properties(schema, `schema ${name}`, fields);
    }
    expect(fields.length).toBeGreaterThan(2000);
    const undescribed = fields
      .filter(({ schema }) => typeof schema.description !== "string" || !schema.description.trim())
      .map(({ where }) => where);
    expect(undescribed).toEqual([]);
  });
});
