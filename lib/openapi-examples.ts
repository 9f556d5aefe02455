/**
 * Examples for the OpenAPI document, generated from the schemas it already holds (zod's, converted by the
 * OpenAPI generator), never copied by hand per operation: functions/openapi.ts gives every operation's JSON
 * request body and JSON responses an `example` built here. A value declared with `.openapi({ example })` wins;
 * otherwise the value follows the schema (its const, first enum value, format, bounds) and, for a plain string or
 * number, the field's name in gallery terms: ids carry their resource's prefix, `*_cents` are money, `*_at` are
 * UTC instants with milliseconds.
 */

export type JsonSchema = Record<string, unknown>;

export interface ExampleContext {
  /** `#/components/schemas/…`, to follow references. */
  components: Record<string, JsonSchema>;
  /** Id field name (`artwork_id`) → its prefix (`art`), from the operations' path parameters and id patterns. */
  idPrefixes: ReadonlyMap<string, string>;
}

/** The Crockford digits every example id carries after its prefix (the format of lib/ids.ts). */
const ID_DIGITS = "01jd4xk9v2c7h8m3n5p6q7r8s9";
const INSTANT = "2026-11-21T09:37:31.548Z";
const DAY = "2026-11-21";

/** Strings by field name: what such a field holds in a gallery's records. */
const WORDS: Record<string, string> = {
  title: "Untitled (Blue)",
  name: "Ines Moreau",
  artist_name: "Ines Moreau",
  description: "Oil on linen from the artist's 2024 series of coastal studies.",
  notes: "Collector asked for the condition report before the fair.",
  note: "Recorded twice by mistake.",
  body: "Thank you for the preview; could we see the work in person next week?",
  summary: "Called about the spring show",
  medium: "Oil on canvas",
  email: "collector@example.com",
  phone: "+44 20 7946 0000",
  company: "Moreau Collection Ltd",
  label: "Framed",
  form_of_address: "Ms Moreau",
  component: "overall",
  caption: "Installation view",
  date_display: "c. 1962",
  dimensions_text: "120 × 90 cm",
  inventory_number: "NLG-2024-0117",
  provenance: "Acquired from the artist's studio, 2019.",
  exhibition_history: "Northlight Gallery, Coastal Studies, 2024.",
  literature: "Coastal Studies (exhibition catalogue), p. 14.",
  condition_notes: "Light craquelure along the lower edge; otherwise very good.",
  catalogue_raisonne: "IM-2019-042",
  coa_tracking_number: "COA-7731",
  nationality: "French",
  bio: "Painter working between Marseille and Oslo.",
  address: "12 Harbour Street, Leith, Edinburgh EH6 6LU",
  slug: "coastal-studies",
  venue: "Northlight Gallery, Edinburgh",
  subject: "Coastal Studies preview",
  message: "The portal refused the upload; retrying later.",
  currency: "USD",
  country: "GB",
  city: "Edinburgh",
  auction_house: "Christie's",
  lot_number: "117",
  source_system: "spreadsheet",
  source_external_id: "row-117",
  described_as: "Collectors of large abstract paintings under 50k",
  collecting_focus: "Post-war abstraction",
  url: "https://hooks.example.com/gallery",
  password: "correct horse battery staple",
};

/** Id fields named for their role rather than their resource. */
const ID_ALIASES: Record<string, string> = {
  assignee_id: "member_id",
  assigned_to: "member_id",
  author_id: "member_id",
  created_by: "member_id",
  user_id: "member_id",
  resource_id: "artwork_id",
};

/** The prefix of an id field: `id` of a resource, `artwork_id`, a `{formatId}` path parameter. */
function idPrefix(field: string | undefined, resource: string | undefined, ctx: ExampleContext) {
  if (!field) return undefined;
  if (field === "id") return resource ? ctx.idPrefixes.get(`${resource}_id`) : undefined;
  if (field.endsWith("_ids")) return ctx.idPrefixes.get(field.slice(0, -1));
  return ctx.idPrefixes.get(field);
}

