import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Tag, TagCreate } from "../../lib/schemas/catalogue";
import { createTag } from "../../services/tags/create";

const route = operation({
  operationId: "createTag",
  method: "post",
  path: "/gallery/tags",
  tags: ["Tags"],
  summary: "Create a tag",
  description:
    "Creates a tag for artworks (`tag_ids`), contacts or shows; its scope cannot change later. Names are unique within a scope, ignoring case: a taken name is 409 `conflict` whose `details.existing_id` is the tag that has it. Emits `tag.created`.",
  auth: { scopes: ["tags:create"] },
  idempotent: true,
  exampleBody: { name: "Botanical", scope: "artwork" },
  request: {
    body: { required: true, content: { "application/json": { schema: TagCreate } } },
  },
  responses: {
    201: { description: "The created tag.", content: { "application/json": { schema: Tag } } },
  },
});

export function registerTagsCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createTag(serviceContext(c), c.req.valid("json"))));
}
