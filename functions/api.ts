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
  // Request ids, the body limit, the NUL check and problem rendering come from `app`, once per request.
  const mounted = { mounted: true };
  const v1 = createRouter(mounted);
  v1.route("/", metaRouter(mounted));
  v1.route("/", artworksRouter(mounted));
  v1.route("/", eventsRouter(mounted));
  v1.route("/", authRouter(mounted));
  v1.route("/", apiKeysRouter(mounted));
  v1.route("/", membersRouter(mounted));
  v1.route("/", webhooksRouter(mounted));
  registerOpenApiComponents(v1);
  v1.get("/openapi.json", (c) => c.json(openApiDocument(v1, `${publicBaseUrl(c.env)}/v1`)));
  app.route("/v1", v1);
  return app;
}

const app = createApiApp();

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
