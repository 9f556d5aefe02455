import { createRouter } from "../http/app";
import { withDependencyNames } from "../lib/dependency-failure";
import { type Env, publicBaseUrl } from "../lib/env";
import { apiKeysRouter } from "./api-keys";
import { artistsRouter } from "./artists";
import { artworkFormatsRouter } from "./artwork-formats";
import { artworkImagesRouter } from "./artwork-images";
import { artworkTimelineRouter } from "./artwork-timeline";
import { artworksRouter } from "./artworks";
import { auctionRecordsRouter } from "./auction-records";
import { authRouter } from "./auth";
import { connectorsRouter } from "./connectors";
import { contactEngagementsRouter } from "./contact-engagements";
import { contactInteractionsRouter } from "./contact-interactions";
import { contactListsRouter } from "./contact-lists";
import { contactRecapRouter } from "./contact-recap";
import { contactTasksRouter } from "./contact-tasks";
import { contactsRouter } from "./contacts";
import { customStatusesRouter } from "./custom-statuses";
import { registerApiReference } from "./docs";
import { engineFailuresRouter } from "./engine-failures";
import { eventsRouter } from "./events";
import { fairRunsRouter } from "./fair-runs";
import { inboxRouter } from "./inbox";
import { invoicesRouter } from "./invoices";
import { locationsRouter } from "./locations";
import { matchesRouter } from "./matches";
import { mcpRouter } from "./mcp";
import { membersRouter } from "./members";
import { metaRouter } from "./meta";
import { offersRouter } from "./offers";
import { openApiDocument, registerOpenApiComponents } from "./openapi";
import { privateNotesRouter } from "./private-notes";
import { publicViewingRoomsRouter } from "./public-viewing-rooms";
import { publicationsRouter } from "./publications";
import { salesRouter } from "./sales";
import { showTagsRouter } from "./show-tags";
import { showsRouter } from "./shows";
import { tagsRouter } from "./tags";
import { uploadsRouter } from "./uploads";
import { viewingRoomsRouter } from "./viewing-rooms";
import { webhooksRouter } from "./webhooks";

/** The v1 API Worker: every endpoint group mounted under /v1, and the OpenAPI document. */
export function createApiApp() {
  const app = createRouter();
  // Request ids, the body limit, the NUL check and problem rendering come from `app`, once per request.
  const mounted = { mounted: true };
  const v1 = createRouter(mounted);
  v1.route("/", metaRouter(mounted));
  v1.route("/", artworksRouter(mounted));
  v1.route("/", artworkImagesRouter(mounted));
  v1.route("/", uploadsRouter(mounted));
  v1.route("/", artworkFormatsRouter(mounted));
  v1.route("/", auctionRecordsRouter(mounted));
  v1.route("/", artworkTimelineRouter(mounted));
  v1.route("/", artistsRouter(mounted));
  v1.route("/", tagsRouter(mounted));
  v1.route("/", customStatusesRouter(mounted));
  v1.route("/", locationsRouter(mounted));
  v1.route("/", eventsRouter(mounted));
  v1.route("/", authRouter(mounted));
  v1.route("/", apiKeysRouter(mounted));
  v1.route("/", membersRouter(mounted));
  v1.route("/", webhooksRouter(mounted));
  v1.route("/", engineFailuresRouter(mounted));
  v1.route("/", contactRecapRouter(mounted));
  v1.route("/", privateNotesRouter(mounted));
  v1.route("/", contactListsRouter(mounted));
  v1.route("/", contactsRouter(mounted));
  v1.route("/", contactInteractionsRouter(mounted));
  v1.route("/", contactEngagementsRouter(mounted));
  v1.route("/", contactTasksRouter(mounted));
  v1.route("/", matchesRouter(mounted));
  v1.route("/", salesRouter(mounted));
  v1.route("/", invoicesRouter(mounted));
  v1.route("/", fairRunsRouter(mounted));
  v1.route("/", inboxRouter(mounted));
  v1.route("/", connectorsRouter(mounted));
  v1.route("/", offersRouter(mounted));
  v1.route("/", showsRouter(mounted));
  v1.route("/", showTagsRouter(mounted));
  v1.route("/", publicationsRouter(mounted));
  v1.route("/", viewingRoomsRouter(mounted));
  v1.route("/", publicViewingRoomsRouter(mounted));
  // The same operations as MCP tools, each call answered by this app (functions/mcp/).
  v1.route(
    "/",
    mcpRouter(mounted, {
      document: () => openApiDocument(v1, "/v1", { examples: false }),
      dispatch: (request, env, ctx) => app.fetch(request, env, ctx),
    }),
  );
  registerOpenApiComponents(v1);
  v1.get("/openapi.json", (c) => c.json(openApiDocument(v1, `${publicBaseUrl(c.env)}/v1`)));
  // The reference page reads the document above; it is HTML, so it is not an operation of the document.
  registerApiReference(v1);
  app.route("/v1", v1);
  return app;
}

const app = createApiApp();

export default {
  // The bindings' errors name their dependency, so a KV, R2 or Queue that cannot serve is a 503 naming it.
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    app.fetch(request, withDependencyNames(env), ctx),
  // Mail routed to the inbound domain: passed on, streamed, to the Email Worker (functions/email.ts), which reads
  // and stores it and answers the SMTP reply to reject it with, if any. Its parser stays out of this bundle.
  email: async (message: ForwardableEmailMessage, env: Env) => {
    const { rejected } = await env.MAIL.receive({
      from: message.from,
      to: message.to,
      raw: message.raw,
      rawSize: message.rawSize,
    });
    if (rejected !== null) message.setReject(rejected);
  },
} satisfies ExportedHandler<Env>;
