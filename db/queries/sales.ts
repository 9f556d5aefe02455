import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { Sale, type SaleCreateInput, type SaleUpdateInput } from "../../lib/schemas/sales";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { sales } from "../schema";
import { type KeysetQuery, keysetPage } from "./keyset";

/** The API representation of a sale (alias `s`). */
export const saleResource = resource({
  schema: Sale,
  table: sales,
  alias: "s",
  name: "sale",
  computed: {
    artwork_ids: () => sql`array(select sa.artwork_id from sale_artworks sa
      where sa.sale_id = s.id order by sa.position, sa.artwork_id)`,
    base_currency: () => sql`(select g.default_currency from galleries g where g.id = s.gallery_id)`,
  },
});

/** Newest first by default; `sold` orders by when the sale was made. */
export const saleList = listSpec({ sorts: ["created", "sold"], defaultSort: "created" });
type SaleSort = (typeof saleList.sorts)[number];

const sortKeys: Record<SaleSort, Pick<KeysetQuery, "sortKey" | "cast">> = {
  created: { sortKey: sql`s.created_at`, cast: "timestamptz" },
  sold: { sortKey: sql`s.sold_at`, cast: "timestamptz" },
};

export interface SaleFilters {
  contact_id?: string;
  artwork_id?: string;
  status?: string;
  sold_after?: string;
  sold_before?: string;
}

/** One page (limit + 1 rows) of the gallery's sales matching the filters. One round trip. */
export function listSales(db: Db, galleryId: string, f: SaleFilters, page: PageRequest): Promise<PageRow[]> {
  const where = [sql`s.gallery_id = ${galleryId}`];
  if (f.contact_id !== undefined) where.push(sql`s.contact_id = ${f.contact_id}`);
  if (f.status !== undefined) where.push(sql`s.status = ${f.status}`);
  if (f.sold_after !== undefined) where.push(sql`s.sold_at >= ${f.sold_after}::timestamptz`);
  if (f.sold_before !== undefined) where.push(sql`s.sold_at < ${f.sold_before}::timestamptz`);
  if (f.artwork_id !== undefined) {
    where.push(
      sql`exists (select 1 from sale_artworks sa where sa.sale_id = s.id and sa.artwork_id = ${f.artwork_id})`,
    );
  }
  return keysetPage(
    db,
    {
      body: saleResource.json({}),
      from: sql`sales s`,
      where,
      ...sortKeys[page.sort as SaleSort],
      id: sql`s.id`,
    },
    page,
  );
}

export interface SaleState {
  body: z.infer<typeof Sale>;
  updatedAt: string;
}

