import { z } from "@hono/zod-openapi";
import { showList } from "../../db/queries/shows";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { idString } from "../../lib/params";
import { Show, showStatuses } from "../../lib/schemas/shows";
import { CalendarDate } from "../../lib/time";
import { listShows } from "../../services/shows/read";

const ShowList = listResponse(Show, "ShowList");

const route = operation({
  operationId: "listShows",
  method: "get",
  path: "/gallery/shows",
  tags: ["Shows"],
  summary: "List shows",
  description:
    "The gallery's shows, newest first by default; `sort=updated` orders by the last change and `sort=starts` by `starts_on` (undated shows sort as if they started on 0001-01-01: last in the default `desc`). Filters combine: `status`, `artwork_id` (shows that list the work), and `starts_after` (starts_on on or after the day) / `starts_before` (strictly before), which leave out undated shows.",
  auth: { scopes: ["shows:read"] },
  list: showList,
  request: {
    query: z.strictObject({
      ...paginationQuery(showList),
      status: z.enum(showStatuses).optional().openapi({ description: "Shows in this status." }),
      artwork_id: idString("art").optional().openapi({ description: "Shows that list this artwork." }),
      starts_after: CalendarDate.optional().openapi({
        description: "starts_on on or after this day (YYYY-MM-DD).",
      }),
      starts_before: CalendarDate.optional().openapi({
        description: "starts_on strictly before this day (YYYY-MM-DD).",
      }),
    }),
  },
  responses: {
    200: { description: "A page of shows.", content: { "application/json": { schema: ShowList } } },
  },
});

export function registerShowsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof ShowList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listShows(ctx, filters, page),
    );
  });
}
