import { createApiApp } from "../functions/api";

/** The OpenAPI document the Worker serves at /v1/openapi.json, built in-process (no database, no network). */
export async function openApiDocument(): Promise<unknown> {
  // The document needs no database: placeholders satisfy the Worker's settings check.
  const env = {
    PUBLIC_BASE_URL: "https://api.gallery-platform.example",
    DATABASE_URL: "postgres://unused",
    SIGNING_SECRET: "unused",
  };
  const response = await createApiApp().request("http://localhost/v1/openapi.json", {}, env);
  return response.json();
}
