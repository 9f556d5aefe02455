import { z } from "@hono/zod-openapi";
import { offerList } from "../../db/queries/offers";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { Offer, offerStatuses } from "../../lib/schemas/offers";
import { listOffers } from "../../services/offers/read";

const OfferList = listResponse(Offer, "OfferList");

const route = operation({
  operationId: "listOffers",
  method: "get",
  path: "/gallery/offers",
  tags: ["Offers"],
  summary: "List offers",
  description:
    "The gallery's offers, newest first by default; `sort=updated` orders by the last change. `status` keeps the offers in one status.",
  auth: { scopes: ["offers:read"] },
  list: offerList,
  request: {
    query: z.strictObject({
      ...paginationQuery(offerList),
      status: z.enum(offerStatuses).optional().openapi({ description: "Offers in this status." }),
    }),
  },
  responses: {
    200: { description: "A page of offers.", content: { "application/json": { schema: OfferList } } },
  },
});

export function registerOffersList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof OfferList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listOffers(ctx, filters, page),
    );
  });
}
