/**
 * Descriptions of the fields whose meaning is the same wherever they appear (an object's `id`, `created_at`,
 * `updated_at`, a page's `data` and `next_cursor`, a reference `<resource>_id`, an event's `object`) and of path
 * parameters naming a resource, filled in where the document is built (functions/openapi.ts) when a schema did not
 * say it itself. Fields whose meaning depends on their resource are described in lib/schemas/.
 */
import type { ExampleContext, JsonSchema } from "./openapi-examples";
import { resourceOfComponent } from "./openapi-examples";

const words = (resource: string) => resource.replaceAll("_", " ");
/** `artwork` → `an artwork`. */
const article = (noun: string) => `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;

/** The description of a field called `name` in an object about `resource`, or undefined when it depends. */
export function uniformFieldDescription(
  name: string,
  schema: JsonSchema,
  resource: string | undefined,
  ctx: ExampleContext,
): string | undefined {
  const prefix = (field: string) => ctx.idPrefixes.get(field);
  switch (name) {
    case "id": {
      const p = resource ? prefix(`${resource}_id`) : undefined;
      return p && resource
        ? `The ${words(resource)}'s id (\`${p}_…\`): prefixed and time-ordered; unique, never reused.`
        : undefined;
    }
    case "created_at":
      return "When it was created (UTC, milliseconds).";
    case "updated_at":
      return "When it last changed (UTC, milliseconds).";
    case "archived_at":
      return "When it was put on the archive shelf (UTC, milliseconds); null while it is not archived.";
    case "next_cursor":
      return "Pass it as `cursor` to read the next page; null on the last page.";
    case "data":
      return schema.type === "array"
        ? "This page's items, in the order `sort` and `dir` ask for."
        : undefined;
    case "object":
      return typeof schema.$ref === "string"
        ? "The resource after the change, exactly as its retrieve operation returns it (just before it, for a deletion)."
        : undefined;
    case "livemode":
      return "Whether it belongs to a live gallery (false: a sandbox gallery).";
  }
  const reference = /^(\w+)_id$/.exec(name)?.[1];
  const p = reference ? prefix(name) : undefined;
  if (reference && p) return `The id (\`${p}_…\`) of ${article(words(reference))} of this gallery.`;
  const many = /^(\w+)_ids$/.exec(name)?.[1];
  const q = many ? prefix(`${many}_id`) : undefined;
  if (many && q) return `Ids (\`${q}_…\`) of ${words(many)}s of this gallery.`;
  return undefined;
}

function fill(node: unknown, resource: string | undefined, ctx: ExampleContext): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) fill(item, resource, ctx);
    return;
  }
  const schema = node as JsonSchema;
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties && typeof properties === "object") {
    for (const [name, sub] of Object.entries(properties)) {
      if (sub && typeof sub === "object" && !sub.description) {
        const text = uniformFieldDescription(name, sub, resource, ctx);
        if (text) sub.description = text;
      }
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "example" || key === "examples") continue;
    // A field's own object is not the resource: its `id` is not the resource's (an event's `data.feedback.id`).
    fill(value, key === "properties" ? undefined : resource, ctx);
  }
}

/** Fills the uniform fields of every component (its resource from its name) and of inline schemas. */
export function describeUniformFields(
  components: Record<string, JsonSchema>,
  inline: { node: unknown; resource: string | undefined }[],
  ctx: ExampleContext,
): void {
  for (const [name, schema] of Object.entries(components)) fill(schema, resourceOfComponent(name), ctx);
  for (const { node, resource } of inline) fill(node, resource, ctx);
}

/** A path parameter naming a resource: `{id}` of `/gallery/artworks/{id}`, `{formatId}`. */
export function pathParameterDescription(
  name: string,
  resource: string | undefined,
  ctx: ExampleContext,
): string | undefined {
  const field =
    name === "id"
      ? resource
        ? `${resource}_id`
        : undefined
      : name.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
  const prefix = field ? ctx.idPrefixes.get(field) : undefined;
  if (!field || !prefix) return undefined;
  return `The ${words(field.replace(/_id$/, ""))}'s id (\`${prefix}_…\`); an id of another gallery is answered 404, like a missing one.`;
}
