import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { MAX_TAGS_PER_SHOW, ShowTag, ShowTagCreate, ShowTagsParams } from "../../lib/schemas/shows";
import { createShowTag } from "../../services/show-tags/create";

const route = operation({
  operationId: "createShowTag",
  method: "post",
  path: "/gallery/shows/{showId}/tags",
  tags: ["Show tags"],
  summary: "Add a tag to a show",
  description: `Applies a tag to the show: \`name\` (1 to 60 characters), \`facet\`, \`color\` (\`slate\` by default) and \`origin\` (\`manual\` by default; \`ai_suggested\` records an engine's suggestion). A name the show already has, ignoring case, is 409 \`conflict\` with \`details.existing_id\`; a show holds at most ${MAX_TAGS_PER_SHOW} tags (409 beyond). Emits \`show_tag.created\`.`,
  auth: { scopes: ["shows:create"] },
  idempotent: true,
  pathIds: { showId: "show" },
  exampleBody: { name: "Oil painting", facet: "medium", color: "amber" },
  request: {
    params: ShowTagsParams,
    body: { required: true, content: { "application/json": { schema: ShowTagCreate } } },
  },
  responses: {
    201: { description: "The new tag.", content: { "application/json": { schema: ShowTag } } },
  },
});

export function registerShowTagsCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const { showId } = c.req.valid("param");
    return respond(c, await createShowTag(serviceContext(c), showId, c.req.valid("json")));
  });
}
