import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import {
  MAX_SLUG_LENGTH,
  PublicArtwork,
  PublicViewingRoom,
  PublicViewingRoomSummary,
  ViewingRoom,
  type ViewingRoomCreateInput,
  type ViewingRoomUpdateInput,
} from "../../lib/schemas/viewing-rooms";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { viewingRooms } from "../schema";
import { type KeysetQuery, keysetPage } from "./keyset";

/** Now within [opens_at, closes_at) of the room aliased `alias`; a null bound is open-ended. */
function openNow(alias: string): SQL {
  const r = sql.raw(alias);
  return sql`((${r}.opens_at is null or ${r}.opens_at <= now()) and (${r}.closes_at is null or ${r}.closes_at > now()))`;
}

/** The room's works as the gallery manages them: artwork, position and whether the room shows its price. */
const roomArtworksJson = sql`coalesce((select json_agg(json_build_object('artwork_id', vra.artwork_id,
    'position', vra.position, 'show_price', vra.show_price) order by vra.position, vra.artwork_id)
  from viewing_room_artworks vra where vra.viewing_room_id = vr.id), '[]'::json)`;

/** The API representation of a viewing room (alias `vr`). */
export const viewingRoomResource = resource({
  schema: ViewingRoom,
  table: viewingRooms,
  alias: "vr",
  name: "viewing_room",
  computed: {
    artworks: () => roomArtworksJson,
    is_open: () => openNow("vr"),
  },
});

/** Newest first by default; `updated` orders by the last change. */
export const viewingRoomList = listSpec({ sorts: ["created", "updated"], defaultSort: "created" });
type ViewingRoomSort = (typeof viewingRoomList.sorts)[number];

const sortKeys: Record<ViewingRoomSort, Pick<KeysetQuery, "sortKey" | "cast">> = {
  created: { sortKey: sql`vr.created_at`, cast: "timestamptz" },
  updated: { sortKey: sql`vr.updated_at`, cast: "timestamptz" },
};

export interface ViewingRoomFilters {
  visibility?: string;
  is_open?: boolean;
}

/** One page (limit + 1 rows) of the gallery's viewing rooms matching the filters. One round trip. */
export function listViewingRooms(
  db: Db,
  galleryId: string,
  f: ViewingRoomFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const where = [sql`vr.gallery_id = ${galleryId}`];
  if (f.visibility !== undefined) where.push(sql`vr.visibility = ${f.visibility}`);
  if (f.is_open !== undefined) where.push(f.is_open ? openNow("vr") : sql`not ${openNow("vr")}`);
  return keysetPage(
    db,
    {
      body: viewingRoomResource.json({}),
      from: sql`viewing_rooms vr`,
      where,
      ...sortKeys[page.sort as ViewingRoomSort],
      id: sql`vr.id`,
    },
    page,
  );
}

export interface ViewingRoomState {
  body: z.infer<typeof ViewingRoom>;
  updatedAt: string;
}

