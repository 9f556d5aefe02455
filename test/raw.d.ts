/** Vite serves a file's text for an import with `?raw` (test/platform/readme.test.ts reads README.md so). */
declare module "*.md?raw" {
  const text: string;
  export default text;
}

/** wrangler.toml as text (test/platform/rate-limits.test.ts compares its `[[ratelimits]]` with lib/rate-limits.ts). */
declare module "*.toml?raw" {
  const text: string;
  export default text;
}

/** A raw message (test/connectors/fixtures/email/), 7-bit, so its text is its bytes. */
declare module "*.eml?raw" {
  const text: string;
  export default text;
}

/** A connector fixture as the provider sends it: a webhook's JSON body, byte for byte (test/connectors/). */
declare module "*.json?raw" {
  const text: string;
  export default text;
}

/** A form-encoded request body, as Twilio posts it (test/connectors/fixtures/twilio/). */
declare module "*.txt?raw" {
  const text: string;
  export default text;
}
