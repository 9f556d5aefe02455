import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createApiApp } from "../functions/api";

/** Writes the OpenAPI document the Worker serves at /v1/openapi.json, for linting and publishing. */
const outIndex = process.argv.indexOf("--out");
const out = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
const response = await createApiApp().request("https://api.gallery-platform.example/v1/openapi.json");
const document = JSON.stringify(await response.json(), null, 2);
if (out) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${document}\n`);
} else {
  process.stdout.write(`${document}\n`);
}
