import type { z } from "@hono/zod-openapi";

/**
 * A shape with a description on each field `texts` names (the others unchanged): one text per field, shared by a
 * resource's output schema and its create and update bodies, so the three say the same.
 */
export function described<S extends Record<string, z.ZodType>>(
  shape: S,
  texts: Partial<Record<keyof S, string>>,
): S {
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const text = texts[name as keyof S];
      return [name, text ? schema.openapi({ description: text }) : schema];
    }),
  ) as S;
}
