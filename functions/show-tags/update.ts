import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ShowTag, ShowTagParams, ShowTagUpdate } from "../../lib/schemas/shows";
import { updateShowTag } from "../../services/show-tags/update";

const route = operation({
  operationId: "updateShowTag",
  method: "patch",
  path: "/gallery/shows/{showId}/tags/{tagId}",
  tags: ["Show tags"],
  summary: "Update a show's tag",
  description:
    "Changes the tag's `name`, `color`, `facet` or `origin`. A name another tag of the show has, ignoring case, is 409 `conflict` with `details.existing_id`. Changing the name, colour or facet of an `ai_suggested` tag without sending `origin` makes it `manual`: a person has made it theirs. Emits `show_tag.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["shows:update"] },
  idempotent: true,
  pathIds: { showId: "show", tagId: "stag" },
  exampleBody: { color: "rose" },
  request: {
    params: ShowTagParams,
    body: { required: true, content: { "application/json": { schema: ShowTagUpdate } } },
  },
  responses: {
    200: { description: "The updated tag.", content: { "application/json": { schema: ShowTag } } },
  },
});

export function registerShowTagsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { showId, tagId } = c.req.valid("param");
    return respond(c, await updateShowTag(serviceContext(c), showId, tagId, c.req.valid("json")));
  });
}
