import { and, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { formatWritableFields } from "../../lib/schemas/artwork-formats";
import { ArtworkFormat } from "../../lib/schemas/artworks";
import type { Db } from "../client";
import { isoMs, type JsonView, patchOverlay, type RowValues, resource } from "../resource";
import { artworkFormats } from "../schema";

/**
 * An artwork's formats (sellable variants). A published work's formats change through its draft: a format row
 * carries its pending field values in `pending` and a pending creation or removal in `pending_action`. The live
 * view shows the columns and hides formats created in the draft; the draft view (the working copy) overlays
 * `pending` and hides formats removed in the draft. An unpublished work's formats are written directly.
 */

export interface FormatView extends JsonView {
  /** The working copy: pending values overlaid, formats removed in the draft hidden. */
  draft: boolean;
  /** True where the format's price must not be shown (SQL over the row's artwork `a`, or `false`). */
  gate: SQL;
  /** Names the gate: views whose gate SQL differs must differ in key. */
  key: string;
}

const pendingFields: ReadonlySet<string> = new Set(formatWritableFields);

/** Under the draft view, a field the draft may change reads the format's pending value first. */
function pendingOverlay(view: FormatView, field: string, columnSql: SQL): SQL {
  if (!view.draft || !pendingFields.has(field)) return columnSql;
  return patchOverlay(sql`f.pending`, field, artworkFormatResource.sqlType(field), columnSql);
}

export const artworkFormatResource = resource({
  schema: ArtworkFormat,
  table: artworkFormats,
  alias: "f",
  name: "artwork_format",
  // An event carries the format alone, without its work's show_price_publicly: a read-only caller never sees
  // the price in a format event (docs/decisions.md, "Formats").
  gated: { paths: ["price_cents"] },
  viewKey: (view: FormatView) => `${view.draft ? "draft" : "live"}:${view.key}`,
  column: pendingOverlay,
  computed: {
    price_cents: (view: FormatView, value) =>
      sql`case when ${view.gate} then null else ${value("price_cents")} end`,
  },
});

/** Which formats a view shows: the live view hides those created in the draft, the working copy those removed. */
function shown(view: { draft: boolean }, alias: string): SQL {
  return sql.raw(`${alias}.pending_action is distinct from '${view.draft ? "delete" : "create"}'`);
}

/** The formats of the artwork `a` as a JSON array, ordered by position then id. */
export function formatsJson(view: FormatView): SQL {
  const position = artworkFormatResource.value(view, "position");
  return sql`coalesce((select json_agg(${artworkFormatResource.json(view)} order by ${position}, f.id)
    from artwork_formats f where f.artwork_id = a.id and ${shown(view, "f")}), '[]'::json)`;
}

/** A format as writes answer it and events record it: the working copy, prices shown. */
const working: FormatView = { draft: true, gate: sql`false`, key: "open" };

/** One format's JSON (the working copy, ungated), for write responses and event objects. */
export function formatJsonById(galleryId: string, formatId: string): SQL {
  return artworkFormatResource.jsonById(galleryId, formatId, working);
}

/**
 * The work's formats as the list answers them (`{data, next_cursor: null}`), or null when the work is not in the
 * gallery. A read-only caller sees prices only on a public-priced work (the draft's setting, in the draft view).
 */
export async function formatsListText(
  db: Db,
  galleryId: string,
  artworkId: string,
  opts: { draft: boolean; gatePrices: boolean },
): Promise<string | null> {
  const column = sql`a.show_price_publicly`;
  const publicPriced = opts.draft
    ? patchOverlay(sql`d.patch`, "show_price_publicly", "boolean", column)
    : column;
  const view: FormatView = {
    draft: opts.draft,
    gate: opts.gatePrices ? sql`not ${publicPriced}` : sql`false`,
    key: opts.gatePrices ? "list:gated" : "open",
  };
  const from = opts.draft
    ? sql`artworks a left join artwork_drafts d on d.artwork_id = a.id`
    : sql`artworks a`;
  const result = await db.execute<{ body: string }>(
    sql`select json_build_object('data', ${formatsJson(view)}, 'next_cursor', null)::text as body
      from ${from} where a.gallery_id = ${galleryId} and a.id = ${artworkId}`,
  );
  return result.rows[0]?.body ?? null;
}

/** What a format write reads first: the work, and the format as the working copy holds it. */
export interface FormatTarget {
  /** Published: the write goes to the work's draft. */
  published: boolean;
  /** The work's raw updated_at: every format write is guarded by it (see `touchArtwork`). */
  artworkUpdatedAt: string;
  /** The later of the work's and the format's updated_at: a write's timestamp comes after both. */
  updatedAt: string;
  /** Formats in the working copy. */
  count: number;
  /** The format (working copy, ungated), when one was asked for and the working copy has it. */
  format: { body: Record<string, unknown>; pendingAction: string | null } | null;
}

/** The work and, when `formatId` is given, that format of it; null when the work is not in the gallery. */
export async function findFormatTarget(
  db: Db,
  galleryId: string,
  artworkId: string,
  formatId: string | null,
): Promise<FormatTarget | null> {
  const result = await db.execute<{
    published: boolean;
    artwork_updated_at: string;
    updated_at: string;
    count: number;
    format: Record<string, unknown> | null;
    pending_action: string | null;
  }>(
    sql`select a.published_at is not null as published, ${isoMs(sql`a.updated_at`)} as artwork_updated_at,
        ${isoMs(sql`greatest(a.updated_at, f.updated_at)`)} as updated_at,
        (select count(*)::int from artwork_formats c where c.artwork_id = a.id and ${shown(working, "c")}) as count,
        case when f.id is null then null else ${artworkFormatResource.json(working)} end as format,
        f.pending_action
      from artworks a left join artwork_formats f
        on f.artwork_id = a.id and f.gallery_id = a.gallery_id and f.id = ${formatId} and ${shown(working, "f")}
      where a.gallery_id = ${galleryId} and a.id = ${artworkId}`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    published: row.published,
    artworkUpdatedAt: row.artwork_updated_at,
    updatedAt: row.updated_at,
    count: row.count,
    format: row.format ? { body: row.format, pendingAction: row.pending_action } : null,
  };
}

/**
 * Every format write touches its work (updated_at): guarded by the value read, it refuses a write whose work or
 * formats changed since (409), and its row lock orders concurrent format writes on one work, so positions are
 * renumbered from a settled state.
 */
export function touchArtwork(galleryId: string, artworkId: string, readUpdatedAt: string, at: string): SQL {
  return sql`update artworks set updated_at = ${at}
    where gallery_id = ${galleryId} and id = ${artworkId} and updated_at = ${readUpdatedAt}`;
}

export function insertFormat(db: Db, values: RowValues<typeof artworkFormats>): SQLWrapper {
  return db.insert(artworkFormats).values(artworkFormatResource.row(values));
}

/** An unpublished work's format: the changed fields written to the row. */
export function updateFormatColumns(
  db: Db,
  galleryId: string,
  formatId: string,
  changes: RowValues<typeof artworkFormats>,
  at: string,
): SQLWrapper {
  return db
    .update(artworkFormats)
    .set(artworkFormatResource.row({ ...changes, updated_at: at }))
    .where(and(eq(artworkFormats.galleryId, galleryId), eq(artworkFormats.id, formatId)));
}

/** A published work's format: the changed fields merged into its pending values; the row itself stays live. */
export function stageFormatChanges(
  galleryId: string,
  formatId: string,
  changes: Record<string, unknown>,
): SQL {
  return sql`update artwork_formats set pending = coalesce(pending, '{}'::jsonb) || ${JSON.stringify(changes)}::jsonb
    where gallery_id = ${galleryId} and id = ${formatId}`;
}

export function deleteFormatRow(galleryId: string, formatId: string): SQL {
  return sql`delete from artwork_formats where gallery_id = ${galleryId} and id = ${formatId}`;
}

/** A published work's format removed in the draft: still live until the draft is published. */
export function stageFormatDelete(galleryId: string, formatId: string): SQL {
  return sql`update artwork_formats set pending_action = 'delete' where gallery_id = ${galleryId} and id = ${formatId}`;
}

/** A format's position in the working copy, for the row under `alias`. */
function workingPosition(alias: string): SQL {
  return patchOverlay(sql.raw(`${alias}.pending`), "position", "integer", sql.raw(`${alias}.position`));
}

/** The format just placed: its target position, and whether it moved towards the front (or was added). */
export interface PlacedFormat {
  id: string;
  position: number;
  towardsFront: boolean;
}

/**
 * Renumbers the working copy's formats 0..n-1 in their order, with `placed` (if any) at its target position:
 * before the format that held it when it moved towards the front or was added, after it when it moved back.
 * An unpublished work's rows are written (updated_at moves on each row whose position changes); a published
 * work's changes are staged in `pending`.
 */
export function renumberFormats(
  galleryId: string,
  artworkId: string,
  staged: boolean,
  at: string,
  placed: PlacedFormat | null,
): SQL {
  const current = sql`${workingPosition("f")}::bigint * 2`;
  const key = placed
    ? sql`case when f.id = ${placed.id} then ${placed.position * 2 + (placed.towardsFront ? -1 : 1)}::bigint else ${current} end`
    : current;
  const set = staged
    ? sql`pending = coalesce(t.pending, '{}'::jsonb) || jsonb_build_object('position', o.pos)`
    : sql`position = o.pos, updated_at = ${at}`;
  return sql`with ordered as (
      select f.id, (row_number() over (order by ${key}, f.id) - 1)::int as pos
      from artwork_formats f
      where f.gallery_id = ${galleryId} and f.artwork_id = ${artworkId} and ${shown(working, "f")}
    )
    update artwork_formats t set ${set} from ordered o
    where t.id = o.id and ${workingPosition("t")} is distinct from o.pos`;
}

/**
 * Publishing a work's draft, for its formats: formats removed in the draft are deleted, pending values become
 * the columns, and no format is pending any more. Part of the publish batch.
 */
export function publishFormatStatements(galleryId: string, artworkId: string, at: string): SQL[] {
  const applied = formatWritableFields.map(
    (field) =>
      sql`${sql.identifier(field)} = ${patchOverlay(sql`f.pending`, field, artworkFormatResource.sqlType(field), sql`f.${sql.identifier(field)}`)}`,
  );
  return [
    sql`delete from artwork_formats
      where gallery_id = ${galleryId} and artwork_id = ${artworkId} and pending_action = 'delete'`,
    sql`update artwork_formats f set ${sql.join(applied, sql`, `)}, pending = null, pending_action = null,
        updated_at = ${at}
      where f.gallery_id = ${galleryId} and f.artwork_id = ${artworkId}
        and (f.pending is not null or f.pending_action is not null)`,
  ];
}

/**
 * Discarding a work's draft, for its formats: formats created in the draft are deleted, and every other format's
 * pending values and removal are dropped. Part of the discard batch.
 */
export function discardFormatStatements(galleryId: string, artworkId: string): SQL[] {
  return [
    sql`delete from artwork_formats
      where gallery_id = ${galleryId} and artwork_id = ${artworkId} and pending_action = 'create'`,
    sql`update artwork_formats set pending = null, pending_action = null
      where gallery_id = ${galleryId} and artwork_id = ${artworkId}
        and (pending is not null or pending_action is not null)`,
  ];
}
