/**
 * Descriptions of fields whose schema is a named component, which the document shows as a bare `$ref` (a
 * publication's `price`, a session's `member`, an event's `type`). The generator cannot write a description
 * beside a `$ref`: a field's `.openapi({ description })` lands on the component itself, where every other use of
 * it would read it. So a schema declares such a text here, by component and field, and the document builder
 * (functions/openapi.ts) writes it beside the field's `$ref`, which OpenAPI 3.1 allows. The shapes do not change.
 */
import type { JsonSchema } from "./openapi-examples";

const texts = new Map<string, Record<string, string>>();

/** Declares what the `$ref` fields of one component mean: `describeRefFields("Publication", { price: "…" })`. */
export function describeRefFields(component: string, fields: Record<string, string>): void {
  texts.set(component, { ...texts.get(component), ...fields });
}

/** Writes each declared text on its field of the document's components, unless the field already has one. */
export function addRefFieldDescriptions(components: Record<string, JsonSchema>): void {
  for (const [component, fields] of texts) {
    const properties = components[component]?.properties as Record<string, JsonSchema> | undefined;
    if (!properties) continue;
    for (const [field, text] of Object.entries(fields)) {
      const property = properties[field];
      if (property && typeof property === "object" && !property.description) property.description = text;
    }
  }
}
