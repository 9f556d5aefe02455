import type { Router } from "../http/app";
import { SESSION_COOKIE } from "../http/auth";
import { operationRegistry } from "../http/operation";
import { catalogueTypes, eventEnvelopeSchema } from "../lib/event-catalogue";
import { eventTypes } from "../lib/event-types";
import { describeUniformFields, pathParameterDescription } from "../lib/openapi-descriptions";
import {
  type ExampleContext,
  exampleFor,
  idPrefixesFromPaths,
  type JsonSchema,
  singularResource,
} from "../lib/openapi-examples";
import { describeReferences } from "../lib/openapi-references";
import { ApiError, type ErrorCode, errorCodes, PROBLEM_CONTENT_TYPE, problemBody } from "../lib/problem";
import { eventReadScopes } from "./events/read-scopes";

export const openApiInfo = {
  title: "Gallery Platform API",
  version: "1.0.0",
  description:
    "The JSON API that runs an art gallery's business. Errors are `application/problem+json` (see `/v1/errors`). Lists are cursor-paginated (`limit`, `cursor`, `sort`, `dir`); responses are `{data, next_cursor}`.\n\nThe same operations are Model Context Protocol tools at `POST /v1/mcp` (Streamable HTTP, stateless), with the same credential as `Authorization: Bearer`: one tool per operation, named by its `operationId`, its arguments the operation's path and query parameters and, as `body`, its request body. `tools/list` shows the operations the credential may call; a call is answered by the operation itself, so its scopes, tenancy, rate limit, idempotency and problems are the ones documented here. A write's `Idempotency-Key` is generated when the call gives none and returned with the result; an operation that supports a dry run is run dry unless the call says `confirm: true`.",
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
  // A connector's delivery is proved by its provider's signature (or, for Meta's handshake, its verify token), made
  // with the connection's secret: documented as the header or query parameter it arrives in.
  app.openAPIRegistry.registerComponent("securitySchemes", "whatsappSignature", {
    type: "apiKey",
    in: "header",
    name: "X-Hub-Signature-256",
    description:
      "Meta's signature of a WhatsApp delivery: `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the connection's `app_secret`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "whatsappVerifyToken", {
    type: "apiKey",
    in: "query",
    name: "hub.verify_token",
    description: "The connection's `verify_token`, which Meta sends back when it verifies the callback URL.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "twilioSignature", {
    type: "apiKey",
    in: "header",
    name: "X-Twilio-Signature",
    description:
      "Twilio's signature: the base64 HMAC-SHA1 of the public URL followed by each form parameter's name and value, sorted by name, keyed with the connection's `auth_token`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: "First-party member session (`gss_…`), issued by POST /v1/auth/sessions.",
  });
}

interface MediaObject {
  schema?: JsonSchema;
  example?: unknown;
}

interface OperationObject {
  operationId?: string;
  parameters?: { name: string; in: string; description?: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, MediaObject> };
  responses?: Record<string, { content?: Record<string, MediaObject> }>;
}

const JSON_TYPE = "application/json";
const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;
/** The request id every problem example shows (a real one is minted per request). */
const EXAMPLE_REQUEST_ID = `req_01jd4xk9v2c7h8m3n5p6q7r8s9`;

/** The first error code of each problem status: what a problem example of that status shows. */
function codeOfStatus(status: number): ErrorCode | undefined {
  return (Object.keys(errorCodes) as ErrorCode[]).find((code) => errorCodes[code].status === status);
}

/** The resource an operation's path is about (`/gallery/artworks/{id}/publish` → `artwork`), for its `id`. */
function resourceOfPath(path: string, ctx: ExampleContext): string | undefined {
  const segments = path.split("/").filter((s) => s && !s.startsWith("{"));
  return segments
    .reverse()
    .map(singularResource)
    .find((resource) => ctx.idPrefixes.has(`${resource}_id`));
}

/** The path with an example id of the right prefix in each parameter: the `instance` of a problem example. */
function examplePath(path: string, resource: string | undefined, ctx: ExampleContext): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const field = name === "id" ? `${resource}_id` : name.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
    const prefix = ctx.idPrefixes.get(field);
    return prefix ? `${prefix}_01jd4xk9v2c7h8m3n5p6q7r8s9` : name;
  });
}

