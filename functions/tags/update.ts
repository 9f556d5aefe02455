import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Tag, TagIdParams, TagUpdate } from "../../lib/schemas/catalogue";
import { updateTag } from "../../services/tags/update";

const route = operation({
  operationId: "updateTag",
  method: "patch",
  path: "/gallery/tags/{id}",
  tags: ["Tags"],
  summary: "Update a tag",
  description:
    "Renames the tag; a name another tag of its scope has, ignoring case, is 409 `conflict` with `details.existing_id`. Emits `tag.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["tags:update"] },
  idempotent: true,
  pathIds: { id: "tag" },
  exampleBody: { name: "Botanical studies" },
  request: {
    params: TagIdParams,
    body: { required: true, content: { "application/json": { schema: TagUpdate } } },
  },
  responses: {
    200: { description: "The updated tag.", content: { "application/json": { schema: Tag } } },
  },
});

export function registerTagsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateTag(serviceContext(c), id, c.req.valid("json")));
  });
}
