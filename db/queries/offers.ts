import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import {
  Offer,
  type OfferBody,
  type OfferCreateInput,
  OfferItem,
  type OfferItemsReplaceInput,
  OfferRecipient,
} from "../../lib/schemas/offers";
import type { Db } from "../client";
import { isoMs, type RowValues, resource } from "../resource";
import { offerItems, offerRecipients, offers } from "../schema";
import { type KeysetQuery, keysetChildPage, keysetPage } from "./keyset";
import { visibleMatch } from "./matches";
import { asRead, textArray } from "./rows";
import { clockSql } from "./webhook-drain";

/**
 * Offers, their items and their recipients. Statements here are composed into one transaction by
 * services/write.ts; none runs on its own. Items and recipients go with their offer (foreign-key cascade).
 */

/** The API representation of an offer (alias `o`). */
export const offerResource = resource({
  schema: Offer,
  table: offers,
  alias: "o",
  name: "offer",
  computed: {
    // By the primary keys (offer_id, artwork_id) and (offer_id, contact_id).
    item_count: () => sql`(select count(*)::int from offer_items oi where oi.offer_id = o.id)`,
    recipient_count: () => sql`(select count(*)::int from offer_recipients orc where orc.offer_id = o.id)`,
  },
});
const offerJson = offerResource.json({});

/** The API representation of an offer item (alias `oi`). */
export const offerItemResource = resource({ schema: OfferItem, table: offerItems, alias: "oi" });

/** The API representation of a recipient (alias `r`, joined to its contact `c`). */
export const offerRecipientResource = resource({
  schema: OfferRecipient,
  table: offerRecipients,
  alias: "r",
  from: () => sql`offer_recipients r join contacts c on c.id = r.contact_id`,
  computed: { name: () => sql`c.name`, email: () => sql`c.email` },
});

/** SQL yielding the offer's JSON (null when it is not the gallery's). */
export function offerJsonById(galleryId: string, id: string): SQL {
  return offerResource.jsonById(galleryId, id, {});
}

/** Newest first by default; `updated` orders by the last change. */
export const offerList = listSpec({ sorts: ["created", "updated"], defaultSort: "created" });
type OfferSort = (typeof offerList.sorts)[number];

const sortKeys: Record<OfferSort, Pick<KeysetQuery, "sortKey" | "cast">> = {
  created: { sortKey: sql`o.created_at`, cast: "timestamptz" },
  updated: { sortKey: sql`o.updated_at`, cast: "timestamptz" },
};

export interface OfferFilters {
  status?: string;
}

/** One page (limit + 1 rows) of the gallery's offers. One round trip. */
export function listOffers(
  db: Db,
  galleryId: string,
  f: OfferFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const where = [sql`o.gallery_id = ${galleryId}`];
  if (f.status !== undefined) where.push(sql`o.status = ${f.status}`);
  return keysetPage(
    db,
    { body: offerJson, from: sql`offers o`, where, ...sortKeys[page.sort as OfferSort], id: sql`o.id` },
    page,
  );
}

export interface OfferState {
  body: OfferBody;
  updatedAt: string;
}

const stateColumns = sql`${offerJson} as body, ${isoMs(sql`o.updated_at`)} as updated_at`;
const ofOffer = (galleryId: string, id: string) =>
  sql`from offers o where o.gallery_id = ${galleryId} and o.id = ${id}`;

