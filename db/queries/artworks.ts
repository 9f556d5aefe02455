import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { Artwork, ArtworkArtist, ArtworkDimension, ArtworkUpdate } from "../../lib/schemas/artworks";
import type { Db } from "../client";
import { isoMs, type JsonView, patchOverlay, resource } from "../resource";
import { artworkArtists, artworkDimensions, artworks } from "../schema";
import { formatsJson } from "./artwork-formats";
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

/**
 * The fields of the artwork that a draft may overlay: every writable field that a column stores, and the primary
 * artist denormalised from the draft's credits.
 */
const draftable: ReadonlySet<string> = new Set([
  ...Object.keys(ArtworkUpdate.shape).filter((field) => field in getTableColumnsByName(artworks)),
  "artist_id",
  "artist_name",
]);

function getTableColumnsByName(table: typeof artworks): Record<string, true> {
  return Object.fromEntries(Object.values(getTableColumns(table)).map((c) => [c.name, true]));
}

/** Under `draft`, a draftable column reads the draft's pending value first. */
function draftOverlay(view: ArtworkView, field: string, columnSql: SQL): SQL {
  if (!view.draft || !draftable.has(field)) return columnSql;
  return patchOverlay(sql`d.patch`, field, artworkResource.sqlType(field), columnSql);
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

function artworkViewKey(view: ArtworkView): string {
  return `${view.draft ? "draft" : "committed"}:${view.gatePrices ? "gated" : "open"}`;
}

/** The artwork: every field a column of `artworks a`, but for its three nested collections. */
export const artworkResource = resource({
  schema: Artwork,
  table: artworks,
  alias: "a",
  name: "artwork",
  gated: {
    paths: ["formats[].price_cents"],
    unless: { field: "show_price_publicly", admits: { members: [true], public: [true] } },
  },
  viewKey: artworkViewKey,
  document: (view: ArtworkView) =>
    isDocumentView(view) ? { read: storedDocument, build: sql`artwork_document(a.id)` } : null,
  column: draftOverlay,
  from: fromArtworks,
  computed: {
    artists: (view: ArtworkView) => {
      const live = sql`coalesce((select json_agg(${artworkArtistResource.json({})} order by aa.position, aa.artist_id)
        from artwork_artists aa join artists ar on ar.id = aa.artist_id where aa.artwork_id = a.id), '[]'::json)`;
      if (!view.draft) return live;
      // The draft holds the credits as a write takes them: [{artist_id, role}], in order.
      return sql`(case when d.patch ? 'artists' then coalesce((select json_agg(json_build_object(
          'artist_id', x.el->>'artist_id', 'role', x.el->>'role', 'position', x.n - 1, 'artist_name', ar.name)
          order by x.n)
        from jsonb_array_elements(d.patch->'artists') with ordinality as x(el, n)
        join artists ar on ar.id = x.el->>'artist_id' and ar.gallery_id = a.gallery_id), '[]'::json)
        else ${live} end)`;
    },
    dimensions: (view: ArtworkView) => {
      const live = sql`coalesce((select json_agg(${artworkDimensionResource.json({})} order by dm.position, dm.id)
        from artwork_dimensions dm where dm.artwork_id = a.id), '[]'::json)`;
      if (!view.draft) return live;
      return sql`(case when d.patch ? 'dimensions' then coalesce((select json_agg(json_build_object(
          'component', coalesce(x.el->>'component', 'overall'), 'label', x.el->>'label',
          'height_cm', (x.el->>'height_cm')::double precision, 'width_cm', (x.el->>'width_cm')::double precision,
          'depth_cm', (x.el->>'depth_cm')::double precision, 'position', x.n - 1, 'note', x.el->>'note')
          order by x.n)
        from jsonb_array_elements(d.patch->'dimensions') with ordinality as x(el, n)), '[]'::json)
        else ${live} end)`;
    },
    formats: (view: ArtworkView, value) => {
      const gate = view.gatePrices ? sql`not ${value("show_price_publicly")}` : sql`false`;
      return formatsJson({ draft: view.draft, gate, key: artworkViewKey(view) });
    },
  },
});

/**
 * The view Postgres keeps built (`artwork_documents`, migration 0023): the committed work, prices shown, which
 * every holder of a write scope reads. `artwork_document(id)` builds it with the builder above, rendered into the
 * function (scripts/artwork-document.ts); deferred triggers store it whenever the work, its credits (or a
 * credited artist's name), dimensions or formats change, once per commit.
 */
export const documentView: ArtworkView = { draft: false, gatePrices: false };

/**
 * The body (pg_proc.prosrc) of `artwork_document(text)`, as the migration that last defined it must hold it: the
 * builder of `documentView` over the work `$1`. scripts/artwork-document.ts prints the whole statement; the
 * documents suite (test/artworks/documents.test.ts) compares the database's with this.
 */
export function artworkDocumentSource(): string {
  const { sql: builder, params } = new PgDialect().sqlToQuery(artworkResource.json(documentView).getSQL());
  if (params.length > 0) throw new Error("the artwork builder has parameters: it cannot be a function body");
  return `\nBEGIN\n  RETURN (SELECT ${builder} FROM artworks a WHERE a.id = $1);\nEND\n`;
}

function isDocumentView(view: ArtworkView): boolean {
  return view.draft === documentView.draft && view.gatePrices === documentView.gatePrices;
}

/**
 * The JSON of the work `a` as of the last commit, for reads: the stored document, else (a work the bulk loader
 * wrote with the triggers off) built now. Identical text to the builder's: the column is json, kept as built.
 */
const storedDocument = sql`coalesce((select doc.body from artwork_documents doc where doc.artwork_id = a.id),
  artwork_document(a.id))`;

/** The work's JSON for a read: the stored document in its view, the builder in the others. */
export function artworkReadJson(view: ArtworkView): SQL {
  return artworkResource.spec.document?.(view)?.read ?? artworkResource.json(view);
}

/** A column of the artwork as seen by this view: the row's value or the draft's pending one. */
export function col(view: ArtworkView, name: string): SQL {
  return artworkResource.value(view, name);
}

export interface ArtworkState {
  body: Record<string, unknown>;
  updatedAt: string;
}

/** What a write to an artwork reads of it first: both states, the pending draft and the guard. */
export interface ArtworkWriteState {
  /** The live (published-side) work, prices ungated. */
  live: Record<string, unknown>;
  /** The working copy: the live work with the pending draft overlaid (equal to `live` without a draft). */
  working: Record<string, unknown>;
  /** The pending draft's patch, or null when the work has no draft. */
  patch: Record<string, unknown> | null;
  /** Whether the work has been published: then edits go to its draft. */
  published: boolean;
  updatedAt: string;
  /** Names of the locations involved (live, draft, and the one a request names), for timeline sentences. */
  locationNames: Record<string, string>;
}

/** The artwork as a write needs it, or null. One round trip. */
export async function findArtworkForWrite(
  db: Db,
  galleryId: string,
  id: string,
  locationId: string | null = null,
): Promise<ArtworkWriteState | null> {
  const live = { draft: false, gatePrices: false };
  const working = { draft: true, gatePrices: false };
  const result = await db.execute<{
    live: Record<string, unknown>;
    working: Record<string, unknown> | null;
    patch: Record<string, unknown> | null;
    published: boolean;
    updated_at: string;
    location_names: Record<string, string> | null;
  }>(
    // The working copy is built only where it can differ from the live work (CASE evaluates lazily).
    sql`select ${artworkResource.json(live)} as live,
        case when a.published_at is not null or d.artwork_id is not null
          then ${artworkResource.json(working)} end as working,
        d.patch, a.published_at is not null as published, ${isoMs(sql`a.updated_at`)} as updated_at,
        (select json_object_agg(l.id, l.name) from locations l where l.gallery_id = a.gallery_id
          and l.id in (a.location_id, d.patch->>'location_id', ${locationId})) as location_names
      from ${artworkResource.from(working)} where a.gallery_id = ${galleryId} and a.id = ${id}`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    live: row.live,
    working: row.working ?? row.live,
    patch: row.patch,
    published: row.published,
    updatedAt: row.updated_at,
    locationNames: row.location_names ?? {},
  };
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
      body: artworkReadJson(view),
      from: artworkResource.from(view),
      where: artworkConditions(galleryId, view, filters),
      sortKey: key.expr,
      cast: key.cast,
      id: sql`a.id`,
    },
    page,
  );
}
