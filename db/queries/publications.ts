import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { Publication } from "../../lib/schemas/publications";
import type { Db } from "../client";
import { type Gate, isoMs, type JsonView, type PriceAccess, resource } from "../resource";
import { publications } from "../schema";
import { type KeysetQuery, keysetPage } from "./keyset";

export interface PublicationView extends JsonView {
  /** Which prices the caller sees (`price_visibility` they are admitted to). */
  prices: PriceAccess;
}

const OPEN: PublicationView = { prices: "all" };

/**
 * A price's amount is shown to a read-only key when `public`, to a read-only member session (a viewer) when
 * `public` or `members`; callers with write access always see it. The publication's reads and its events both
 * follow this one declaration.
 */
const priceGate = {
  paths: ["price.price_cents"],
  unless: {
    field: "price.price_visibility",
    admits: { public: ["public"], members: ["public", "members"] },
  },
} satisfies Gate;

/** Under this view, whether the price record `pp` hides its amount. */
function hidden(view: PublicationView): SQL {
  if (view.prices === "all") return sql`false`;
  const admitted = priceGate.unless.admits[view.prices].map((v) => `'${v}'`).join(", ");
  return sql`pp.price_visibility not in (${sql.raw(admitted)})`;
}

/**
 * The API representation of a publication (alias `p`). Events carry its ungated snapshot, gated when read by the
 * same rule as here.
 */
export const publicationResource = resource({
  schema: Publication,
  table: publications,
  alias: "p",
  name: "publication",
  gated: priceGate,
  viewKey: (view: PublicationView) => view.prices,
  computed: {
    artwork_ids: () => sql`array(select pa.artwork_id from publication_artworks pa
      where pa.publication_id = p.id order by pa.position, pa.artwork_id)`,
    price: (view: PublicationView) => sql`(select json_build_object(
        'price_cents', case when ${hidden(view)} then null else pp.price_cents end,
        'currency', pp.currency, 'price_visibility', pp.price_visibility)
      from publication_pricing pp where pp.publication_id = p.id)`,
  },
});

/** Newest first by default; `updated` by the last change. */
export const publicationList = listSpec({ sorts: ["created", "updated"], defaultSort: "created" });
type PublicationSort = (typeof publicationList.sorts)[number];

const sortKeys: Record<PublicationSort, Pick<KeysetQuery, "sortKey" | "cast">> = {
  created: { sortKey: sql`p.created_at`, cast: "timestamptz" },
  updated: { sortKey: sql`p.updated_at`, cast: "timestamptz" },
};

export interface PublicationFilters {
  published?: boolean;
  kind?: string;
  visibility?: string;
  artwork_id?: string;
}

/** One page (limit + 1 rows) of the gallery's publications matching the filters. One round trip. */
export function listPublications(
  db: Db,
  galleryId: string,
  view: PublicationView,
  f: PublicationFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const where = [sql`p.gallery_id = ${galleryId}`];
  if (f.published !== undefined) where.push(sql`p.published = ${f.published}`);
  if (f.kind !== undefined) where.push(sql`p.kind = ${f.kind}`);
  if (f.visibility !== undefined) where.push(sql`p.visibility = ${f.visibility}`);
  if (f.artwork_id !== undefined) {
    where.push(sql`exists (select 1 from publication_artworks pa
      where pa.publication_id = p.id and pa.artwork_id = ${f.artwork_id})`);
  }
  return keysetPage(
    db,
    {
      body: publicationResource.json(view),
      from: sql`publications p`,
      where,
      ...sortKeys[page.sort as PublicationSort],
      id: sql`p.id`,
    },
    page,
  );
}

/** One publication as JSON text under the caller's view, or null. One round trip. */
export function publicationText(db: Db, galleryId: string, id: string, view: PublicationView) {
  return publicationResource.textById(db, galleryId, id, view);
}

/** The ungated publication, for write responses and event objects. */
export function publicationJson(galleryId: string, id: string): SQL {
  return publicationResource.jsonById(galleryId, id, OPEN);
}