/** `ContactList` → `contact_list`: the resource a component schema describes, for its `id`. */
export function resourceOfComponent(name: string): string {
  return name
    .replace(/(Create|Update|Input|Body|Page|List|Result)$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
}

function stringFor(
  schema: JsonSchema,
  field: string | undefined,
  resource: string | undefined,
  ctx: ExampleContext,
) {
  const pattern = typeof schema.pattern === "string" ? schema.pattern : "";
  const patterned = /^\^([a-z]{2,6})_\[0-9a-z\]/.exec(pattern)?.[1];
  if (patterned) return `${patterned}_${ID_DIGITS}`;
  switch (schema.format) {
    case "date-time":
      return INSTANT;
    case "date":
      return DAY;
    case "uuid":
      return "0f8fad5b-d9cb-469f-a165-70867728950e";
    case "email":
      return WORDS.email!;
    case "uri":
    case "url":
      return WORDS.url!;
  }
  if (field?.endsWith("currency")) return WORDS.currency!;
  const prefix = idPrefix(field && (ID_ALIASES[field] ?? field), resource, ctx);
  if (prefix) return `${prefix}_${ID_DIGITS}`;
  if (field?.endsWith("_at")) return INSTANT;
  if (field?.endsWith("_date") || field === "date") return DAY;
  if (field?.endsWith("_url")) {
    return `https://api.gallery-platform.example/v1/assets/galleries/gal_${ID_DIGITS}/artworks/art_${ID_DIGITS}/img_${ID_DIGITS}.jpg`;
  }
  let text = (field && WORDS[field]) ?? (field?.endsWith("_name") ? WORDS.name! : undefined);
  text ??= field ? field.replaceAll("_", " ") : "text";
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (text.length < min) text = text.padEnd(min, "x");
  return text.slice(0, max);
}

function numberFor(schema: JsonSchema, field: string | undefined): number {
  const integer =
    schema.type === "integer" || (Array.isArray(schema.type) && schema.type.includes("integer"));
  let value: number;
  if (field?.endsWith("_cents")) value = 1_250_000;
  else if (field?.endsWith("_bps")) value = 500;
  else if (field === "year" || field?.endsWith("_year")) value = 2024;
  else if (field === "probability" || field?.endsWith("_probability") || field === "score") value = 0.72;
  else if (field === "limit") value = 20;
  else if (field?.endsWith("_cm")) value = 120;
  else value = integer ? 1 : 1.5;
  const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const exclusiveMin = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  if (min !== undefined && value < min) value = min;
  if (exclusiveMin !== undefined && value <= exclusiveMin)
    value = integer ? exclusiveMin + 1 : exclusiveMin + 0.5;
  if (max !== undefined && value > max) value = integer ? max : Math.min(max, Math.max(min ?? 0, max / 2));
  return integer ? Math.round(value) : value;
}

interface Walk {
  field?: string;
  /** The resource whose `id` this object's `id` is (`artwork`). */
  resource?: string;
  /** Request bodies show their required fields only (what a first call needs); responses every field. */
  requiredOnly: boolean;
  depth: number;
  /** Components being expanded above this node: a recursive schema stops instead of looping. */
  seen: ReadonlySet<string>;
}

function walk(schema: JsonSchema | undefined, ctx: ExampleContext, at: Walk): unknown {
  if (!schema || typeof schema !== "object") return null;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/components/schemas/", "");
    if (at.seen.has(name) || at.depth > 8) return null;
    const seen = new Set(at.seen).add(name);
    return walk(ctx.components[name], ctx, {
      ...at,
      resource: resourceOfComponent(name),
      seen,
      depth: at.depth + 1,
    });
  }
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  if (schema.default !== undefined && at.field !== "id") return schema.default;
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      const branch = (branches as JsonSchema[]).find((b) => b.type !== "null") ?? branches[0];
      return walk(branch as JsonSchema, ctx, at);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign(
      {},
      ...(schema.allOf as JsonSchema[])
        .map((b) => walk(b, ctx, at))
        .filter((v) => v && typeof v === "object"),
    );
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const type = types.find((t) => t !== "null") ?? (schema.properties ? "object" : types[0]);
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(properties)) {
        if (at.requiredOnly && !required.has(name)) continue;
        out[name] = walk(sub, ctx, { ...at, field: name, depth: at.depth + 1 });
      }
      if (
        Object.keys(properties).length === 0 &&
        schema.additionalProperties &&
        typeof schema.additionalProperties === "object"
      ) {
        out.key = walk(schema.additionalProperties as JsonSchema, ctx, {
          ...at,
          field: "value",
          depth: at.depth + 1,
        });
      }
      return out;
    }
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      const max = typeof schema.maxItems === "number" ? schema.maxItems : 1;
      const count = Math.min(Math.max(1, min), max);
      const items = schema.items as JsonSchema | undefined;
      const field = at.field?.endsWith("_ids") ? at.field.slice(0, -1) : at.field;
      return Array.from({ length: count }, () => walk(items, ctx, { ...at, field, depth: at.depth + 1 }));
    }
    case "string":
      return stringFor(schema, at.field, at.resource, ctx);
    case "integer":
    case "number":
      return numberFor(schema, at.field);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return null;
  }
}

/** An example of `schema`: every field for a response, the required ones for a request body. */
export function exampleFor(
  schema: JsonSchema,
  ctx: ExampleContext,
  options: { requiredOnly?: boolean; resource?: string } = {},
): unknown {
  return walk(schema, ctx, {
    requiredOnly: options.requiredOnly ?? false,
    ...(options.resource ? { resource: options.resource } : {}),
    depth: 0,
    seen: new Set(),
  });
}

/** `contact-lists` → `contact_list`, `custom-statuses` → `custom_status`: a path segment's resource. */
export function singularResource(segment: string): string {
  const snake = segment.replaceAll("-", "_");
  if (snake.endsWith("ies")) return `${snake.slice(0, -3)}y`;
  if (snake.endsWith("statuses") || snake.endsWith("addresses")) return snake.slice(0, -2);
  if (snake.endsWith("s")) return snake.slice(0, -1);
  return snake;
}

/**
 * Id field names and their prefixes from the operations' paths: `/gallery/artworks/{id}` with `id` → `art` gives
 * `artwork_id` → `art`; `/gallery/artworks/{id}/formats/{formatId}` with `formatId` → `fmt` gives `format_id`.
 */
export function idPrefixesFromPaths(
  operations: readonly { path: string; pathIds: Record<string, string> }[],
): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const op of operations) {
    const segments = op.path.split("/");
    segments.forEach((segment, i) => {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      const prefix = param ? op.pathIds[param] : undefined;
      const before = segments[i - 1];
      if (!param || !prefix || !before || before.startsWith("{")) return;
      // `{id}` is the segment's resource; a named parameter (`{contactId}` under `members`) names its own.
      const named = param.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
      const field = named === "id" ? `${singularResource(before)}_id` : named;
      if (!prefixes.has(field)) prefixes.set(field, prefix);
    });
  }
  return prefixes;
}
