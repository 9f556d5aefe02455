import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { openApiDocument } from "./openapi-document";

/** Writes the OpenAPI document the Worker serves at /v1/openapi.json, for linting and publishing. */
const outIndex = process.argv.indexOf("--out");
const out = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
const document = JSON.stringify(await openApiDocument(), null, 2);
if (out) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${document}\n`);
} else {
  process.stdout.write(`${document}\n`);
}
