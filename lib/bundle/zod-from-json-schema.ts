/**
 * Stands in for zod's JSON Schema reader (`zod/v4/classic/from-json-schema.js`: `z.fromJSONSchema`, about 12 KiB
 * minified) in the deployed bundles (wrangler.toml, wrangler.cron.toml and wrangler.engine.toml `[alias]`; the key
 * is the exact import zod's classic API makes, and no other module of the bundles imports that path). Nothing in
 * the project or its dependencies builds a zod schema from JSON Schema (writing JSON Schema, `z.toJSONSchema`, is
 * another module and stays). zod's classic namespace object is passed around whole (@hono/zod-openapi extends
 * it), so the bundler cannot drop it on its own.
 */
export function fromJSONSchema(): never {
  throw new Error("z.fromJSONSchema is left out of this bundle (lib/bundle/zod-from-json-schema.ts)");
}
