import { activityInsert } from "../../db/queries/artwork-writes";
import { findAuctionRecord } from "../../db/queries/auction-records";
import { deleteAsRead } from "../../db/queries/rows";
import { auctionRecords } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";
import { auctionRecordSentence } from "./summary";

/**
 * Removes an auction record from the artwork's history; `auction_record.deleted` carries its last state, and the
 * work's timeline gains `auction_record_removed` with the record's last state in `metadata.record` (the entry
 * that added it stays: the timeline is history).
 */
export async function deleteAuctionRecord(ctx: ServiceContext, artworkId: string, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findAuctionRecord(db, galleryId, artworkId, id);
  const notFound = `No auction record ${id} on artwork ${artworkId} in this gallery.`;
  return writeExisting(ctx, current, notFound, (found, at) => ({
    schema: DeleteResult,
    statements: [
      guarded(deleteAsRead(auctionRecords, galleryId, id, found.updatedAt)),
      activityInsert(db, galleryId, artworkId, principal.credentialId, at, {
        eventType: "auction_record_removed",
        summary: `Auction record removed: ${auctionRecordSentence(found.body)}.`,
        metadata: { record: found.body },
        refTable: "auction_records",
        refId: id,
      }),
    ],
    events: [changeEvent("auction_record.deleted", "auction_record", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
