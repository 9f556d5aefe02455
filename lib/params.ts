import { z } from "@hono/zod-openapi";

/**
 * Query-string parameter parsers. Query values arrive as strings (or arrays when repeated); each parser
 * accepts exactly one canonical spelling so that `1e1`, ` 5`, `0x10` or `NaN` are rejected with a precise
 * message instead of being coerced.
 */

const INTEGER = /^-?(0|[1-9]\d*)$/;
const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Upper bound of decimal measures in queries (centimetres): far beyond any artwork, well inside a double. */
const MAX_MEASURE = 1_000_000_000;

/** An integer in [min, max]. Out-of-range and non-integer strings fail. */
export function intParam(opts: { min: number; max: number; description?: string }) {
  return z
    .string()
    .regex(INTEGER, { message: "must be an integer written in decimal digits" })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(opts.min, { message: `must be at least ${opts.min}` })
        .max(opts.max, { message: `must be at most ${opts.max}` }),
    )
    .openapi({ type: "integer", minimum: opts.min, maximum: opts.max, description: opts.description });
}

/** A non-negative decimal number, at most `max` when given. */
export function nonNegativeNumberParam(opts: { description?: string } = {}) {
  return z
    .string()
    .regex(DECIMAL, { message: "must be a number >= 0 written in decimal digits, e.g. 40 or 40.5" })
    .transform(Number)
    .pipe(
      z
        .number()
        .finite()
        .max(MAX_MEASURE, { message: `must be at most ${MAX_MEASURE}` }),
    )
    .openapi({ type: "number", minimum: 0, maximum: MAX_MEASURE, description: opts.description });
}

/** `true` or `false`, nothing else. */
export function boolParam(description: string) {
  return z
    .enum(["true", "false"], { message: "must be true or false" })
    .transform((v) => v === "true")
    .openapi({ type: "string", enum: ["true", "false"], description });
}

/** A parameter that may be repeated (`?a=x&a=y`); a single occurrence is a one-item list. */
export function repeatable<T extends z.ZodType>(
  item: T,
  opts: { min?: number; max: number; description?: string },
) {
  return z
    .preprocess(
      (v) => (v === undefined || Array.isArray(v) ? v : [v]),
      z
        .array(item)
        .min(opts.min ?? 1, { message: `needs at least ${opts.min ?? 1} value(s)` })
        .max(opts.max, { message: `accepts at most ${opts.max} values` }),
    )
    .openapi({ description: opts.description });
}

/** A comma-separated list (`ids=a,b,c`). Empty items are rejected. */
export function csvParam<T extends z.ZodType<unknown, string>>(
  item: T,
  opts: { min?: number; max: number; description?: string },
) {
  return z
    .string()
    .transform((v) => v.split(","))
    .pipe(
      z
        .array(item)
        .min(opts.min ?? 1, { message: `needs at least ${opts.min ?? 1} item(s)` })
        .max(opts.max, { message: `accepts at most ${opts.max} comma-separated items` }),
    )
    .openapi({ type: "string", description: opts.description });
}

/** A resource id in path or query: prefixed, bounded, so junk never reaches the database. */
export function idString(prefix: string) {
  return z
    .string()
    .max(64, { message: "is not a valid id" })
    .regex(new RegExp(`^${prefix}_[0-9a-z]{10,40}$`), { message: `must be an id beginning with ${prefix}_` })
    .openapi({ example: `${prefix}_01jd4xk9v2c7h8m3n5p6q7r8s9` });
}

/** An email address as the API stores it: trimmed, lower-cased, at most 254 characters, a valid address. */
export const emailAddress = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .pipe(z.email({ message: "must be an email address" }));
