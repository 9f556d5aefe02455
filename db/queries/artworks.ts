import { type SQL, sql } from "drizzle-orm";
import type { PageRequest, PageRow } from "../../lib/pagination";
import type { Db } from "../client";
import { type KeysetQuery, keysetPage } from "./keyset";
import { textArray } from "./rows";

/**
 * Artwork reads. The API representation is built by Postgres (jsonb) so that a list, a single read, the
 * response of a write and its idempotent replay are one and the same shape, in one round trip.
 */

type PgType = "text" | "int" | "bigint" | "float" | "bool" | "text[]" | "jsonb" | "timestamptz";

/** Columns of the artwork that a draft may overlay, with their Postgres types. */
export const draftableColumns = {
  title: "text",
  inventory_number: "text",
  ownership_status: "text",
  availability_state: "text",
  medium: "text",
  year: "int",
  end_year: "int",
  date_precision: "text",
  date_display: "text",
  description: "text",
  dimension_unit: "text",
  height_cm: "float",
  width_cm: "float",
  depth_cm: "float",
  framed_height_cm: "float",
  framed_width_cm: "float",
  framed_depth_cm: "float",
  dimensions_text: "text",
  location_id: "text",
  price_cents: "bigint",
  currency: "text",
  is_edition: "bool",
  edition_number: "int",
  edition_size: "int",
  edition_type: "text",
  edition_overrides: "text[]",
  parent_artwork_id: "text",
  coa_status: "text",
  coa_tracking_number: "text",
  condition_status: "text",
  condition_notes: "text",
  provenance: "text",
  exhibition_history: "text",
  literature: "text",
  catalogue_raisonne: "text",
  market: "text",
  custom_status_id: "text",
  show_price_publicly: "bool",
  metadata: "jsonb",
} as const satisfies Record<string, PgType>;

export type DraftableColumn = keyof typeof draftableColumns;

export interface ArtworkView {
  /** Overlay the editor's pending draft (the working copy) instead of the committed state. */
  draft: boolean;
  /** Hide format prices unless the work is public-priced (read-only callers). */
  gatePrices: boolean;
}

/** A column of the artwork as seen by this view: the row's value or the draft's pending one. */
export function col(view: ArtworkView, name: DraftableColumn | "artist_id" | "artist_name"): SQL {
  const column = sql.raw(`a.${name}`);
  if (!view.draft || name === "artist_id" || name === "artist_name") return column;
  const type = draftableColumns[name];
  const key = sql.raw(`'${name}'`);
  const value =
    type === "jsonb"
      ? sql`d.patch->${key}`
      : type === "text[]"
        ? sql`array(select jsonb_array_elements_text(d.patch->${key}))`
        : type === "text"
          ? sql`d.patch->>${key}`
          : sql`(d.patch->>${key})::${sql.raw(type === "float" ? "double precision" : type === "bool" ? "boolean" : type)}`;
  return sql`(case when d.patch ? ${key} then ${value} else ${column} end)`;
}

const iso = (expr: SQL) => sql`iso_ms(${expr})`;

