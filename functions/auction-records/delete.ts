import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { AuctionRecordParams } from "../../lib/schemas/auction-records";
import { deleteAuctionRecord } from "../../services/auction-records/delete";

const route = operation({
  operationId: "deleteAuctionRecord",
  method: "delete",
  path: "/gallery/artworks/{id}/auction-records/{recordId}",
  tags: ["Artworks"],
  summary: "Remove an auction record",
  description:
    "Removes a record from the work's auction history. A record of another artwork is 404. Emits `auction_record.deleted` whose `data.object` is the record's last state, and appends `auction_record_removed` to the work's timeline.",
  auth: { scopes: ["artworks:write"] },
  idempotent: true,
  pathIds: { id: "art", recordId: "auc" },
  request: { params: AuctionRecordParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerAuctionRecordsDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, recordId } = c.req.valid("param");
    return respond(c, await deleteAuctionRecord(serviceContext(c), id, recordId));
  });
}
