import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, listSpec, paginationQuery } from "../../lib/pagination";
import { DeadLetter } from "../../lib/schemas/engine";
import { ADMIN_SCOPE } from "../../lib/scopes";
import { listGalleryDeadLetters } from "../../services/engine-failures/read";

const DeadLetterList = listResponse(DeadLetter, "DeadLetterList");

/** Latest first by when it first reached the dead-letter queue. */
const byFirstSeen = listSpec({ sorts: ["first_seen"], defaultSort: "first_seen" });

const route = operation({
  operationId: "listDeadLetters",
  method: "get",
  path: "/gallery/engine/dead-letters",
  tags: ["Engine"],
  summary: "List messages that reached a dead-letter queue",
  description:
    "The operator's record of the gallery's Queue messages that exhausted their retries: engine subjects (`gallery-engine-dlq`) and webhook tickets (`gallery-webhooks-dlq`), each once, latest first, with the attempts the Queue made. Nothing is lost with them: a dead-lettered subject stays stale in the database for the sweep (see GET /v1/gallery/engine/failures), a dead-lettered ticket's deliveries stay pending for the next drain.",
  auth: { scopes: [ADMIN_SCOPE] },
  list: byFirstSeen,
  request: { query: z.strictObject({ ...paginationQuery(byFirstSeen) }) },
  responses: {
    200: {
      description: "A page of dead letters.",
      content: { "application/json": { schema: DeadLetterList } },
    },
  },
});

export function registerDeadLettersList(app: Router): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof DeadLetterList>>(c, route, query, (page) =>
      listGalleryDeadLetters(ctx, page),
    );
  });
}