/** One offer of the gallery, with what a guarded write needs, or null. One round trip. */
export async function findOffer(db: Db, galleryId: string, id: string): Promise<OfferState | null> {
  const result = await db.execute<{ body: OfferBody; updated_at: string }>(
    sql`select ${stateColumns} ${ofOffer(galleryId, id)}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/** A scheduled offer whose time has come, read for the cron Worker's send: its gallery and its state as read. */
export interface DueOffer extends OfferState {
  galleryId: string;
  livemode: boolean;
}

/**
 * Up to `limit` scheduled offers whose `scheduled_at` is at or before `now` (the database's clock when absent),
 * earliest first, by offers_scheduled_due_idx. A plain read: the send of each is guarded by the updated_at read
 * here, so an offer changed since (rescheduled, unscheduled, cancelled, or sent by an overlapping pass) is left as
 * it now is. `galleryId` limits the read to one gallery (tests). One round trip.
 */
export async function dueOffers(
  db: Db,
  opts: { now?: Date; limit: number; galleryId?: string },
): Promise<DueOffer[]> {
  const scope = opts.galleryId === undefined ? sql`` : sql`and o.gallery_id = ${opts.galleryId}`;
  const result = await db.execute<{
    body: OfferBody;
    updated_at: string;
    gallery_id: string;
    livemode: boolean;
  }>(
    sql`select ${stateColumns}, o.gallery_id, g.livemode
      from offers o join galleries g on g.id = o.gallery_id
      where o.status = 'scheduled' and o.scheduled_at <= ${clockSql(opts.now)} ${scope}
      order by o.scheduled_at, o.id
      limit ${opts.limit}`,
  );
  return result.rows.map((row) => ({
    body: row.body,
    updatedAt: row.updated_at,
    galleryId: row.gallery_id,
    livemode: row.livemode,
  }));
}

/** 0-based index of the first id (in `ids`) that is not a row of `table` in the gallery, as SQL, or null. */
function firstUnknown(table: "artworks" | "contacts", galleryId: string, ids: readonly string[]): SQL {
  return sql`(select (min(x.n) - 1)::int from unnest(${textArray(ids)}) with ordinality x(id, n)
    where not exists (select 1 from ${sql.identifier(table)} t where t.gallery_id = ${galleryId} and t.id = x.id))`;
}

export interface OfferForItems extends OfferState {
  /** Index in `items` of the first work that is not the gallery's, or null. */
  unknownAt: number | null;
}

/** The offer, and whether every work of a new item set is the gallery's. One round trip. */
export async function findOfferForItems(
  db: Db,
  galleryId: string,
  id: string,
  artworkIds: readonly string[],
): Promise<OfferForItems | null> {
  const result = await db.execute<{ body: OfferBody; updated_at: string; unknown_at: number | null }>(
    sql`select ${stateColumns}, ${firstUnknown("artworks", galleryId, artworkIds)} as unknown_at
      ${ofOffer(galleryId, id)}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at, unknownAt: row.unknown_at } : null;
}

export interface RecipientsToAdd extends OfferState {
  /** Index in `contact_ids` of the first contact that is not the gallery's, or null. */
  unknownAt: number | null;
  /** The requested contacts not yet recipients, in request order. */
  newRecipients: string[];
}

/** The offer, and what adding `contactIds` to its recipients would change. One round trip. */
export async function findRecipientsToAdd(
  db: Db,
  galleryId: string,
  id: string,
  contactIds: readonly string[],
): Promise<RecipientsToAdd | null> {
  const result = await db.execute<{
    body: OfferBody;
    updated_at: string;
    unknown_at: number | null;
    new_recipients: string[];
  }>(
    sql`select ${stateColumns}, ${firstUnknown("contacts", galleryId, contactIds)} as unknown_at,
        array(select x.id from unnest(${textArray(contactIds)}) with ordinality x(id, n)
          where not exists (select 1 from offer_recipients r where r.offer_id = o.id and r.contact_id = x.id)
          order by x.n) as new_recipients
      ${ofOffer(galleryId, id)}`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    body: row.body,
    updatedAt: row.updated_at,
    unknownAt: row.unknown_at,
    newRecipients: row.new_recipients,
  };
}

export interface RecipientToRemove extends OfferState {
  contactExists: boolean;
  isRecipient: boolean;
}

/** The offer, whether the contact is the gallery's and whether it is a recipient. One round trip. */
export async function findRecipientToRemove(
  db: Db,
  galleryId: string,
  id: string,
  contactId: string,
): Promise<RecipientToRemove | null> {
  const result = await db.execute<{
    body: OfferBody;
    updated_at: string;
    contact_exists: boolean;
    is_recipient: boolean;
  }>(
    sql`select ${stateColumns},
        exists (select 1 from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}) as contact_exists,
        exists (select 1 from offer_recipients r where r.offer_id = o.id and r.contact_id = ${contactId}) as is_recipient
      ${ofOffer(galleryId, id)}`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    body: row.body,
    updatedAt: row.updated_at,
    contactExists: row.contact_exists,
    isRecipient: row.is_recipient,
  };
}

/** A new draft offer; its currency is the gallery's default currency unless given. */
export function insertOffer(
  galleryId: string,
  id: string,
  input: OfferCreateInput,
  createdBy: string | null,
  at: string,
): SQL {
  return sql`insert into offers (id, gallery_id, title, message, status, currency, created_by, created_at, updated_at)
    select ${id}, g.id, ${input.title}, ${input.message ?? null}::text, 'draft',
      coalesce(${input.currency ?? null}::text, g.default_currency), ${createdBy}::text, ${at}::timestamptz,
      ${at}::timestamptz
    from galleries g where g.id = ${galleryId}`;
}

/** The UPDATE for `guarded()`: matches only the row as it was read. */
export function updateOffer(
  db: Db,
  galleryId: string,
  id: string,
  values: RowValues<typeof offers>,
  readUpdatedAt: string,
): SQLWrapper {
  return db
    .update(offers)
    .set(offerResource.row(values))
    .where(asRead(offers, galleryId, id, readUpdatedAt));
}

