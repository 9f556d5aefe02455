import { z } from "@hono/zod-openapi";
import { publicationList } from "../../db/queries/publications";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { boolParam, idString } from "../../lib/params";
import { Publication, publicationKinds, publicationVisibilities } from "../../lib/schemas/publications";
import { listPublications } from "../../services/publications/read";

const PublicationList = listResponse(Publication, "PublicationList");

const route = operation({
  operationId: "listPublications",
  method: "get",
  path: "/gallery/publications",
  tags: ["Publications"],
  summary: "List publications",
  description:
    "The gallery's publications, newest first by default; `sort=updated` orders by the last change. Filters combine: `published`, `kind`, `visibility` and `artwork_id` (publications that present the work). Each `price.price_cents` is null for a caller its `price_visibility` does not admit, as on a single read.",
  auth: { scopes: ["publications:read"] },
  list: publicationList,
  gatedPrices: ["price.price_cents"],
  request: {
    query: z.strictObject({
      ...paginationQuery(publicationList),
      published: boolParam("true: published ones only; false: unpublished ones only.").optional(),
      kind: z.enum(publicationKinds).optional().openapi({ description: "Publications of this kind." }),
      visibility: z
        .enum(publicationVisibilities)
        .optional()
        .openapi({ description: "Publications with this visibility." }),
      artwork_id: idString("art")
        .optional()
        .openapi({ description: "Publications that present this artwork." }),
    }),
  },
  responses: {
    200: {
      description: "A page of publications.",
      content: { "application/json": { schema: PublicationList } },
    },
  },
});

export function registerPublicationsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof PublicationList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listPublications(ctx, filters, page),
    );
  });
}
