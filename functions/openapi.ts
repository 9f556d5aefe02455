import type { Router } from "../lib/app";
import { SESSION_COOKIE } from "../lib/auth";
import { eventTypes } from "../lib/event-types";

export const openApiInfo = {
  title: "Gallery Platform API",
  version: "1.0.0",
  description:
    "The JSON API that runs an art gallery's business. Errors are `application/problem+json` (see `/v1/errors`). Lists are cursor-paginated (`limit`, `cursor`, `sort`, `dir`); responses are `{data, next_cursor}`.",
};

/** Security schemes and the event catalogue, registered once on the v1 app. */
export function registerOpenApiComponents(app: Router): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "Secret API key `gpk_…` as `Authorization: Bearer` (or the `x-api-key` header), or a member session `gss_…`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "publishableToken", {
    type: "http",
    scheme: "bearer",
    description: "Publishable token `gpub_…`: browser-safe, read-only, public viewing rooms only.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: "First-party member session (`gss_…`), issued by POST /v1/auth/sessions.",
  });
  app.openAPIRegistry.registerComponent("schemas", "EventType", {
    type: "string",
    enum: Object.keys(eventTypes),
    description: Object.entries(eventTypes)
      .map(([type, when]) => `- \`${type}\`: ${when}`)
      .join("\n"),
  });
}

export function openApiDocument(app: Router, serverUrl: string) {
  return app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: openApiInfo,
    servers: [{ url: serverUrl, description: "This server" }],
  });
}
