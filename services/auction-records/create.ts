import type { z } from "zod";
import { activityInsert } from "../../db/queries/artwork-writes";
import {
  auctionRecordResource,
  createAuctionRecordStatement,
  findArtworkExists,
} from "../../db/queries/auction-records";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { AuctionRecord, type AuctionRecordCreateInput } from "../../lib/schemas/auction-records";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";
import { auctionRecordFacts, auctionRecordSentence } from "./summary";

/**
 * Adds an auction record to the artwork's history; records `auction_record.created` and appends
 * `auction_record_added` to the work's timeline. An artwork deleted between the check and the write aborts the
 * write (409, and the retry answers 404).
 */
export async function createAuctionRecord(
  ctx: ServiceContext,
  artworkId: string,
  input: AuctionRecordCreateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  if (!(await findArtworkExists(db, galleryId, artworkId))) {
    return notFoundUnlessReplay<z.output<typeof AuctionRecord>, 201>(
      ctx,
      `No artwork ${artworkId} in this gallery.`,
    );
  }
  const id = newId("auc");
  const at = nextTimestamp();
  const object = auctionRecordResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: AuctionRecord,
    statements: [
      guarded(createAuctionRecordStatement(galleryId, artworkId, id, input, at)),
      activityInsert(db, galleryId, artworkId, principal.credentialId, at, {
        eventType: "auction_record_added",
        summary: `Auction record added: ${auctionRecordSentence(input)}.`,
        metadata: { record: auctionRecordFacts(id, input) },
        refTable: "auction_records",
        refId: id,
      }),
    ],
    events: [changeEvent("auction_record.created", "auction_record", id, object)],
    status: 201,
    body: object,
  });
}
