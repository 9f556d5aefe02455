import fc from "fast-check";
import { type JsonSchema, type OpenApiDocument, openApiDocument } from "../../helpers/openapi";

/** Values for generated requests (test/platform/robustness.test.ts): valid and hostile, per JSON Schema. */

/** The document every value is generated from, and judged by. */
export const doc: OpenApiDocument = await openApiDocument();

// ---------------------------------------------------------------------------------------------------------
// Values

/** A JSON number (or other literal) written exactly as given, e.g. `1e309` or `-0`, which JSON.stringify cannot. */
export class Raw {
  constructor(readonly text: string) {}
}

export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export const LONG = "x".repeat(100_000);

/** Strings that are wrong for most parameters: numbers that are not, overflow, NaN-likes, odd spacing, junk. */
export const hostileStrings = [
  "",
  " ",
  "0",
  "-1",
  "-0",
  "1.5",
  "1e1",
  " 5",
  "5 ",
  "+5",
  "0x10",
  "007",
  "9007199254740992",
  "9007199254740993",
  "99999999999999999999999",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "2024-02-30T00:00:00Z",
  "2024-01-01",
  "2024-01-01T25:00:00Z",
  "yesterday",
  "é😀",
  "\u0000",
  "a,b,,c",
  ",",
  "art_",
  "ART_01JD4XK9V2C7H8M3N5P6Q7R8S9",
  "evt_01jd4xk9v2c7h8m3n5p6q7r8s9",
  "art_01jd4xk9v2c7h8m3n5p6q7r8s9",
  "key_01jd4xk9v2c7h8m3n5p6q7r8s9",
  "' or 1=1 --",
  LONG,
];

export const hostileJson: unknown[] = [
  new Raw("0"),
  new Raw("-0"),
  new Raw("-1"),
  new Raw("0.5"),
  new Raw("1e1"),
  new Raw("9007199254740992"),
  new Raw("9007199254740993"),
  new Raw("1e309"),
  new Raw("-1e309"),
  new Raw("1e-400"),
  true,
  false,
  null,
  [],
  {},
  [null],
  { a: 1 },
  "",
  " ",
  "NaN",
  "Infinity",
  " 5",
  "2024-02-30T00:00:00Z",
  "yesterday",
  "\u0000",
  "é😀",
  LONG,
];

export function resolve(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === "string") {
    return resolve(doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]!);
  }
  return schema;
}

export function types(schema: JsonSchema): string[] {
  const s = resolve(schema);
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.anyOf) return s.anyOf.flatMap((sub) => types(sub as JsonSchema));
  return [];
}

/** Values valid for a schema (kept small: the point is the hostile ones mixed in). */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf) return fc.oneof(...s.anyOf.map((sub) => validValue(sub as JsonSchema)));
  const options = types(s).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return fc.integer({ min: Math.max(s.minimum ?? -1e6, -1e6), max: Math.min(s.maximum ?? 1e6, 1e6) });
      case "number":
        return fc.double({
          min: Math.max(s.minimum ?? -1e6, -1e6),
          max: Math.min(s.maximum ?? 1e6, 1e6),
          noNaN: true,
          noDefaultInfinity: true,
        });
      case "array": {
        const items = validValue((s.items as JsonSchema | undefined) ?? {});
        return fc.array(items, { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
      }
      case "object": {
        if (!s.properties) {
          const value = s.additionalProperties && typeof s.additionalProperties === "object";
          return value
            ? fc.dictionary(
                fc.string({ minLength: 1, maxLength: 10 }),
                validValue(s.additionalProperties as JsonSchema),
                {
                  maxKeys: 3,
                },
              )
            : fc.constant({});
        }
        const props = Object.fromEntries(
          Object.entries(s.properties).map(([k, v]) => [k, validValue(v as JsonSchema)]),
        );
        return fc.record(props, { requiredKeys: (s.required ?? []) as never[] });
      }
      default: {
        if (s.format === "date-time") {
          return fc
            .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
            .map((d) => d.toISOString());
        }
        const max = Math.min(s.maxLength ?? 20, 20);
        if (s.pattern) {
          return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 1e9));
        }
        return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.max(max, s.minLength ?? 0) });
      }
    }
  });
  return options.length ? fc.oneof(...options) : fc.jsonValue();
}

/** A value that is probably wrong for this schema: another type, a boundary, too long, a bad enum member. */
export function hostileValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const specific: unknown[] = [];
  if (s.maxLength !== undefined) specific.push("y".repeat(s.maxLength + 1));
  if (s.enum) specific.push(`${s.enum[0]}_not`, String(s.enum[0]).toUpperCase(), ` ${s.enum[0]}`);
  if (s.maximum !== undefined) specific.push(new Raw(String(s.maximum + 1)));
  if (s.minimum !== undefined) specific.push(new Raw(String(s.minimum - 1)));
  if (s.minItems !== undefined) specific.push([]);
  return fc.oneof(
    fc.constantFrom(...hostileJson),
    fc.constantFrom(...(specific.length ? specific : [null])),
    fc.jsonValue({ maxDepth: 2 }),
  );
}

export function hostileParam(schema: JsonSchema): fc.Arbitrary<string> {
  const s = resolve(schema);
  const item = s.type === "array" ? resolve((s.items as JsonSchema | undefined) ?? {}) : s;
  const specific: string[] = [];
  if (item.maxLength !== undefined) specific.push("y".repeat(item.maxLength + 1));
  if (item.enum) specific.push(`${item.enum[0]}_not`, String(item.enum[0]).toUpperCase(), ` ${item.enum[0]}`);
  if (item.maximum !== undefined) specific.push(String(item.maximum + 1));
  if (item.minimum !== undefined) specific.push(String(item.minimum - 1));
  return fc.oneof(
    fc.constantFrom(...hostileStrings),
    fc.constantFrom(...(specific.length ? specific : ["-"])),
    fc.string({ maxLength: 12 }),
  );
}

/** A query value written the canonical way for its schema (numbers in decimal, booleans as true/false). */
export function validParam(schema: JsonSchema): fc.Arbitrary<string> {
  const s = resolve(schema);
  const item = s.type === "array" ? ((s.items as JsonSchema | undefined) ?? {}) : s;
  return validValue(item).map((v) => (typeof v === "string" ? v : toJson(v)));
}
