import { z } from "@hono/zod-openapi";
import { artworkTimelineList } from "../../db/queries/artwork-timeline";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { ArtworkActivityEvent } from "../../lib/schemas/artwork-timeline";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { listTimeline } from "../../services/artwork-timeline/read";

const ArtworkActivityEventList = listResponse(ArtworkActivityEvent, "ArtworkActivityEventList");

const route = operation({
  operationId: "listArtworkEvents",
  method: "get",
  path: "/gallery/artworks/{id}/events",
  tags: ["Artworks"],
  summary: "List an artwork's activity timeline",
  description:
    "What happened to the work, newest first (by `occurred_at`, then `id`): added, moved, price changes, consignment and ownership, availability, publishing, interest, interactions and auction records. Entries are appended by the changes themselves and never edited. An artwork of another gallery is 404; a work with no entries answers an empty page.",
  auth: { scopes: ["artworks:read"] },
  pathIds: { id: "art" },
  list: artworkTimelineList,
  request: { params: ArtworkIdParams, query: z.strictObject(paginationQuery(artworkTimelineList)) },
  responses: {
    200: {
      description: "A page of timeline entries.",
      content: { "application/json": { schema: ArtworkActivityEventList } },
    },
  },
});

export function registerArtworkTimelineList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { id } = c.req.valid("param");
    return listPage<z.infer<typeof ArtworkActivityEventList>>(c, route, c.req.valid("query"), (page) =>
      listTimeline(ctx, id, page),
    );
  });
}
