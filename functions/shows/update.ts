import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Show, ShowIdParams, ShowUpdate } from "../../lib/schemas/shows";
import { updateShow } from "../../services/shows/update";

const route = operation({
  operationId: "updateShow",
  method: "patch",
  path: "/gallery/shows/{id}",
  tags: ["Shows"],
  summary: "Update a show",
  description:
    "Changes any of the show's fields; `artwork_ids` replaces the list of works (works of this gallery, else 400 naming `artwork_ids`); null clears `description`, a date or `venue`. The dates must run forwards as the show ends up (400 naming `ends_on` otherwise). Any status may follow any other. Emits `show.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["shows:update"] },
  idempotent: true,
  pathIds: { id: "show" },
  exampleBody: { status: "open" },
  request: {
    params: ShowIdParams,
    body: { required: true, content: { "application/json": { schema: ShowUpdate } } },
  },
  responses: {
    200: { description: "The updated show.", content: { "application/json": { schema: Show } } },
  },
});

export function registerShowsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateShow(serviceContext(c), id, c.req.valid("json")));
  });
}
