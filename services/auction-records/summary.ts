import { formatMoney } from "../../lib/money";
import type { AuctionRecordCreateInput } from "../../lib/schemas/auction-records";

type RecordFacts = Pick<
  AuctionRecordCreateInput,
  "auction_house" | "lot_number" | "sale_date" | "hammer_price_cents" | "currency" | "result"
>;

/** A record in one line for the timeline: `Christie's, lot 42, 2024-05-14: sold for $1,200,000.00`. */
export function auctionRecordSentence(record: RecordFacts): string {
  const lot = record.lot_number ? `, lot ${record.lot_number}` : "";
  const price =
    record.hammer_price_cents != null && record.currency
      ? formatMoney(record.hammer_price_cents, record.currency)
      : null;
  const outcome = {
    sold: price ? `sold for ${price}` : "sold",
    sold_after_sale: price ? `sold after the sale for ${price}` : "sold after the sale",
    bought_in: price ? `bought in at ${price}` : "bought in",
    withdrawn: "withdrawn",
    postponed: "postponed",
  }[record.result];
  return `${record.auction_house}${lot}, ${record.sale_date}: ${outcome}`;
}

/** The record's facts as timeline metadata keeps them (`metadata.record`). */
export function auctionRecordFacts(id: string, record: RecordFacts) {
  return {
    id,
    auction_house: record.auction_house,
    lot_number: record.lot_number ?? null,
    sale_date: record.sale_date,
    hammer_price_cents: record.hammer_price_cents ?? null,
    currency: record.currency ?? null,
    result: record.result,
  };
}
