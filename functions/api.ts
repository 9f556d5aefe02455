import { type Env, publicBaseUrl } from "../lib/env";
import { createRouter } from "../lib/http/app";
import { apiKeysRouter } from "./api-keys";
import { artworksRouter } from "./artworks";
import { authRouter } from "./auth";
import { eventsRouter } from "./events";
import { membersRouter } from "./members";
import { metaRouter } from "./meta";
import { openApiDocument, registerOpenApiComponents } from "./openapi";
import { webhooksRouter } from "./webhooks";

/** The v1 API Worker: every endpoint group mounted under /v1, and the OpenAPI document. */
export function createApiApp() {
  const app = createRouter();
  const v1 = createRouter();
  v1.route("/", metaRouter());
  v1.route("/", artworksRouter());
  v1.route("/", eventsRouter());
  v1.route("/", authRouter());
  v1.route("/", apiKeysRouter());
  v1.route("/", membersRouter());
  v1.route("/", webhooksRouter());
  registerOpenApiComponents(v1);
  v1.get("/openapi.json", (c) => c.json(openApiDocument(v1, `${publicBaseUrl(c.env)}/v1`)));
  app.route("/v1", v1);
  return app;
}

const app = createApiApp();

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