/** One sale of the gallery, with what a guarded write needs, or null. One round trip. */
export async function findSale(db: Db, galleryId: string, id: string): Promise<SaleState | null> {
  const result = await db.execute<{ body: z.infer<typeof Sale>; updated_at: string }>(
    sql`select ${saleResource.json({})} as body, ${isoMs(sql`s.updated_at`)} as updated_at
      from sales s where s.gallery_id = ${galleryId} and s.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/**
 * Statements that write sales. They are composed into one transaction by services/write.ts; none of them runs
 * on its own. The trigger on `sales` moves the buyer's spend (completed sales only) in the same transaction.
 */

/**
 * How a write states the sale's amounts: the currency and amount it ends with (SQL over `g`, the gallery, and on
 * an update `s`, the sale as read), the base amount the caller gave, and whether the base amount follows the
 * amount (a create, or an update that changes the amount or currency without giving the base amount).
 */
interface Amounts {
  currency: SQL;
  amount: SQL;
  base: number | undefined;
  derive: boolean;
}

/**
 * The rule of `base_amount_cents`, against the gallery's default currency as the transaction sees it: given, it
 * must equal the amount when the sale is in the default currency; left out where it follows the amount, the sale
 * must be in the default currency. Aborts with a 400 naming `base_amount_cents` otherwise.
 */
function baseAmountRule(from: SQL, a: Amounts): SQL | null {
  if (a.base !== undefined) {
    return sql`select expect_valid(${a.currency} <> g.default_currency or ${a.base}::bigint = ${a.amount},
        'base_amount_cents',
        format('must equal amount_cents when currency is the gallery''s default currency (%s)', g.default_currency))
      from ${from}`;
  }
  if (!a.derive) return null;
  return sql`select expect_valid(${a.currency} = g.default_currency, 'base_amount_cents',
      format('is required when currency (%s) is not the gallery''s default currency (%s)', ${a.currency},
        g.default_currency))
    from ${from}`;
}

/** The base amount a write stores (its rule checked first by baseAmountRule); null keeps the stored one. */
function baseAmountValue(a: Amounts): SQL | null {
  if (a.base !== undefined) return sql`${a.base}::bigint`;
  return a.derive ? a.amount : null;
}

/** The works of a sale, in order (positions 0, 1, …). */
function insertSaleArtworks(galleryId: string, saleId: string, artworkIds: readonly string[]): SQL {
  const rows = artworkIds.map(
    (artworkId, position) => sql`(${galleryId}, ${saleId}, ${artworkId}, ${position})`,
  );
  return sql`insert into sale_artworks (gallery_id, sale_id, artwork_id, position) values ${sql.join(rows, sql`, `)}`;
}

/** A new sale: the base-amount rule, then the row (moving spend when completed), then its works. */
export function createSaleStatements(
  galleryId: string,
  id: string,
  input: SaleCreateInput,
  at: string,
): SQL[] {
  const from = sql`galleries g where g.id = ${galleryId}`;
  const amounts: Amounts = {
    currency: sql`coalesce(${input.currency ?? null}::text, g.default_currency)`,
    amount: sql`${input.amount_cents}::bigint`,
    base: input.base_amount_cents,
    derive: true,
  };
  const rule = baseAmountRule(from, amounts);
  return [
    ...(rule ? [rule] : []),
    sql`insert into sales (id, gallery_id, contact_id, amount_cents, currency, base_amount_cents, works_count, sold_at,
        status, metadata, created_at, updated_at)
      select ${id}, g.id, ${input.contact_id}, ${amounts.amount}, ${amounts.currency}, ${baseAmountValue(amounts)},
        ${input.artwork_ids.length}, ${input.sold_at ?? at}::timestamptz, ${input.status ?? "completed"},
        ${JSON.stringify(input.metadata ?? {})}::jsonb, ${at}::timestamptz, ${at}::timestamptz
      from ${from}`,
    insertSaleArtworks(galleryId, id, input.artwork_ids),
  ];
}

/**
 * A change to a sale: the base-amount rule against the sale as read, the buyers' row locks when the buyer changes,
 * the UPDATE for `guarded()` (the trigger moves spend from the old row's buyer to the new row's), then the works
 * when they are replaced. `derive`: the base amount follows the amount (see Amounts).
 */
export function updateSaleStatements(
  galleryId: string,
  id: string,
  input: SaleUpdateInput,
  derive: boolean,
  readUpdatedAt: string,
  at: string,
): { rule: SQL | null; locks: SQL[]; update: SQLWrapper; works: SQL[] } {
  const amounts: Amounts = {
    currency: sql`coalesce(${input.currency ?? null}::text, s.currency)`,
    amount: sql`coalesce(${input.amount_cents ?? null}::bigint, s.amount_cents)`,
    base: input.base_amount_cents,
    derive,
  };
  const rule = baseAmountRule(
    sql`sales s join galleries g on g.id = s.gallery_id where s.gallery_id = ${galleryId} and s.id = ${id}`,
    amounts,
  );
  const set: SQL[] = [sql`updated_at = ${at}::timestamptz`];
  if (input.contact_id !== undefined) set.push(sql`contact_id = ${input.contact_id}`);
  if (input.amount_cents !== undefined) set.push(sql`amount_cents = ${input.amount_cents}::bigint`);
  if (input.currency !== undefined) set.push(sql`currency = ${input.currency}`);
  const base = baseAmountValue(amounts);
  if (base) set.push(sql`base_amount_cents = ${base}`);
  if (input.artwork_ids !== undefined) set.push(sql`works_count = ${input.artwork_ids.length}`);
  if (input.sold_at !== undefined) set.push(sql`sold_at = ${input.sold_at}::timestamptz`);
  if (input.status !== undefined) set.push(sql`status = ${input.status}`);
  if (input.metadata !== undefined) set.push(sql`metadata = ${JSON.stringify(input.metadata)}::jsonb`);
  const update = sql`update sales s set ${sql.join(set, sql`, `)}
    where s.gallery_id = ${galleryId} and s.id = ${id} and s.updated_at = ${readUpdatedAt}::timestamptz`;
  // A sale moving between buyers changes both contacts' spend; taking their row locks in id order first keeps two
  // such moves in opposite directions from deadlocking in the trigger.
  const locks =
    input.contact_id === undefined
      ? []
      : [
          sql`select 1 from contacts c where c.gallery_id = ${galleryId} and c.id in (
              select s.contact_id from sales s where s.gallery_id = ${galleryId} and s.id = ${id}
              union select ${input.contact_id}::text)
            order by c.id for no key update`,
        ];
  const works =
    input.artwork_ids === undefined
      ? []
      : [
          sql`delete from sale_artworks where sale_id = ${id}`,
          insertSaleArtworks(galleryId, id, input.artwork_ids),
        ];
  return { rule, locks, update, works };
}
