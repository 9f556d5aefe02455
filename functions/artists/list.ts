import { z } from "@hono/zod-openapi";
import { byCreatedOrName } from "../../db/queries/catalogue";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { Artist } from "../../lib/schemas/catalogue";
import { listArtists } from "../../services/artists/read";

const ArtistList = listResponse(Artist, "ArtistList");

const route = operation({
  operationId: "listArtists",
  method: "get",
  path: "/gallery/artists",
  tags: ["Artists"],
  summary: "List artists",
  description:
    "The gallery's artists, newest first by default; `sort=name` orders by name (`dir=asc` for A to Z). `q` keeps those whose name contains it, ignoring case.",
  auth: { scopes: ["artists:read"] },
  list: byCreatedOrName,
  request: {
    query: z.strictObject({
      ...paginationQuery(byCreatedOrName),
      q: z.string().min(1).max(200).optional().openapi({
        description: "Keeps artists whose name contains this text, ignoring case.",
      }),
    }),
  },
  responses: {
    200: {
      description: "A page of artists.",
      content: { "application/json": { schema: ArtistList } },
    },
  },
});

export function registerArtistsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof ArtistList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listArtists(ctx, filters, page),
    );
  });
}
