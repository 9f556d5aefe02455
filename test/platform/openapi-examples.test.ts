import { describe, expect, it } from "vitest";
import "../../functions/api";
import { operationRegistry } from "../../http/operation";
import {
  describeErrors,
  documentedOperations,
  type JsonSchema,
  type OpenApiDocument,
  openApiDocument,
  requestValidatorFor,
  validatorFor,
} from "../helpers/openapi";

/**
 * Generated from the route registry and the document: every operation shows a request example (when it takes a
 * body) and a response example, each valid against its own schema (functions/openapi.ts, lib/openapi-examples.ts).
 */

interface Media {
  schema?: JsonSchema;
  example?: unknown;
}

type Operation = OpenApiDocument["paths"][string][string] & {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};

const doc = await openApiDocument();
const operations = documentedOperations(doc);

function operationOf(method: string, path: string): Operation {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${path} is not in the document`);
  return op as Operation;
}

describe("examples in the OpenAPI document", () => {
  it("covers every operation of the route registry", () => {
    expect(operationRegistry.length).toBeGreaterThan(100);
    for (const op of operationRegistry) operationOf(op.method, op.path);
  });

  describe.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))("%s", (_, documented) => {
    const op = documented.operation as Operation;

    it("has a request example when it takes a JSON body, valid against the body's schema", () => {
      const media = op.requestBody?.content["application/json"];
      if (!media) return;
      expect(media.example, "request example").toBeDefined();
      const result = requestValidatorFor(doc, media.schema!).validate(media.example);
      expect(result.valid, describeErrors(result.errors)).toBe(true);
      const declared = operationRegistry.find((entry) => entry.operationId === op.operationId)?.exampleBody;
      if (declared) expect(media.example).toMatchObject(declared);
    });

    it("has a response example for every JSON response, each valid against its schema", () => {
      let examples = 0;
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (!/json$/.test(type) || !media.schema) continue;
          expect(media.example, `${status} ${type} example`).toBeDefined();
          const result = validatorFor(doc, media.schema).validate(media.example);
          expect(result.valid, `${status}:\n${describeErrors(result.errors)}`).toBe(true);
          examples++;
        }
      }
      expect(examples).toBeGreaterThan(0);
    });
  });

  it("shows ids with their resource's prefix, money in cents and instants in UTC with milliseconds", () => {
    const created = operationOf("POST", "/gallery/artworks").responses["201"]!.content!["application/json"]!
      .example as Record<string, unknown>;
    expect(created.id).toMatch(/^art_[0-9a-z]{26}$/);
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const sale = operationOf("GET", "/gallery/sales/{id}").responses["200"]!.content!["application/json"]!
      .example as Record<string, unknown>;
    expect(sale.id).toMatch(/^sale_/);
    expect(sale.contact_id).toMatch(/^con_/);
    const money = Object.entries(sale).filter(([field]) => field.endsWith("_cents"));
    expect(money.length).toBeGreaterThan(0);
    for (const [, value] of money) expect(Number.isInteger(value)).toBe(true);
    const problem = operationOf("GET", "/gallery/artworks/{id}").responses["404"]!.content![
      "application/problem+json"
    ]!.example as Record<string, unknown>;
    expect(problem).toMatchObject({
      status: 404,
      code: "not_found",
      instance: expect.stringMatching(/^\/v1\/gallery\/artworks\/art_/),
    });
  });
});
