import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { MAX_TAGS_PER_SHOW, ShowTagList, ShowTagsParams } from "../../lib/schemas/shows";
import { listShowTags } from "../../services/show-tags/read";

const route = operation({
  operationId: "listShowTags",
  method: "get",
  path: "/gallery/shows/{showId}/tags",
  tags: ["Show tags"],
  summary: "List a show's tags",
  description: `The tags currently applied to the show, ordered by name ignoring case (then by code point), each with its colour, facet and origin (\`manual\` or \`ai_suggested\`). One response with every tag, not cursor-paginated: a show holds at most ${MAX_TAGS_PER_SHOW} tags. 404 when the gallery has no such show.`,
  auth: { scopes: ["shows:read"] },
  pathIds: { showId: "show" },
  request: { params: ShowTagsParams },
  responses: {
    200: { description: "The show's tags.", content: { "application/json": { schema: ShowTagList } } },
  },
});

export function registerShowTagsList(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await listShowTags(serviceContext(c), c.req.valid("param").showId);
    return sendJson<z.infer<typeof ShowTagList>, 200>(c, text, 200);
  });
}
