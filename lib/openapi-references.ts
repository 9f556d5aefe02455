/**
 * Descriptions of the fields that hold a named schema (a `$ref`), set where the document is built
 * (functions/openapi.ts). The generator never writes a description beside a `$ref`: a field's own text comes out as
 * `allOf: [{ $ref }, { description }]`, and the text of a nullable or optional field that is the first use of its
 * schema lands on the component generated from that field. OpenAPI 3.1 allows `description` beside `$ref`, so a
 * field says what it holds where a reader looks for it. A field's text comes, in this order, from
 * `describeRefFields` (for a field whose own text the generator would put on the component), from the field's own
 * `.openapi({ description })`, or else from the schema it holds.
 */
import type { JsonSchema } from "./openapi-examples";

const declared = new Map<string, Record<string, string>>();

/**
 * Declares what the `$ref` fields of one component mean, where the field's own `.openapi({ description })` would
 * land on the component it holds: `describeRefFields("Publication", { price: "…" })`.
 */
export function describeRefFields(component: string, fields: Record<string, string>): void {
  declared.set(component, { ...declared.get(component), ...fields });
}

/** Writes each declared text on its field of the document's components, unless the field already has one. */
function addDeclared(components: Record<string, JsonSchema>): void {
  for (const [component, fields] of declared) {
    const properties = components[component]?.properties as Record<string, JsonSchema> | undefined;
    if (!properties) continue;
    for (const [field, text] of Object.entries(fields)) {
      const property = properties[field];
      if (property && typeof property === "object" && !property.description) property.description = text;
    }
  }
}

const isObject = (value: unknown): value is JsonSchema =>
  Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** `{ allOf: [{ $ref }, { description }] }`, nothing else: the generator's spelling of a described reference. */
function describedReference(schema: JsonSchema): { $ref: string; description: string } | undefined {
  const { allOf, ...rest } = schema;
  if (Object.keys(rest).length > 0 || !Array.isArray(allOf) || allOf.length !== 2) return undefined;
  const [target, text] = allOf as unknown[];
  if (!isObject(target) || !isObject(text)) return undefined;
  if (Object.keys(target).length !== 1 || typeof target.$ref !== "string") return undefined;
  if (Object.keys(text).length !== 1 || typeof text.description !== "string") return undefined;
  return { $ref: target.$ref, description: text.description };
}

function fill(node: unknown, components: Record<string, JsonSchema>): void {
  if (Array.isArray(node)) {
    for (const item of node) fill(item, components);
    return;
  }
  if (!isObject(node)) return;
  const properties = node.properties;
  if (isObject(properties)) {
    for (const [name, field] of Object.entries(properties)) {
      if (!isObject(field)) continue;
      const reference = describedReference(field);
      if (reference) {
        properties[name] = reference;
        continue;
      }
      if (typeof field.$ref === "string" && !field.description) {
        const target = components[field.$ref.replace("#/components/schemas/", "")];
        if (typeof target?.description === "string") field.description = target.description;
      }
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "example" || key === "examples") continue;
    fill(value, components);
  }
}

/**
 * Gives each field that holds a named schema its description beside the `$ref`: its declared text, the field's
 * own text (from `allOf`), or, for a field that gave none, the description of the schema it holds. Run after the uniform fields
 * are described, so that those keep their own texts.
 */
export function describeReferences(document: {
  paths?: unknown;
  webhooks?: unknown;
  components?: { schemas?: unknown };
}): void {
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  addDeclared(components);
  fill(components, components);
  fill(document.paths, components);
  fill(document.webhooks, components);
}