/** What an upload at a storage path is, as a cover write needs to know. */
export interface CoverUpload {
  purpose: string;
  resourceId: string | null;
  usedAt: string | null;
}

export interface PublicationState {
  /** Ungated. */
  body: z.infer<typeof Publication>;
  updatedAt: string;
  /** The gallery's default currency (a new price's currency unless given). */
  defaultCurrency: string;
  /** The upload at the cover path asked about, if one was minted there. */
  coverUpload: CoverUpload | null;
}

/**
 * One publication of the gallery, ungated, with what a guarded write needs, and the upload minted at
 * `coverPath` when one is asked about; or null. One round trip.
 */
export async function findPublication(
  db: Db,
  galleryId: string,
  id: string,
  coverPath: string | null = null,
): Promise<PublicationState | null> {
  const result = await db.execute<{
    body: z.infer<typeof Publication>;
    updated_at: string;
    default_currency: string;
    minted: boolean;
    purpose: string | null;
    resource_id: string | null;
    used_at: string | null;
  }>(
    sql`select ${publicationResource.json(OPEN)} as body, ${isoMs(sql`p.updated_at`)} as updated_at,
        g.default_currency, t.id is not null as minted, t.purpose, t.resource_id, ${isoMs(sql`t.used_at`)} as used_at
      from publications p join galleries g on g.id = p.gallery_id
      left join upload_tokens t on t.gallery_id = p.gallery_id and t.storage_path = ${coverPath}
      where p.gallery_id = ${galleryId} and p.id = ${id}`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    body: row.body,
    updatedAt: row.updated_at,
    defaultCurrency: row.default_currency,
    coverUpload: row.minted
      ? { purpose: row.purpose!, resourceId: row.resource_id, usedAt: row.used_at }
      : null,
  };
}

/** Whether the gallery has this publication. One round trip. */
export async function publicationExists(db: Db, galleryId: string, id: string): Promise<boolean> {
  const result = await db.execute<{ found: boolean }>(
    sql`select exists (select 1 from publications where gallery_id = ${galleryId} and id = ${id}) as found`,
  );
  return result.rows[0]?.found === true;
}

/**
 * Statements that write publications, composed into one transaction by services/write.ts; none runs on its own.
 */

/**
 * Aborts with 409 `conflict` naming the publication that has the slug, when another one of the gallery has it
 * (`publications_gallery_slug_key` also holds, for two such writes racing).
 */
export function refuseTakenSlug(galleryId: string, slug: string, exceptId: string): SQL {
  return sql`select raise_conflict(format('The slug “%s” is taken by publication %s', p.slug, p.id),
      jsonb_build_object('existing_id', p.id, 'slug', p.slug))
    from publications p where p.gallery_id = ${galleryId} and p.slug = ${slug} and p.id <> ${exceptId}`;
}

/** The first of `base`, `base-2`, `base-3`… that no publication of the gallery has (SQL text). */
function freeSlug(galleryId: string, base: string, fallback: string): SQL {
  return sql`coalesce((select c.slug from (
      select case when n = 1 then ${base}::text else ${base}::text || '-' || n end as slug, n
      from generate_series(1, 1000) n) c
    where not exists (select 1 from publications p where p.gallery_id = ${galleryId} and p.slug = c.slug)
    order by c.n limit 1), ${fallback}::text)`;
}

export interface NewPublication {
  id: string;
  title: string;
  /** Given by the caller (checked by refuseTakenSlug first), or derived: `base` then a free variant of it. */
  slug: { given: string } | { base: string; fallback: string };
  kind: string;
  body: string | null;
  visibility: string;
  published: boolean;
}

export function insertPublication(galleryId: string, p: NewPublication, at: string): SQL {
  const slug =
    "given" in p.slug ? sql`${p.slug.given}::text` : freeSlug(galleryId, p.slug.base, p.slug.fallback);
  return sql`insert into publications (id, gallery_id, title, slug, kind, body, published, published_at, visibility,
      created_at, updated_at)
    values (${p.id}, ${galleryId}, ${p.title}, ${slug}, ${p.kind}, ${p.body}, ${p.published},
      ${p.published ? at : null}::timestamptz, ${p.visibility}, ${at}::timestamptz, ${at}::timestamptz)`;
}

