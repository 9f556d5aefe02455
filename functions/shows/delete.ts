import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { ShowIdParams } from "../../lib/schemas/shows";
import { deleteShow } from "../../services/shows/delete";

const route = operation({
  operationId: "deleteShow",
  method: "delete",
  path: "/gallery/shows/{id}",
  tags: ["Shows"],
  summary: "Delete a show",
  description:
    "Deletes the show with its tags and its list of works (the works themselves stay). Emits `show.deleted` whose `data.object` is the show's last state.",
  auth: { scopes: ["shows:delete"] },
  idempotent: true,
  pathIds: { id: "show" },
  request: { params: ShowIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerShowsDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await deleteShow(serviceContext(c), id));
  });
}
