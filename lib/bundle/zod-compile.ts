/**
 * Stands in for zod's ahead-of-time compiler (`zod/v4/core/compile.js`: `z.compile`, `z.withParser`, about 29 KiB
 * minified) in the deployed bundles (wrangler.toml, wrangler.cron.toml and wrangler.engine.toml `[alias]`; the key is
 * the exact import zod's core index makes, and no other module of the bundles imports that path). Nothing in the
 * project or its dependencies calls it, and the runtime parser never imports it. On Workers, which refuse
 * `new Function`, zod's own `compile()` can only fall back: it hands the schema back unchanged (or, with
 * `{ strict: true }`, throws the refusal); this stand-in does the same without the code generator. zod's classic
 * namespace object is passed around whole (@hono/zod-openapi extends it), so the bundler cannot drop it on its own.
 */

/** The sentinel a compiled fast path returns for an invalid input (zod's parse compares against the same symbol). */
export const INVALID = Symbol.for("zod.compile.invalid");

export class ZodCompileAsyncError extends Error {
  constructor(message = "z.compile does not support async refinements, transforms, or checks") {
    super(message);
    this.name = "ZodCompileAsyncError";
  }
}

export class ZodCompileUnsupportedError extends Error {
  islandable: boolean;
  constructor(feature: string, islandable = true) {
    super(`z.compile does not support ${feature}; this schema must use the runtime parser`);
    this.name = "ZodCompileUnsupportedError";
    this.islandable = islandable;
  }
}

const GENERATION = "code generation in this bundle (Workers refuse new Function)";

/** As zod's compile() where code cannot be generated: the schema itself, on the runtime parser. */
export function compile<T>(schema: T, options?: { strict?: boolean }): T {
  if (options?.strict) throw new ZodCompileUnsupportedError(GENERATION, false);
  return schema;
}

export function withParser(): never {
  throw new ZodCompileUnsupportedError("withParser in this bundle (lib/bundle/zod-compile.ts)", false);
}

export function compileFn(): never {
  throw new ZodCompileUnsupportedError(GENERATION, false);
}
