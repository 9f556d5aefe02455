import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { MAX_ATTEMPTS } from "../../lib/engine-queue";
import { listResponse, listSpec, paginationQuery } from "../../lib/pagination";
import { EngineFailure } from "../../lib/schemas/engine";
import { ADMIN_SCOPE } from "../../lib/scopes";
import { listGalleryEngineFailures } from "../../services/engine-failures/read";

const EngineFailureList = listResponse(EngineFailure, "EngineFailureList");

/** Latest first by when the last attempt failed. */
const byFailed = listSpec({ sorts: ["failed"], defaultSort: "failed" });

const route = operation({
  operationId: "listEngineFailures",
  method: "get",
  path: "/gallery/engine/failures",
  tags: ["Engine"],
  summary: "List the engine's failed subjects",
  description: `The operator's read of the engine loop: each of the gallery's subjects (an artwork, inbox thread, contact, contact list or show) whose last judging attempt failed, latest failure first, with its error and attempts. The other subjects of the same batch are judged regardless; a failed one is retried by the Queue and by the sweep, which stops sending it after ${MAX_ATTEMPTS} attempts (\`given_up\`). A write that changes its input starts its attempts over. A subject leaves this list once it is judged. Each item's \`id\` is \`<kind>:<subject_id>\`.`,
  auth: { scopes: [ADMIN_SCOPE] },
  list: byFailed,
  request: { query: z.strictObject({ ...paginationQuery(byFailed) }) },
  responses: {
    200: {
      description: "A page of failed subjects.",
      content: { "application/json": { schema: EngineFailureList } },
    },
  },
});

export function registerEngineFailuresList(app: Router): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof EngineFailureList>>(c, route, query, (page) =>
      listGalleryEngineFailures(ctx, page),
    );
  });
}
