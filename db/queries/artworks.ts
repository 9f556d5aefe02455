import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import {
  Artwork,
  ArtworkArtist,
  ArtworkDimension,
  ArtworkFormat,
  ArtworkUpdate,
} from "../../lib/schemas/artworks";
import type { Db } from "../client";
import { isoMs, type JsonView, resource } from "../resource";
import { artworkArtists, artworkDimensions, artworkFormats, artworks } from "../schema";
import { type KeysetQuery, keysetPage } from "./keyset";
import { textArray } from "./rows";

/**
 * Artwork reads. The API representation is built by Postgres (json, from the resource descriptions below) so
 * that a list, a single read, the response of a write and its idempotent replay are one and the same shape, in
 * one round trip.
 */

export interface ArtworkView extends JsonView {
  /** Overlay the editor's pending draft (the working copy) instead of the committed state. */
  draft: boolean;
  /** Hide format prices unless the work is public-priced (read-only callers). */
  gatePrices: boolean;
}

/** The fields of the artwork that a draft may overlay: every writable field that a column stores. */
const draftable: ReadonlySet<string> = new Set(
  Object.keys(ArtworkUpdate.shape).filter((field) => field in getTableColumnsByName(artworks)),
);

function getTableColumnsByName(table: typeof artworks): Record<string, true> {
  return Object.fromEntries(Object.values(getTableColumns(table)).map((c) => [c.name, true]));
}

/** The draft's pending value of a field, typed like its column. */
function draftValue(field: string, type: string): SQL {
  const key = sql.raw(`'${field}'`);
  if (type === "jsonb") return sql`d.patch->${key}`;
  if (type === "text[]") return sql`array(select jsonb_array_elements_text(d.patch->${key}))`;
  if (type === "text") return sql`d.patch->>${key}`;
  return sql`(d.patch->>${key})::${sql.raw(type)}`;
}

/** Under `draft`, a draftable column reads the draft's pending value first. */
function draftOverlay(view: ArtworkView, field: string, columnSql: SQL): SQL {
  if (!view.draft || !draftable.has(field)) return columnSql;
  const type = artworkResource.sqlType(field);
  return sql`(case when d.patch ? ${sql.raw(`'${field}'`)} then ${draftValue(field, type)} else ${columnSql} end)`;
}

function fromArtworks(view: ArtworkView): SQL {
  return view.draft ? sql`artworks a left join artwork_drafts d on d.artwork_id = a.id` : sql`artworks a`;
}

const artworkArtistResource = resource({
  schema: ArtworkArtist,
  table: artworkArtists,
  alias: "aa",
  computed: { artist_name: () => sql`ar.name` },
});

export const artworkDimensionResource = resource({
  schema: ArtworkDimension,
  table: artworkDimensions,
  alias: "dm",
});

interface FormatView extends JsonView {
  /** True where the format's price must not be shown. */
  gate: SQL;
  /** The artwork view's key: the gate differs between views. */
  key: string;
}

const artworkFormatResource = resource({
  schema: ArtworkFormat,
  table: artworkFormats,
  alias: "f",
  viewKey: (view: FormatView) => view.key,
  computed: {
    price_cents: (view: FormatView) => sql`case when ${view.gate} then null else f.price_cents end`,
  },
});

function artworkViewKey(view: ArtworkView): string {
  return `${view.draft ? "draft" : "committed"}:${view.gatePrices ? "gated" : "open"}`;
}

/** The artwork: every field a column of `artworks a`, but for its three nested collections. */
export const artworkResource = resource({
  schema: Artwork,
  table: artworks,
  alias: "a",
  name: "artwork",
  gated: { paths: ["formats[].price_cents"], unless: "show_price_publicly" },
  viewKey: artworkViewKey,
  column: draftOverlay,
  from: fromArtworks,
  computed: {
    artists:
      () => sql`coalesce((select json_agg(${artworkArtistResource.json({})} order by aa.position, aa.artist_id)
        from artwork_artists aa join artists ar on ar.id = aa.artist_id where aa.artwork_id = a.id), '[]'::json)`,
    dimensions:
      () => sql`coalesce((select json_agg(${artworkDimensionResource.json({})} order by dm.position, dm.id)
        from artwork_dimensions dm where dm.artwork_id = a.id), '[]'::json)`,
    formats: (view: ArtworkView, value) => {
      const gate = view.gatePrices ? sql`not ${value("show_price_publicly")}` : sql`false`;
      return sql`coalesce((select json_agg(${artworkFormatResource.json({ gate, key: artworkViewKey(view) })} order by f.position, f.id)
        from artwork_formats f where f.artwork_id = a.id), '[]'::json)`;
    },
  },
});

/** A column of the artwork as seen by this view: the row's value or the draft's pending one. */
export function col(view: ArtworkView, name: string): SQL {
  return artworkResource.value(view, name);
}

export interface ArtworkState {
  body: Record<string, unknown>;
  updatedAt: string;
}

