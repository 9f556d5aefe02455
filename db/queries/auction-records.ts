import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { AuctionRecord, type AuctionRecordCreateInput } from "../../lib/schemas/auction-records";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { auctionRecords } from "../schema";
import { type KeysetQuery, keysetChildPage } from "./keyset";

/** The API representation of an auction record (alias `r`). */
export const auctionRecordResource = resource({
  schema: AuctionRecord,
  table: auctionRecords,
  alias: "r",
  name: "auction_record",
});
const auctionRecordJson = auctionRecordResource.json({});

/** Newest sale first by default; `created` orders by when the record was added. */
export const auctionRecordList = listSpec({ sorts: ["sale_date", "created"], defaultSort: "sale_date" });
type AuctionRecordSort = (typeof auctionRecordList.sorts)[number];

const sortKeys: Record<AuctionRecordSort, Pick<KeysetQuery, "sortKey" | "cast">> = {
  sale_date: { sortKey: sql`r.sale_date`, cast: "date" },
  created: { sortKey: sql`r.created_at`, cast: "timestamptz" },
};

/** The artwork exists in the gallery (a row), for the lists and writes that hang off it. */
export function artworkExists(galleryId: string, artworkId: string) {
  return sql`select 1 from artworks a where a.gallery_id = ${galleryId} and a.id = ${artworkId}`;
}

/**
 * For a write that hangs an entry off the artwork: aborts the transaction (409, whose retry answers 404) when the
 * artwork was deleted after it was read.
 */
export function expectArtworkStill(galleryId: string, artworkId: string): SQL {
  return sql`select expect_one_row((select count(*) from (${artworkExists(galleryId, artworkId)}) found))`;
}

/** Whether the artwork exists in the gallery. */
export async function findArtworkExists(db: Db, galleryId: string, artworkId: string): Promise<boolean> {
  const result = await db.execute(artworkExists(galleryId, artworkId));
  return result.rows.length > 0;
}

/** One page (limit + 1 rows) of an artwork's auction records; null when the artwork is not in the gallery. */
export function listAuctionRecords(
  db: Db,
  galleryId: string,
  artworkId: string,
  page: PageRequest,
): Promise<PageRow[] | null> {
  return keysetChildPage(
    db,
    artworkExists(galleryId, artworkId),
    {
      body: auctionRecordJson,
      from: sql`auction_records r`,
      where: [sql`r.gallery_id = ${galleryId}`, sql`r.artwork_id = ${artworkId}`],
      ...sortKeys[page.sort as AuctionRecordSort],
      id: sql`r.id`,
    },
    page,
  );
}

export interface AuctionRecordState {
  body: z.infer<typeof AuctionRecord>;
  updatedAt: string;
}

/** One record of the artwork in the gallery, with what a guarded write needs, or null. One round trip. */
export async function findAuctionRecord(
  db: Db,
  galleryId: string,
  artworkId: string,
  id: string,
): Promise<AuctionRecordState | null> {
  const result = await db.execute<{ body: z.infer<typeof AuctionRecord>; updated_at: string }>(
    sql`select ${auctionRecordJson} as body, ${isoMs(sql`r.updated_at`)} as updated_at
      from auction_records r
      where r.gallery_id = ${galleryId} and r.artwork_id = ${artworkId} and r.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/**
 * Statements that write auction records. They are composed into one transaction by services/write.ts; none of
 * them runs on its own.
 */

/**
 * The INSERT for `guarded()`: it inserts only while the artwork is still in the gallery, so a work deleted since
 * it was read aborts the write instead of orphaning the record.
 */
export function createAuctionRecordStatement(
  galleryId: string,
  artworkId: string,
  id: string,
  input: AuctionRecordCreateInput,
  at: string,
): SQLWrapper {
  return sql`insert into auction_records (id, gallery_id, artwork_id, auction_house, lot_number, notes, sale_date,
      hammer_price_cents, currency, result, created_at, updated_at)
    select ${id}, a.gallery_id, a.id, ${input.auction_house}, ${input.lot_number ?? null}, ${input.notes ?? null},
      ${input.sale_date}::date, ${input.hammer_price_cents ?? null}::bigint, ${input.currency ?? null}, ${input.result},
      ${at}::timestamptz, ${at}::timestamptz
    from artworks a where a.gallery_id = ${galleryId} and a.id = ${artworkId}`;
}
