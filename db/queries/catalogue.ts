import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { Artist, CustomStatus, Location, Tag } from "../../lib/schemas/catalogue";
import type { Db } from "../client";
import { isoMs, type JsonView, type Resource, type RowValues, resource } from "../resource";
import { artists, customStatuses, locations, tags } from "../schema";
import { type KeysetQuery, keysetPage } from "./keyset";
import { asRead } from "./rows";

/**
 * The catalogue's reference data (artists, tags, custom statuses, locations): four small resources with the
 * same life cycle, so one set of queries serves them all. Each statement here is composed into one transaction
 * by services/write.ts; none runs on its own.
 */

export const artistResource = resource({ schema: Artist, table: artists, alias: "ar" });
export const tagResource = resource({ schema: Tag, table: tags, alias: "tg" });
export const customStatusResource = resource({ schema: CustomStatus, table: customStatuses, alias: "cs" });
export const locationResource = resource({ schema: Location, table: locations, alias: "lo" });

export type CatalogueTable = typeof artists | typeof tags | typeof customStatuses | typeof locations;
export type CatalogueResource<T extends CatalogueTable> = Resource<z.ZodObject, T, JsonView>;

/** A column of the resource's aliased row. */
function column(r: { spec: { alias: string } }, name: string): SQL {
  return sql`${sql.raw(r.spec.alias)}.${sql.identifier(name)}`;
}

export interface CatalogueRow {
  body: Record<string, unknown>;
  updatedAt: string;
}

