import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Show, ShowIdParams } from "../../lib/schemas/shows";
import { getShow } from "../../services/shows/read";

const route = operation({
  operationId: "getShow",
  method: "get",
  path: "/gallery/shows/{id}",
  tags: ["Shows"],
  summary: "Retrieve a show",
  description: "The show with its dates, status, venue, works and the number of its tags.",
  auth: { scopes: ["shows:read"] },
  pathIds: { id: "show" },
  request: { params: ShowIdParams },
  responses: {
    200: { description: "The show.", content: { "application/json": { schema: Show } } },
  },
});

export function registerShowsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getShow(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Show>, 200>(c, text, 200);
  });
}
