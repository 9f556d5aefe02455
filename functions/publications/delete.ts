import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { PublicationIdParams } from "../../lib/schemas/publications";
import { deletePublication } from "../../services/publications/delete";

const route = operation({
  operationId: "deletePublication",
  method: "delete",
  path: "/gallery/publications/{id}",
  tags: ["Publications"],
  summary: "Delete a publication",
  description:
    "Deletes the publication with its works list and price; its stored cover files are deleted after the commit. A viewing room that presented it keeps going without it. Emits `publication.deleted` whose `data.object` is the publication's last state.",
  auth: { scopes: ["publications:delete"] },
  idempotent: true,
  pathIds: { id: "pub" },
  request: { params: PublicationIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerPublicationsDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await deletePublication(serviceContext(c), id));
  });
}