/** One row of the gallery as its JSON, with the updated_at that guards a write to it; null when absent. */
export async function findCatalogueRow<T extends CatalogueTable>(
  db: Db,
  r: CatalogueResource<T>,
  galleryId: string,
  id: string,
): Promise<CatalogueRow | null> {
  const result = await db.execute<{ body: Record<string, unknown>; updated_at: string }>(
    sql`select ${r.json({})} as body, ${isoMs(column(r, "updated_at"))} as updated_at
      from ${r.from({})} where ${column(r, "gallery_id")} = ${galleryId} and ${column(r, "id")} = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/** Artists, tags and locations: newest first by default, or by name. */
export const byCreatedOrName = listSpec({ sorts: ["created", "name"], defaultSort: "created" });
/** Custom statuses also sort by their `position`, the order a picker shows them in. */
export const customStatusList = listSpec({ sorts: ["created", "name", "position"], defaultSort: "created" });

/** Every sort a catalogue list offers, each backed by a (gallery_id, column, id) index. */
type CatalogueSort = (typeof customStatusList.sorts)[number];

const sortColumns: Record<CatalogueSort, { name: string; cast: KeysetQuery["cast"] }> = {
  created: { name: "created_at", cast: "timestamptz" },
  name: { name: "name", cast: "text" },
  position: { name: "position", cast: "integer" },
};

/** One page (limit + 1 rows) of the gallery's rows matching `where` (conditions on the aliased row). */
export function listCatalogueRows<T extends CatalogueTable>(
  db: Db,
  r: CatalogueResource<T>,
  galleryId: string,
  where: SQL[],
  page: PageRequest,
): Promise<PageRow[]> {
  const sort = sortColumns[page.sort as CatalogueSort];
  return keysetPage(
    db,
    {
      body: r.json({}),
      from: r.from({}),
      where: [sql`${column(r, "gallery_id")} = ${galleryId}`, ...where],
      sortKey: column(r, sort.name),
      cast: sort.cast,
      id: column(r, "id"),
    },
    page,
  );
}

/** Artists whose name contains `q`, ignoring case. */
export function artistNameContains(q: string): SQL {
  return sql`strpos(lower(ar.name), lower(${q})) > 0`;
}

/** Tags of one scope. */
export function tagScopeIs(scope: string): SQL {
  return sql`tg.scope = ${scope}`;
}

export function insertArtist(db: Db, values: RowValues<typeof artists>): SQLWrapper {
  return db.insert(artists).values(artistResource.row(values));
}

export function insertTag(db: Db, values: RowValues<typeof tags>): SQLWrapper {
  return db.insert(tags).values(tagResource.row(values));
}

export function insertLocation(db: Db, values: RowValues<typeof locations>): SQLWrapper {
  return db.insert(locations).values(locationResource.row(values));
}

/** A new custom status, placed after the gallery's last one unless `position` is given. */
export function insertCustomStatus(
  db: Db,
  values: RowValues<typeof customStatuses> & { gallery_id: string },
): SQLWrapper {
  // Capped at the largest position a caller may set, so the status stays writable as it was made.
  const last = sql`(select least(coalesce(max(position) + 1, 0), 1000000) from custom_statuses
    where gallery_id = ${values.gallery_id})`;
  return db
    .insert(customStatuses)
    .values({ ...customStatusResource.row(values), position: values.position ?? last });
}

/** The UPDATE for `guarded()`: matches only the row as it was read. */
export function updateCatalogueRow<T extends CatalogueTable>(
  db: Db,
  r: CatalogueResource<T>,
  galleryId: string,
  id: string,
  values: RowValues<T>,
  readUpdatedAt: string,
): SQLWrapper {
  const table: CatalogueTable = r.spec.table;
  return db
    .update(table)
    .set(r.row(values))
    .where(asRead(table, galleryId, id, readUpdatedAt));
}

/**
 * Aborts the transaction with 409 `conflict` when `count` (SQL yielding a number) is above zero. `message` is a
 * format() template whose one `%s` is the count; `details` is `{ [countField]: count }`.
 */
function refuseWhileCounted(count: SQL, message: string, countField: string): SQL {
  return sql`select raise_conflict(format(${message}, c.n), jsonb_build_object(${countField}::text, c.n))
    from (select (${count}) as n) c where c.n > 0`;
}

/** Works that credit the artist, as published or in a pending draft (which publishing would credit). */
export function refuseWhileArtistCredited(galleryId: string, id: string): SQL {
  const credited = sql`select count(*) from (
      select aa.artwork_id from artwork_artists aa where aa.gallery_id = ${galleryId} and aa.artist_id = ${id}
      union
      select d.artwork_id from artwork_drafts d where d.gallery_id = ${galleryId}
        and d.patch -> 'artists' @> jsonb_build_array(jsonb_build_object('artist_id', ${id}::text))
    ) w`;
  return refuseWhileCounted(
    credited,
    `Artist ${id} is credited on %s artwork(s); remove those credits before deleting the artist`,
    "artwork_count",
  );
}

/**
 * Works whose `field` (location_id, custom_status_id: plain columns, no foreign key) names the row, as
 * published or in a pending draft.
 */
export function refuseWhileArtworksPoint(
  galleryId: string,
  field: "location_id" | "custom_status_id",
  id: string,
  what: string,
): SQL {
  const column = sql.identifier(field);
  const pointing = sql`select count(*) from (
      select a.id from artworks a where a.gallery_id = ${galleryId} and a.${column} = ${id}
      union
      select d.artwork_id from artwork_drafts d where d.gallery_id = ${galleryId} and d.patch ->> ${field}::text = ${id}
    ) w`;
  return refuseWhileCounted(
    pointing,
    `${what} ${id} is the ${field} of %s artwork(s); move those works elsewhere before deleting it`,
    "artwork_count",
  );
}

/**
 * Aborts with 409 `conflict` naming the existing tag when another tag of the scope has this name, ignoring
 * case (`tags_gallery_scope_name_key` also holds, for two such writes racing).
 */
export function refuseDuplicateTag(galleryId: string, scope: string, name: string, exceptId: string): SQL {
  return sql`select raise_conflict(format('A %s tag named “%s” already exists: %s', t.scope, t.name, t.id),
      jsonb_build_object('existing_id', t.id))
    from tags t where t.gallery_id = ${galleryId} and t.scope = ${scope} and lower(t.name) = lower(${name})
      and t.id <> ${exceptId}`;
}

/** Keeps the artist's name denormalised onto the works whose primary artist they are. */
export function renameArtistOnArtworks(galleryId: string, id: string, name: string): SQL {
  return sql`update artworks set artist_name = ${name} where gallery_id = ${galleryId} and artist_id = ${id}`;
}
