import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { ShowTagParams } from "../../lib/schemas/shows";
import { deleteShowTag } from "../../services/show-tags/delete";

const route = operation({
  operationId: "deleteShowTag",
  method: "delete",
  path: "/gallery/shows/{showId}/tags/{tagId}",
  tags: ["Show tags"],
  summary: "Remove a tag from a show",
  description:
    "Removes the tag from the show. Emits `show_tag.deleted` whose `data.object` is the tag's last state.",
  auth: { scopes: ["shows:delete"] },
  idempotent: true,
  pathIds: { showId: "show", tagId: "stag" },
  request: { params: ShowTagParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerShowTagsDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { showId, tagId } = c.req.valid("param");
    return respond(c, await deleteShowTag(serviceContext(c), showId, tagId));
  });
}