/** jsonb of one artwork row `a` (joined to its draft `d` in draft views). */
export function artworkJson(view: ArtworkView): SQL {
  const c = (name: DraftableColumn) => col(view, name);
  const gate = view.gatePrices ? sql`not ${c("show_price_publicly")}` : sql`false`;
  return sql`(jsonb_build_object(
      'id', a.id, 'title', ${c("title")}, 'artist_id', a.artist_id, 'artist_name', a.artist_name,
      'thumbnail_url', a.thumbnail_url, 'inventory_number', ${c("inventory_number")},
      'artists', coalesce((select jsonb_agg(jsonb_build_object('artist_id', aa.artist_id, 'role', aa.role,
          'position', aa.position, 'artist_name', ar.name) order by aa.position, aa.artist_id)
        from artwork_artists aa join artists ar on ar.id = aa.artist_id where aa.artwork_id = a.id), '[]'::jsonb),
      'dimensions', coalesce((select jsonb_agg(jsonb_build_object('component', dm.component, 'label', dm.label,
          'height_cm', dm.height_cm, 'width_cm', dm.width_cm, 'depth_cm', dm.depth_cm, 'position', dm.position,
          'note', dm.note) order by dm.position, dm.id)
        from artwork_dimensions dm where dm.artwork_id = a.id), '[]'::jsonb),
      'ownership_status', ${c("ownership_status")}, 'availability_state', ${c("availability_state")},
      'medium', ${c("medium")}, 'year', ${c("year")}, 'end_year', ${c("end_year")},
      'date_precision', ${c("date_precision")}, 'date_display', ${c("date_display")},
      'description', ${c("description")}, 'dimension_unit', ${c("dimension_unit")},
      'height_cm', ${c("height_cm")}, 'width_cm', ${c("width_cm")}, 'depth_cm', ${c("depth_cm")},
      'framed_height_cm', ${c("framed_height_cm")}, 'framed_width_cm', ${c("framed_width_cm")},
      'framed_depth_cm', ${c("framed_depth_cm")}, 'dimensions_text', ${c("dimensions_text")},
      'location_id', ${c("location_id")}, 'price_cents', ${c("price_cents")}, 'currency', ${c("currency")}
    ) || jsonb_build_object(
      'is_edition', ${c("is_edition")}, 'edition_number', ${c("edition_number")},
      'edition_size', ${c("edition_size")}, 'edition_type', ${c("edition_type")},
      'edition_overrides', to_jsonb(${c("edition_overrides")}), 'parent_artwork_id', ${c("parent_artwork_id")},
      'coa_status', ${c("coa_status")}, 'coa_tracking_number', ${c("coa_tracking_number")},
      'condition_status', ${c("condition_status")}, 'condition_notes', ${c("condition_notes")},
      'provenance', ${c("provenance")}, 'exhibition_history', ${c("exhibition_history")},
      'literature', ${c("literature")}, 'catalogue_raisonne', ${c("catalogue_raisonne")},
      'market', ${c("market")}, 'custom_status_id', ${c("custom_status_id")},
      'show_price_publicly', ${c("show_price_publicly")}, 'published_at', ${iso(sql`a.published_at`)},
      'published_version', a.published_version, 'save_state', a.save_state,
      'source_system', a.source_system, 'source_external_id', a.source_external_id,
      'formats', coalesce((select jsonb_agg(jsonb_build_object('id', f.id, 'artwork_id', f.artwork_id,
          'label', f.label, 'height_cm', f.height_cm, 'width_cm', f.width_cm, 'depth_cm', f.depth_cm,
          'dimension_unit', f.dimension_unit, 'medium', f.medium, 'edition_size', f.edition_size,
          'stock_quantity', f.stock_quantity, 'availability_state', f.availability_state,
          'price_cents', case when ${gate} then null else f.price_cents end, 'currency', f.currency,
          'position', f.position, 'metadata', f.metadata, 'created_at', ${iso(sql`f.created_at`)},
          'updated_at', ${iso(sql`f.updated_at`)}) order by f.position, f.id)
        from artwork_formats f where f.artwork_id = a.id), '[]'::jsonb),
      'metadata', ${c("metadata")}, 'created_at', ${iso(sql`a.created_at`)}, 'updated_at', ${iso(sql`a.updated_at`)}
    ))`;
}

function fromArtworks(view: ArtworkView): SQL {
  return view.draft ? sql`artworks a left join artwork_drafts d on d.artwork_id = a.id` : sql`artworks a`;
}

/** SQL yielding one artwork's jsonb (null when absent), for reads and write responses. */
export function artworkJsonById(galleryId: string, id: string, view: ArtworkView): SQL {
  return sql`select ${artworkJson(view)} from ${fromArtworks(view)} where a.gallery_id = ${galleryId} and a.id = ${id}`;
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
    sql`select ${artworkJson(view)} as body, iso_ms(a.updated_at) as updated_at
      from ${fromArtworks(view)} where a.gallery_id = ${galleryId} and a.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

export const artworkSorts = ["created", "updated", "price", "year"] as const;
export type ArtworkSort = (typeof artworkSorts)[number];

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
  const c = (name: DraftableColumn) => col(view, name);
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
      body: artworkJson(view),
      from: fromArtworks(view),
      where: artworkConditions(galleryId, view, filters),
      sortKey: key.expr,
      cast: key.cast,
      id: sql`a.id`,
    },
    page,
  );
}