/** The works of a publication, in order; replacing any list it had. */
export function setPublicationArtworks(
  galleryId: string,
  id: string,
  artworkIds: readonly string[],
  replace: boolean,
): SQL[] {
  const out: SQL[] = replace ? [sql`delete from publication_artworks where publication_id = ${id}`] : [];
  if (artworkIds.length === 0) return out;
  const rows = artworkIds.map((artworkId, position) => sql`(${galleryId}, ${id}, ${artworkId}, ${position})`);
  out.push(sql`insert into publication_artworks (gallery_id, publication_id, artwork_id, position)
    values ${sql.join(rows, sql`, `)}`);
  return out;
}

/** A price as written: the currency left out (null) is the gallery's default currency. */
export interface PriceRecord {
  price_cents: number;
  currency: string | null;
  price_visibility: string;
}

/** Writes the gated pricing record, or removes it (null). */
export function setPublicationPrice(
  galleryId: string,
  id: string,
  price: PriceRecord | null,
  at: string,
): SQL {
  if (price === null) return sql`delete from publication_pricing where publication_id = ${id}`;
  const currency = sql`coalesce(${price.currency}::text, (select g.default_currency from galleries g where g.id = ${galleryId}))`;
  return sql`insert into publication_pricing (publication_id, gallery_id, price_cents, currency, price_visibility,
      created_at, updated_at)
    values (${id}, ${galleryId}, ${price.price_cents}::bigint, ${currency}, ${price.price_visibility},
      ${at}::timestamptz, ${at}::timestamptz)
    on conflict (publication_id) do update set price_cents = excluded.price_cents, currency = excluded.currency,
      price_visibility = excluded.price_visibility, updated_at = excluded.updated_at`;
}

/**
 * Aborts with a 400 naming `cover_image_path` unless it is the path of an upload minted for this publication's
 * cover whose bytes were PUT (checked in the transaction, beside the read before it).
 */
export function expectFinishedCover(galleryId: string, id: string, path: string, purpose: string): SQL {
  return sql`select expect_valid(exists (select 1 from upload_tokens t
      where t.gallery_id = ${galleryId} and t.storage_path = ${path} and t.purpose = ${purpose}
        and t.resource_id = ${id} and t.used_at is not null),
    'cover_image_path', 'is not a finished cover upload of this publication')`;
}

export interface PublicationChange {
  title?: string;
  slug?: string;
  kind?: string;
  body?: string | null;
  visibility?: string;
  /** true: published now (published_at = the write's time); false: unpublished (published_at cleared). */
  published?: boolean;
  cover?: { path: string; url: string } | null;
}

/** The UPDATE for `guarded()`: matches only the row as it was read. */
export function updatePublicationStatement(
  galleryId: string,
  id: string,
  change: PublicationChange,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const set: SQL[] = [sql`updated_at = ${at}::timestamptz`];
  if (change.title !== undefined) set.push(sql`title = ${change.title}`);
  if (change.slug !== undefined) set.push(sql`slug = ${change.slug}`);
  if (change.kind !== undefined) set.push(sql`kind = ${change.kind}`);
  if (change.body !== undefined) set.push(sql`body = ${change.body}`);
  if (change.visibility !== undefined) set.push(sql`visibility = ${change.visibility}`);
  if (change.published !== undefined) {
    set.push(sql`published = ${change.published}`);
    set.push(sql`published_at = ${change.published ? at : null}::timestamptz`);
  }
  if (change.cover !== undefined) {
    set.push(sql`cover_image_path = ${change.cover?.path ?? null}`);
    set.push(sql`cover_image_url = ${change.cover?.url ?? null}`);
  }
  return sql`update publications p set ${sql.join(set, sql`, `)}
    where p.gallery_id = ${galleryId} and p.id = ${id} and p.updated_at = ${readUpdatedAt}::timestamptz`;
}
