import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createApiApp } from "../functions/api";

/** Writes the OpenAPI document the Worker serves at /v1/openapi.json, for linting and publishing. */
const outIndex = process.argv.indexOf("--out");
const out = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
// The document needs no database: placeholders satisfy the Worker's settings check.
const env = {
  PUBLIC_BASE_URL: "https://api.gallery-platform.example",
  DATABASE_URL: "postgres://unused",
  SIGNING_SECRET: "unused",
};
const response = await createApiApp().request("http://localhost/v1/openapi.json", {}, env);
const document = JSON.stringify(await response.json(), null, 2);
if (out) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${document}\n`);
} else {
  process.stdout.write(`${document}\n`);
}
