import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { TagIdParams } from "../../lib/schemas/catalogue";
import { deleteTag } from "../../services/tags/delete";

const route = operation({
  operationId: "deleteTag",
  method: "delete",
  path: "/gallery/tags/{id}",
  tags: ["Tags"],
  summary: "Delete a tag",
  description:
    "Deletes the tag and takes it off every artwork and contact carrying it; no other field of those changes. Emits `tag.deleted` whose `data.object` is the tag's last state.",
  auth: { scopes: ["tags:delete"] },
  idempotent: true,
  pathIds: { id: "tag" },
  request: { params: TagIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerTagsDelete(app: Router): void {
  app.openapi(route, async (c) => respond(c, await deleteTag(serviceContext(c), c.req.valid("param").id)));
}