/** Every recipient of a sent offer is `sent` (those further along stay where they are). */
export function markRecipientsSent(galleryId: string, id: string): SQL {
  return sql`update offer_recipients set status = 'sent'
    where gallery_id = ${galleryId} and offer_id = ${id} and status = 'pending'`;
}

/**
 * The whole item set replaced: works that left go, the others are written at their new position with their new
 * values. A work that stays keeps its created_at (when it joined the offer). Each work must still be the
 * gallery's as the transaction sees it (400 naming `items`).
 */
export function replaceItemsStatements(
  galleryId: string,
  offerId: string,
  input: OfferItemsReplaceInput,
  offerCurrency: string,
  at: string,
): SQL[] {
  const ids = input.items.map((item) => item.artwork_id);
  const removal = sql`delete from offer_items
    where offer_id = ${offerId} and not (artwork_id = any(${textArray(ids)}))`;
  if (input.items.length === 0) return [removal];
  const rows = input.items.map(
    (item, position) =>
      sql`(${item.artwork_id}, ${position}::int, ${item.caption_override ?? null}::text,
        ${item.price_shown_cents ?? null}::bigint, ${item.currency ?? offerCurrency}::text,
        ${item.price_visible ?? true}::boolean)`,
  );
  return [
    sql`select expect_valid((select count(*) from artworks a
        where a.gallery_id = ${galleryId} and a.id = any(${textArray(ids)})) = ${ids.length}, 'items',
        'names an artwork that does not exist in this gallery')`,
    removal,
    sql`insert into offer_items (gallery_id, offer_id, artwork_id, position, caption_override, price_shown_cents,
        currency, price_visible, created_at)
      select ${galleryId}, ${offerId}, x.artwork_id, x.position, x.caption_override, x.price_shown_cents, x.currency,
        x.price_visible, ${at}::timestamptz
      from (values ${sql.join(rows, sql`, `)}) x(artwork_id, position, caption_override, price_shown_cents, currency,
        price_visible)
      on conflict (offer_id, artwork_id) do update set position = excluded.position,
        caption_override = excluded.caption_override, price_shown_cents = excluded.price_shown_cents,
        currency = excluded.currency, price_visible = excluded.price_visible`,
  ];
}

/** The offer's items in position order, as `{data: [...]}`. */
export function offerItemsListJson(offerId: string): SQL {
  return sql`select json_build_object('data', coalesce(json_agg(${offerItemResource.json({})}
      order by oi.position, oi.artwork_id), '[]'::json))
    from offer_items oi where oi.offer_id = ${offerId}`;
}

/** `data.object` of `offer.items_replaced`: the offer after the change and its works in position order. */
export function itemsChangeJson(galleryId: string, offerId: string): SQL {
  return sql`select json_build_object('offer', (${offerJsonById(galleryId, offerId)}),
    'artwork_ids', array(select oi.artwork_id from offer_items oi where oi.offer_id = ${offerId}
      order by oi.position, oi.artwork_id))`;
}

/** `data.object` of a recipient event: the offer after the change and the contacts the change concerned. */
export function recipientsChangeJson(galleryId: string, offerId: string, contactIds: readonly string[]): SQL {
  return sql`select json_build_object('offer', (${offerJsonById(galleryId, offerId)}),
    'contact_ids', to_json(${textArray(contactIds)}))`;
}

/** New recipients (`pending`); those already there stay as they are. */
export function insertRecipients(
  galleryId: string,
  offerId: string,
  contactIds: readonly string[],
  at: string,
): SQL {
  return sql`insert into offer_recipients (gallery_id, offer_id, contact_id, status, added_at)
    select ${galleryId}, ${offerId}, x.id, 'pending', ${at}::timestamptz from unnest(${textArray(contactIds)}) x(id)
    on conflict (offer_id, contact_id) do nothing`;
}

export function deleteRecipient(galleryId: string, offerId: string, contactId: string): SQL {
  return sql`delete from offer_recipients
    where gallery_id = ${galleryId} and offer_id = ${offerId} and contact_id = ${contactId}`;
}

/** In the order they were added; `added` is the only sort. */
export const offerRecipientList = listSpec({ sorts: ["added"], defaultSort: "added" });

/**
 * One page (limit + 1 rows) of the offer's recipients, or null when the offer is not the gallery's. One round
 * trip, by the (offer_id, added_at, contact_id) index.
 */
