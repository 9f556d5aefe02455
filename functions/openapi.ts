import type { Router } from "../http/app";
import { SESSION_COOKIE } from "../http/auth";
import { operationRegistry } from "../http/operation";
import { catalogueTypes, eventEnvelopeSchema } from "../lib/event-catalogue";
import { eventTypes } from "../lib/event-types";
import { eventReadScopes } from "./events/read-scopes";

export const openApiInfo = {
  title: "Gallery Platform API",
  version: "1.0.0",
  description:
    "The JSON API that runs an art gallery's business. Errors are `application/problem+json` (see `/v1/errors`). Lists are cursor-paginated (`limit`, `cursor`, `sort`, `dir`); responses are `{data, next_cursor}`.",
};

const signatureHeaders = [
  {
    name: "webhook-id",
    description:
      "The event id, the same on every retry and replay: dedupe on it (delivery is at least once; the same event may arrive twice).",
  },
  { name: "webhook-timestamp", description: "Unix seconds when this attempt was signed." },
  {
    name: "webhook-signature",
    description:
      "Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`; during a secret rotation one per valid secret. Verify with any Standard Webhooks library.",
  },
].map((h) => ({ ...h, in: "header" as const, required: true, schema: { type: "string" as const } }));

/** What a receiver can rely on about order (docs/webhooks.md says the same at length). */
const DELIVERY_ORDER =
  "Order: none is guaranteed across events. An endpoint's first attempts are made oldest first, up to 5 at a time, so they mostly arrive in order, but a retry arrives after newer events. To order the events of one resource (`resource_type`, `resource_id`), compare `created_at`: the events of one resource are recorded in the order their writes committed, and the events of one write share one `created_at`. When it matters, read the resource's current state rather than applying events in sequence.";

/** Every event type as an OpenAPI 3.1 webhook: what a subscribed endpoint receives. */
function registerWebhooks(app: Router): void {
  const scopes = eventReadScopes();
  for (const type of catalogueTypes) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `webhook_${type.replaceAll(".", "_")}`,
      tags: ["Webhooks"],
      security: [],
      summary: type,
      description: `${eventTypes[type]} Delivered signed per Standard Webhooks; any 2xx acknowledges it, other answers are retried.\n\n${DELIVERY_ORDER}\n\nRead scopes (all): ${scopes[type].map((s) => `\`${s}\``).join(", ")}. An endpoint is subscribed to this type only by a credential holding them; \`GET /gallery/events\` shows events of this type only to one holding them.`,
      request: {
        body: { content: { "application/json": { schema: eventEnvelopeSchema(type) } } },
      },
      parameters: signatureHeaders,
      responses: {
        200: { description: "Acknowledged (any 2xx)." },
        410: { description: "Gone: the endpoint is disabled and receives nothing more." },
      },
    });
  }
}

/** Security schemes, registered once on the v1 app (a scheme appears once an operation uses it). */
export function registerOpenApiComponents(app: Router): void {
  registerWebhooks(app);
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