/** One viewing room of the gallery, with what a guarded write needs, or null. One round trip. */
export async function findViewingRoom(
  db: Db,
  galleryId: string,
  id: string,
): Promise<ViewingRoomState | null> {
  const result = await db.execute<{ body: z.infer<typeof ViewingRoom>; updated_at: string }>(
    sql`select ${viewingRoomResource.json({})} as body, ${isoMs(sql`vr.updated_at`)} as updated_at
      from viewing_rooms vr where vr.gallery_id = ${galleryId} and vr.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/**
 * Statements that write viewing rooms. They are composed into one transaction by services/write.ts; none of them
 * runs on its own.
 */

type RoomArtworks = NonNullable<ViewingRoomCreateInput["artworks"]>;

/**
 * Every work named must be the gallery's: aborts with a 400 naming the first that is not
 * (`artworks.<n>.artwork_id`).
 */
function expectRoomArtworks(galleryId: string, items: RoomArtworks): SQL {
  return sql`select expect_valid(false, 'artworks.' || (first.n - 1) || '.artwork_id',
      'names an artwork that does not exist in this gallery')
    from (select x.n from jsonb_array_elements(${JSON.stringify(items)}::jsonb) with ordinality as x(el, n)
      where not exists (select 1 from artworks a where a.gallery_id = ${galleryId} and a.id = x.el->>'artwork_id')
      order by x.n limit 1) first`;
}

/** The room's works, positions in the order given (0, 1, …). */
function insertRoomArtworks(galleryId: string, roomId: string, items: RoomArtworks, at: string): SQL {
  return sql`insert into viewing_room_artworks (gallery_id, viewing_room_id, artwork_id, position, show_price,
      created_at)
    select ${galleryId}, ${roomId}, x.el->>'artwork_id', (x.n - 1)::int,
      coalesce((x.el->>'show_price')::boolean, false), ${at}::timestamptz
    from jsonb_array_elements(${JSON.stringify(items)}::jsonb) with ordinality as x(el, n)`;
}

/** A slug another room of the gallery holds: 409 naming that room. */
function expectSlugFree(galleryId: string, roomId: string, slug: string): SQL {
  return sql`select raise_conflict(format('The slug %s is taken by viewing room %s', other.slug, other.id),
      jsonb_build_object('field', 'slug', 'slug', other.slug, 'viewing_room_id', other.id))
    from viewing_rooms other
    where other.gallery_id = ${galleryId} and other.slug = ${slug} and other.id <> ${roomId}`;
}

/**
 * The first free slug of `base`, `base-2`, `base-3`, … in the gallery (a derived slug never collides), cut to
 * fit the length limit.
 */
function freeSlug(galleryId: string, base: string): SQL {
  return sql`(select c.slug from (
      select n, case when n = 1 then ${base}::text
        else rtrim(left(${base}::text, ${MAX_SLUG_LENGTH} - 1 - length(n::text)), '-') || '-' || n end as slug
      from generate_series(1, 10000) n) c
    where not exists (select 1 from viewing_rooms x where x.gallery_id = ${galleryId} and x.slug = c.slug)
    order by c.n limit 1)`;
}

/**
 * A new room: the slug (given: 409 when taken; derived from the title: the first free variant), the
 * publication and works checks, then the row and its works.
 */
export function createViewingRoomStatements(
  galleryId: string,
  id: string,
  input: ViewingRoomCreateInput,
  derivedSlug: string,
  at: string,
): SQL[] {
  const visibility = input.visibility ?? "private";
  const items = input.artworks ?? [];
  const slug = input.slug === undefined ? freeSlug(galleryId, derivedSlug) : sql`${input.slug}::text`;
  return [
    ...(input.slug === undefined ? [] : [expectSlugFree(galleryId, id, input.slug)]),
    ...(items.length ? [expectRoomArtworks(galleryId, items)] : []),
    sql`insert into viewing_rooms (id, gallery_id, title, slug, description, visibility, publication_id, opens_at,
        closes_at, published_at, created_at, updated_at)
      values (${id}, ${galleryId}, ${input.title}, ${slug}, ${input.description ?? null}, ${visibility},
        ${input.publication_id ?? null}, ${input.opens_at ?? null}::timestamptz, ${input.closes_at ?? null}::timestamptz,
        ${visibility === "private" ? null : at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz)`,
    ...(items.length ? [insertRoomArtworks(galleryId, id, items, at)] : []),
  ];
}

/**
 * A change to a room: the slug and works checks, the open/close order against the stored bounds (400 naming the
 * bound the request gave), the UPDATE for `guarded()`, then the works when they are replaced. `published_at`
 * is set when the room leaves `private`, cleared when it returns.
 */
export function updateViewingRoomStatements(
  galleryId: string,
  id: string,
  input: ViewingRoomUpdateInput,
  readUpdatedAt: string,
  at: string,
): { checks: SQL[]; update: SQLWrapper; works: SQL[] } {
  const checks: SQL[] = [];
  if (input.slug !== undefined) checks.push(expectSlugFree(galleryId, id, input.slug));
  if (input.artworks?.length) checks.push(expectRoomArtworks(galleryId, input.artworks));
  if (input.opens_at !== undefined || input.closes_at !== undefined) {
    const opens = input.opens_at === undefined ? sql`vr.opens_at` : sql`${input.opens_at}::timestamptz`;
    const closes = input.closes_at === undefined ? sql`vr.closes_at` : sql`${input.closes_at}::timestamptz`;
    const [field, message] =
      input.closes_at === undefined
        ? ["opens_at", "must be before closes_at"]
        : ["closes_at", "must be after opens_at"];
    checks.push(sql`select expect_valid(${opens} is null or ${closes} is null or ${closes} > ${opens},
        ${field}, ${message})
      from viewing_rooms vr where vr.gallery_id = ${galleryId} and vr.id = ${id}`);
  }
  const set: SQL[] = [sql`updated_at = ${at}::timestamptz`];
  if (input.title !== undefined) set.push(sql`title = ${input.title}`);
  if (input.slug !== undefined) set.push(sql`slug = ${input.slug}`);
  if (input.description !== undefined) set.push(sql`description = ${input.description}`);
  if (input.visibility !== undefined) {
    set.push(sql`visibility = ${input.visibility}`);
    set.push(
      input.visibility === "private"
        ? sql`published_at = null`
        : sql`published_at = case when vr.visibility = 'private' then ${at}::timestamptz else vr.published_at end`,
    );
  }
  if (input.publication_id !== undefined) set.push(sql`publication_id = ${input.publication_id}`);
  if (input.opens_at !== undefined) set.push(sql`opens_at = ${input.opens_at}::timestamptz`);
  if (input.closes_at !== undefined) set.push(sql`closes_at = ${input.closes_at}::timestamptz`);
  const update = sql`update viewing_rooms vr set ${sql.join(set, sql`, `)}
    where vr.gallery_id = ${galleryId} and vr.id = ${id} and vr.updated_at = ${readUpdatedAt}::timestamptz`;
  const works =
    input.artworks === undefined
      ? []
      : [
          sql`delete from viewing_room_artworks where viewing_room_id = ${id}`,
          ...(input.artworks.length ? [insertRoomArtworks(galleryId, id, input.artworks, at)] : []),
        ];
  return { checks, update, works };
}

// ---------------------------------------------------------------------------------------------------------
// The public (visitor) surface: rooms that are public or unlisted and open now, with visitor-safe fields only.

/** A room a visitor may read by its slug (alias `pr`): public or unlisted, and open now. */
function visitorReadable(alias: string): SQL {
  return sql`${sql.raw(alias)}.visibility in ('public', 'unlisted') and ${openNow(alias)}`;
}

/** What a visitor is told of availability: on hold is reserved; on loan is not for sale. */
const availabilitySql = sql`(case a.availability_state
    when 'available' then 'available'
    when 'on_hold' then 'reserved'
    when 'reserved' then 'reserved'
    when 'sold' then 'sold'
    else 'not_for_sale' end)`;

/** The price a visitor sees: the room shows it, the work is public-priced and priced; else null. */
const priceShown = sql`(vra.show_price and a.show_price_publicly and a.price_cents is not null)`;

const publicArtworkColumns: Record<keyof z.infer<typeof PublicArtwork>, SQL> = {
  id: sql`a.id`,
  title: sql`a.title`,
  artists: sql`coalesce((select json_agg(json_build_object('name', ar.name, 'role', aa.role)
      order by aa.position, aa.artist_id)
    from artwork_artists aa join artists ar on ar.id = aa.artist_id where aa.artwork_id = a.id), '[]'::json)`,
  year: sql`a.year`,
  date_display: sql`a.date_display`,
  medium: sql`a.medium`,
  dimensions_text: sql`a.dimensions_text`,
  image_url: sql`a.thumbnail_url`,
  images: sql`coalesce((select json_agg(json_build_object('url', im.url, 'caption', im.caption,
      'width', im.width, 'height', im.height) order by im.position, im.id)
    from artwork_images im where im.artwork_id = a.id), '[]'::json)`,
  availability: availabilitySql,
  price: sql`(case when ${priceShown}
    then json_build_object('price_cents', a.price_cents, 'currency', a.currency) end)`,
  price_on_request: sql`not ${priceShown}`,
};

const dialect = new PgDialect();

/**
 * A record's fields in the schema's order, serialised by to_json (one lookup of each type per query). Rendered to
 * SQL text once: the builders have no parameters (as db/resource.ts does for the resources it describes).
 */
function recordJson(schema: z.ZodObject, columns: Record<string, SQL>): SQL {
  const fields = Object.keys(schema.shape).map(
    (field) => sql`${columns[field]!} as ${sql.identifier(field)}`,
  );
  const built = sql`(select to_json(r) from (select ${sql.join(fields, sql`, `)}) r)`;
  const query = dialect.sqlToQuery(built);
  return query.params.length === 0 ? sql.raw(query.sql) : built;
}

/** The visitor's view of one work of the room `pr`, for a row joining `viewing_room_artworks vra` and `artworks a`. */
const publicArtworkJson = recordJson(PublicArtwork, publicArtworkColumns);

/** The room's works, joined to their artwork rows (the committed state, never a pending draft). */
const roomWorks = sql`viewing_room_artworks vra join artworks a on a.id = vra.artwork_id and a.gallery_id = pr.gallery_id
  where vra.viewing_room_id = pr.id`;

const publicSummaryColumns: Record<keyof z.infer<typeof PublicViewingRoomSummary>, SQL> = {
  slug: sql`pr.slug`,
  title: sql`pr.title`,
  description: sql`pr.description`,
  opens_at: isoMs(sql`pr.opens_at`),
  closes_at: isoMs(sql`pr.closes_at`),
  artwork_count: sql`(select count(*)::int from ${roomWorks})`,
  cover_image_url: sql`(select a.thumbnail_url from ${roomWorks} and a.thumbnail_url is not null
    order by vra.position, vra.artwork_id limit 1)`,
};

const publicSummaryJson = recordJson(PublicViewingRoomSummary, publicSummaryColumns);

const publicRoomJson = recordJson(PublicViewingRoom, {
  ...publicSummaryColumns,
  artworks: sql`coalesce((select json_agg(${publicArtworkJson} order by vra.position, vra.artwork_id)
    from ${roomWorks}), '[]'::json)`,
});

/** The public room list: public rooms open now, newest first. */
export const publicRoomList = listSpec({ sorts: ["created"], defaultSort: "created" });

/** One page (limit + 1 rows) of the gallery's public rooms that are open now. One round trip. */
export function listPublicRooms(db: Db, galleryId: string, page: PageRequest): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: publicSummaryJson,
      from: sql`viewing_rooms pr`,
      where: [sql`pr.gallery_id = ${galleryId}`, sql`pr.visibility = 'public'`, openNow("pr")],
      sortKey: sql`pr.created_at`,
      cast: "timestamptz",
      id: sql`pr.id`,
    },
    page,
  );
}

/** A public or unlisted room that is open now, as a visitor sees it (JSON text), or null. One round trip. */
export async function findPublicRoomText(db: Db, galleryId: string, slug: string): Promise<string | null> {
  const result = await db.execute<{ body: string }>(
    sql`select ${publicRoomJson}::text as body from viewing_rooms pr
      where pr.gallery_id = ${galleryId} and pr.slug = ${slug} and ${visitorReadable("pr")}`,
  );
  return result.rows[0]?.body ?? null;
}

/** What a visitor's engagement needs: the room (readable now), whether the work is in it, the contact. */
export interface EngagementTarget {
  roomId: string;
  /** The work is one of the room's (true when no work is named). */
  artworkInRoom: boolean;
  /** The unarchived contact of the gallery with this email, or null (also when no email is given). */
  contactId: string | null;
}

/**
 * The room a visitor may read by this slug, whether `artworkId` is one of its works, and the gallery's
 * unarchived contact with `email` (normalised), or null when the room is not readable. One round trip.
 */
export async function findEngagementTarget(
  db: Db,
  galleryId: string,
  slug: string,
  artworkId: string | null,
  email: string | null,
): Promise<EngagementTarget | null> {
  const result = await db.execute<{ room_id: string; artwork_in_room: boolean; contact_id: string | null }>(
    sql`select pr.id as room_id,
        (${artworkId}::text is null or exists (select 1 from viewing_room_artworks vra
          where vra.viewing_room_id = pr.id and vra.artwork_id = ${artworkId})) as artwork_in_room,
        (select c.id from contacts c where c.gallery_id = pr.gallery_id and c.email = ${email}
          and c.archived_at is null order by c.id limit 1) as contact_id
      from viewing_rooms pr
      where pr.gallery_id = ${galleryId} and pr.slug = ${slug} and ${visitorReadable("pr")}`,
  );
  const row = result.rows[0];
  return row ? { roomId: row.room_id, artworkInRoom: row.artwork_in_room, contactId: row.contact_id } : null;
}

/** Inside the engagement's transaction: the work is still one of the room's (400 naming artwork_id). */
export function expectArtworkInRoom(roomId: string, artworkId: string): SQL {
  return sql`select expect_valid(exists (select 1 from viewing_room_artworks vra
      where vra.viewing_room_id = ${roomId} and vra.artwork_id = ${artworkId}),
    'artwork_id', 'is not one of this room''s works')`;
}