export function listOfferRecipients(
  db: Db,
  galleryId: string,
  offerId: string,
  page: PageRequest,
): Promise<PageRow[] | null> {
  return keysetChildPage(
    db,
    sql`select 1 from offers o where o.gallery_id = ${galleryId} and o.id = ${offerId}`,
    {
      body: offerRecipientResource.json({}),
      from: offerRecipientResource.from({}),
      where: [sql`r.offer_id = ${offerId}`],
      sortKey: sql`r.added_at`,
      cast: "timestamptz",
      id: sql`r.contact_id`,
    },
    page,
  );
}

/**
 * The offer's recommended recipients as `{data: [...]}` text, or null when the offer is not the gallery's. One
 * statement, one round trip:
 *
 * 1. For each of the offer's works, its best `limit` eligible contacts, read down the (gallery, artwork,
 *    probability, id) index from the top: a visible match (`visibleMatch`, the very rule of the contact's
 *    matches list: active, not hidden now, at or above the floor, the work available), the contact neither archived nor do-not-email nor
 *    already a recipient, and the contact's best match on that work (several models may judge one pair).
 * 2. Those candidates grouped by contact, best first (probability, then contact id), `limit` of them. A contact
 *    in the true top `limit` is among its best work's top `limit` (everyone above it there is above it overall),
 *    with its best probability, so the candidates hold the whole answer.
 * 3. For each chosen contact, the offer's works it matches (by the contact's own index), best first, and the
 *    label of the strongest evidence of its best match.
 */
export async function recommendedRecipients(
  db: Db,
  galleryId: string,
  offerId: string,
  limit: number,
): Promise<string | null> {
  const result = await db.execute<{ found: boolean; body: string }>(
    recommendedRecipientsQuery(galleryId, offerId, limit),
  );
  const row = result.rows[0]!;
  return row.found ? row.body : null;
}

/** The statement of recommendedRecipients: one row, `found` (the offer is the gallery's) and `body`. */
export function recommendedRecipientsQuery(galleryId: string, offerId: string, limit: number): SQL {
  return sql`with works as (
        select oi.artwork_id from offers o join offer_items oi on oi.offer_id = o.id
        where o.gallery_id = ${galleryId} and o.id = ${offerId}
      ),
      candidates as (
        select m.contact_id, max(m.probability) as probability
        from works w cross join lateral (
          select rm.contact_id, rm.probability from recommendation_matches rm
            join contacts c on c.id = rm.contact_id
          where rm.gallery_id = ${galleryId} and rm.artwork_id = w.artwork_id and ${visibleMatch("rm")}
            and c.archived_at is null and not c.do_not_email
            and not exists (select 1 from offer_recipients r where r.offer_id = ${offerId} and r.contact_id = rm.contact_id)
            -- One row per pair when several models judged it: the best. A scalar subquery, not NOT EXISTS, so it
            -- stays a probe of the pair key per candidate row (an anti-join would hash every visible match of
            -- a popular work first).
            and (select b.id from recommendation_matches b
              where b.gallery_id = rm.gallery_id and b.artwork_id = rm.artwork_id and b.contact_id = rm.contact_id
                and ${visibleMatch("b")} and (b.probability, b.id) > (rm.probability, rm.id)
              limit 1) is null
          order by rm.probability desc, rm.contact_id
          limit ${limit}
        ) m
        group by m.contact_id
        order by max(m.probability) desc, m.contact_id
        limit ${limit}
      ),
      chosen as (
        select cand.contact_id, cand.probability, c.name, c.email, best.reasons, works_matched.list
        from candidates cand
          join contacts c on c.id = cand.contact_id
          cross join lateral (
            select rm.reasons from recommendation_matches rm
            where rm.gallery_id = ${galleryId} and rm.contact_id = cand.contact_id
              and rm.artwork_id in (select artwork_id from works) and ${visibleMatch("rm")}
            order by rm.probability desc, rm.id limit 1
          ) best
          cross join lateral (
            select json_agg(json_build_object('artwork_id', x.artwork_id, 'title', x.title, 'probability', x.p)
              order by x.p desc, x.artwork_id) as list
            from (
              select rm.artwork_id, a.title, max(rm.probability) as p from recommendation_matches rm
                join artworks a on a.id = rm.artwork_id
              where rm.gallery_id = ${galleryId} and rm.contact_id = cand.contact_id
                and rm.artwork_id in (select artwork_id from works) and ${visibleMatch("rm")}
              group by rm.artwork_id, a.title
            ) x
          ) works_matched
      )
      select exists (select 1 from offers o where o.gallery_id = ${galleryId} and o.id = ${offerId}) as found,
        json_build_object('data', coalesce((select json_agg(json_build_object(
            'contact_id', ch.contact_id, 'name', ch.name, 'email', ch.email,
            'top_reason', ch.reasons->0->>'label', 'probability', ch.probability, 'artworks', ch.list)
          order by ch.probability desc, ch.contact_id) from chosen ch), '[]'::json))::text as body`;
}
