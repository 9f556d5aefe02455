import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { AuctionRecord, AuctionRecordCreate } from "../../lib/schemas/auction-records";
import { createAuctionRecord } from "../../services/auction-records/create";

const route = operation({
  operationId: "createAuctionRecord",
  method: "post",
  path: "/gallery/artworks/{id}/auction-records",
  tags: ["Artworks"],
  summary: "Add an auction record",
  description:
    "Adds a sale to the work's auction history. `currency` is required with `hammer_price_cents`; a lot that was withdrawn or postponed has no hammer price. Emits `auction_record.created` and appends `auction_record_added` to the work's timeline.",
  auth: { scopes: ["artworks:create"] },
  idempotent: true,
  pathIds: { id: "art" },
  exampleBody: { auction_house: "Christie's, New York", sale_date: "2024-05-14", result: "sold" },
  request: {
    params: ArtworkIdParams,
    body: { required: true, content: { "application/json": { schema: AuctionRecordCreate } } },
  },
  responses: {
    201: {
      description: "The created auction record.",
      content: { "application/json": { schema: AuctionRecord } },
    },
  },
});

export function registerAuctionRecordsCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await createAuctionRecord(serviceContext(c), id, c.req.valid("json")));
  });
}
