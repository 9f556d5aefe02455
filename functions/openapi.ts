import type { Router } from "../lib/app";
import { SESSION_COOKIE } from "../lib/auth";
import { operationRegistry } from "../lib/operation";

export const openApiInfo = {
  title: "Gallery Platform API",
  version: "1.0.0",
  description:
    "The JSON API that runs an art gallery's business. Errors are `application/problem+json` (see `/v1/errors`). Lists are cursor-paginated (`limit`, `cursor`, `sort`, `dir`); responses are `{data, next_cursor}`.",
};

/** Security schemes, registered once on the v1 app (a scheme appears once an operation uses it). */
export function registerOpenApiComponents(app: Router): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "Secret API key `gpk_…` as `Authorization: Bearer` (or the `x-api-key` header), or a member session `gss_…`.",
  });
  if (operationRegistry.some((op) => op.credentials.includes("publishable"))) {
    app.openAPIRegistry.registerComponent("securitySchemes", "publishableToken", {
      type: "http",
      scheme: "bearer",
      description: "Publishable token `gpub_…`: browser-safe, read-only, public viewing rooms only.",
    });
  }
  app.openAPIRegistry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: "First-party member session (`gss_…`), issued by POST /v1/auth/sessions.",
  });
}

export function openApiDocument(app: Router, serverUrl: string) {
  return app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: openApiInfo,
    servers: [{ url: serverUrl, description: "This server" }],
  });
}