/** One artwork with its raw updated_at (for guarded writes), or null. One round trip. */
export async function findArtwork(
  db: Db,
  galleryId: string,
  id: string,
  view: ArtworkView,
): Promise<ArtworkState | null> {
  const result = await db.execute<{ body: Record<string, unknown>; updated_at: string }>(
    sql`select ${artworkResource.json(view)} as body, ${isoMs(sql`a.updated_at`)} as updated_at
      from ${artworkResource.from(view)} where a.gallery_id = ${galleryId} and a.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

export const artworkList = listSpec({
  sorts: ["created", "updated", "price", "year"],
  defaultSort: "created",
});
export type ArtworkSort = (typeof artworkList.sorts)[number];

/** The keyset expression per sort; nulls take a sentinel below every real value so row comparisons work. */
export function artworkSortKey(
  view: ArtworkView,
  sort: ArtworkSort,
): { expr: SQL; cast: KeysetQuery["cast"] } {
  switch (sort) {
    case "created":
      return { expr: sql`a.created_at`, cast: "timestamptz" };
    case "updated":
      return { expr: sql`a.updated_at`, cast: "timestamptz" };
    case "price":
      return { expr: sql`coalesce(${col(view, "price_cents")}, -1)`, cast: "bigint" };
    case "year":
      return { expr: sql`coalesce(${col(view, "year")}, -2147483648)`, cast: "integer" };
  }
}

export interface ArtworkFilters {
  ids?: string[];
  q?: string;
  availability?: string[];
  ownership?: string[];
  condition?: string[];
  market?: string[];
  artist_id?: string;
  medium?: string[];
  price_min?: number;
  price_max?: number;
  year_min?: number;
  year_max?: number;
  height_min?: number;
  height_max?: number;
  width_min?: number;
  width_max?: number;
  unpriced?: boolean;
  published?: boolean;
  has_image?: boolean;
  tag_id?: string[];
  readiness?: string[];
  disclosure?: boolean;
}

function likeTerm(term: string): string {
  return `%${term.replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
}

function searchText(view: ArtworkView): SQL {
  if (!view.draft) return sql`a.search_text`;
  const parts = (["title", "medium", "inventory_number", "date_display"] as const).map(
    (name) => sql`coalesce(${col(view, name)}, '')`,
  );
  return sql`lower(${sql.join([parts[0]!, sql`coalesce(a.artist_name, '')`, ...parts.slice(1)], sql` || ' ' || `)})`;
}

/** WHERE conditions for the artworks list; every filter ANDs, repeatable values OR within their filter. */
export function artworkConditions(galleryId: string, view: ArtworkView, f: ArtworkFilters): SQL[] {
  const c = (name: string) => col(view, name);
  const where: SQL[] = [sql`a.gallery_id = ${galleryId}`];
  if (f.ids) where.push(sql`a.id = any(${textArray(f.ids)})`);
  if (f.q !== undefined) {
    const terms = f.q.toLowerCase().split(/\s+/).filter(Boolean);
    for (const term of terms) where.push(sql`${searchText(view)} like ${likeTerm(term)}`);
  }
  if (f.availability) where.push(sql`${c("availability_state")} = any(${textArray(f.availability)})`);
  if (f.ownership) where.push(sql`${c("ownership_status")} = any(${textArray(f.ownership)})`);
  if (f.condition) where.push(sql`${c("condition_status")} = any(${textArray(f.condition)})`);
  if (f.market) where.push(sql`${c("market")} = any(${textArray(f.market)})`);
  if (f.artist_id !== undefined) {
    where.push(
      sql`exists (select 1 from artwork_artists aa where aa.artwork_id = a.id and aa.gallery_id = ${galleryId} and aa.artist_id = ${f.artist_id})`,
    );
  }
  if (f.medium)
    where.push(sql`lower(${c("medium")}) = any(${textArray(f.medium.map((m) => m.toLowerCase()))})`);
  if (f.price_min !== undefined) where.push(sql`${c("price_cents")} >= ${f.price_min}::bigint`);
  if (f.price_max !== undefined) where.push(sql`${c("price_cents")} <= ${f.price_max}::bigint`);
  if (f.year_min !== undefined) where.push(sql`${c("year")} >= ${f.year_min}::bigint`);
  if (f.year_max !== undefined) where.push(sql`${c("year")} <= ${f.year_max}::bigint`);
  if (f.height_min !== undefined) where.push(sql`${c("height_cm")} >= ${f.height_min}::double precision`);
  if (f.height_max !== undefined) where.push(sql`${c("height_cm")} <= ${f.height_max}::double precision`);
  if (f.width_min !== undefined) where.push(sql`${c("width_cm")} >= ${f.width_min}::double precision`);
  if (f.width_max !== undefined) where.push(sql`${c("width_cm")} <= ${f.width_max}::double precision`);
  if (f.unpriced !== undefined)
    where.push(f.unpriced ? sql`${c("price_cents")} is null` : sql`${c("price_cents")} is not null`);
  if (f.published !== undefined)
    where.push(f.published ? sql`a.published_at is not null` : sql`a.published_at is null`);
  if (f.has_image !== undefined) where.push(f.has_image ? sql`a.image_count > 0` : sql`a.image_count = 0`);
  if (f.tag_id) {
    where.push(
      sql`exists (select 1 from artwork_tags t where t.artwork_id = a.id and t.tag_id = any(${textArray(f.tag_id)}))`,
    );
  }
  if (f.readiness) where.push(sql`a.readiness = any(${textArray(f.readiness)})`);
  if (f.disclosure !== undefined) {
    where.push(f.disclosure ? sql`a.disclosure_required is true` : sql`a.disclosure_required is false`);
  }
  return where;
}

/** One page (limit + 1 rows) of artworks. One round trip. */
export function listArtworks(
  db: Db,
  galleryId: string,
  view: ArtworkView,
  filters: ArtworkFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const key = artworkSortKey(view, page.sort as ArtworkSort);
  return keysetPage(
    db,
    {
      body: artworkResource.json(view),
      from: artworkResource.from(view),
      where: artworkConditions(galleryId, view, filters),
      sortKey: key.expr,
      cast: key.cast,
      id: sql`a.id`,
    },
    page,
  );
}
