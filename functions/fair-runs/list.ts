import { z } from "@hono/zod-openapi";
import { fairRunList } from "../../db/queries/fair-runs";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { idString } from "../../lib/params";
import { FairRun, fairRunStatuses } from "../../lib/schemas/fair-runs";
import { listFairRuns } from "../../services/fair-runs/read";

const FairRunList = listResponse(FairRun, "FairRunList");

const route = operation({
  operationId: "listFairRuns",
  method: "get",
  path: "/gallery/fair-runs",
  tags: ["Fair runs"],
  summary: "List fair-submission runs",
  description:
    "The gallery's fair-submission runs, newest first by default; `sort=updated` orders by the last change. Filters combine: `status` (one status) and `user_id` (the runs acting for one member).",
  auth: { scopes: ["artworks:read"] },
  list: fairRunList,
  request: {
    query: z.strictObject({
      ...paginationQuery(fairRunList),
      status: z.enum(fairRunStatuses).optional().openapi({ description: "Runs in this status." }),
      user_id: idString("mem").optional().openapi({ description: "Runs acting for this member." }),
    }),
  },
  responses: {
    200: {
      description: "A page of fair runs.",
      content: { "application/json": { schema: FairRunList } },
    },
  },
});

export function registerFairRunsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof FairRunList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listFairRuns(ctx, filters, page),
    );
  });
}
