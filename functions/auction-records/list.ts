import { z } from "@hono/zod-openapi";
import { auctionRecordList } from "../../db/queries/auction-records";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { AuctionRecord } from "../../lib/schemas/auction-records";
import { listAuctionRecords } from "../../services/auction-records/read";

const AuctionRecordList = listResponse(AuctionRecord, "AuctionRecordList");

const route = operation({
  operationId: "listAuctionRecords",
  method: "get",
  path: "/gallery/artworks/{id}/auction-records",
  tags: ["Artworks"],
  summary: "List an artwork's auction records",
  description:
    "The work's auction history, latest sale first by default (`sort=sale_date`; records of one day newest-added first); `sort=created` orders by when each record was added. An artwork of another gallery is 404.",
  auth: { scopes: ["artworks:read"] },
  pathIds: { id: "art" },
  list: auctionRecordList,
  request: { params: ArtworkIdParams, query: z.strictObject(paginationQuery(auctionRecordList)) },
  responses: {
    200: {
      description: "A page of auction records.",
      content: { "application/json": { schema: AuctionRecordList } },
    },
  },
});

export function registerAuctionRecordsList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { id } = c.req.valid("param");
    return listPage<z.infer<typeof AuctionRecordList>>(c, route, c.req.valid("query"), (page) =>
      listAuctionRecords(ctx, id, page),
    );
  });
}
