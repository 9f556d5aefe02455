/**
 * Stands in for zod's `locales` (`z.locales`: error messages in 60-odd languages, about 260 KiB minified) in the
 * deployed bundle (wrangler.toml `[alias]`). Nothing here reads `z.locales`: zod's English messages are built into
 * its classic API (`config(en())`), and every problem the API answers is written by the API itself. zod's classic
 * namespace object is passed around whole (@hono/zod-openapi extends it), so the bundler cannot drop the
 * locales on its own. The English locale stays reachable for anyone who asks for it.
 */
export { default as en } from "zod/v4/locales/en.js";