/**
 * Describes the uniform fields and the resource path parameters a schema left undescribed
 * (lib/openapi-descriptions.ts), then the fields that hold a named schema (lib/openapi-references.ts).
 */
function addDescriptions(document: ReturnType<Router["getOpenAPI31Document"]>): void {
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const ctx: ExampleContext = { components, idPrefixes: idPrefixesFromPaths(operationRegistry) };
  const inline: { node: unknown; resource: string | undefined }[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const resource = resourceOfPath(path, ctx);
    for (const method of HTTP_METHODS) {
      const op = (item as Record<string, OperationObject | undefined>)[method];
      if (!op) continue;
      inline.push({ node: op.requestBody, resource }, { node: op.responses, resource });
      for (const parameter of op.parameters ?? []) {
        if (parameter.in !== "path" || parameter.description || parameter.schema?.description) continue;
        const text = pathParameterDescription(parameter.name, resource, ctx);
        if (text) parameter.description = text;
      }
    }
  }
  for (const item of Object.values(document.webhooks ?? {})) {
    inline.push({
      node: (item as Record<string, OperationObject | undefined>).post?.requestBody,
      resource: "event",
    });
  }
  describeUniformFields(components, inline, ctx);
  describeReferences(document);
}

/**
 * Gives every JSON request body and JSON response of the document an example (lib/openapi-examples.ts): the
 * request body's required fields, with the operation's declared `exampleBody` (the body the conformance suite
 * sends) laid over them; each success response in full; each problem response as the API renders that status.
 * Examples the schemas declared themselves are kept.
 */
function addExamples(document: ReturnType<Router["getOpenAPI31Document"]>, serverUrl: string): void {
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const ctx: ExampleContext = { components, idPrefixes: idPrefixesFromPaths(operationRegistry) };
  const declared = new Map(operationRegistry.map((op) => [op.operationId, op.exampleBody]));
  const origin = serverUrl.replace(/\/v1$/, "");
  const operations = (items: Record<string, unknown> | undefined, webhook: boolean) =>
    Object.entries(items ?? {}).flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((method) => {
        const op = (item as Record<string, OperationObject | undefined>)[method];
        return op ? [{ path, op, webhook }] : [];
      }),
    );
  for (const { path, op, webhook } of [
    ...operations(document.paths, false),
    ...operations(document.webhooks, true),
  ]) {
    // A webhook's body is an event: its `id` is the event's.
    const resource = webhook ? "event" : resourceOfPath(path, ctx);
    const body = op.requestBody?.content?.[JSON_TYPE];
    if (body?.schema && body.example === undefined) {
      const generated = exampleFor(body.schema, ctx, {
        requiredOnly: true,
        ...(resource ? { resource } : {}),
      });
      const overlay = op.operationId ? declared.get(op.operationId) : undefined;
      body.example =
        overlay && generated && typeof generated === "object" ? { ...generated, ...overlay } : generated;
    }
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      const json = response.content?.[JSON_TYPE];
      if (json?.schema && json.example === undefined) {
        json.example = exampleFor(json.schema, ctx, resource ? { resource } : {});
      }
      const problem = response.content?.[PROBLEM_CONTENT_TYPE];
      const code = codeOfStatus(Number(status));
      if (problem && problem.example === undefined && code) {
        const instance = `/v1${examplePath(path, resource, ctx)}`;
        problem.example = problemBody(origin, new ApiError(code), instance, EXAMPLE_REQUEST_ID);
      }
    }
  }
}

/**
 * The document the API serves. `examples: false` leaves out the request and response examples (most of the work of
 * building it): for readers of the schemas and texts alone, such as the MCP tools (functions/mcp/).
 */
export function openApiDocument(app: Router, serverUrl: string, options: { examples?: boolean } = {}) {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: openApiInfo,
    servers: [{ url: serverUrl, description: "This server" }],
  });
  addDescriptions(document);
  if (options.examples ?? true) addExamples(document, serverUrl);
  return document;
}
