import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { anyMap, cents, createdAt, galleryId, stringMap, ts, updatedAt } from "./columns";
import { galleries, members } from "./galleries";

export const artists = pgTable(
  "artists",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    birthYear: integer("birth_year"),
    deathYear: integer("death_year"),
    nationality: text("nationality"),
    bio: text("bio"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("artists_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("artists_gallery_name_idx").on(t.galleryId, t.name, t.id),
  ],
);

export const locations = pgTable(
  "locations",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind").notNull().default("storage"),
    address: text("address"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("locations_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("locations_gallery_name_idx").on(t.galleryId, t.name, t.id),
  ],
);

/** Gallery-defined workflow labels an artwork can carry beside its availability. */
export const customStatuses = pgTable(
  "custom_statuses",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull().default("slate"),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("custom_statuses_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("custom_statuses_gallery_name_idx").on(t.galleryId, t.name, t.id),
    index("custom_statuses_gallery_position_idx").on(t.galleryId, t.position, t.id),
  ],
);

export const tags = pgTable(
  "tags",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Which resource family the tag is used on: artwork, contact, show. */
    scope: text("scope").notNull().default("artwork"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("tags_gallery_scope_name_key").on(t.galleryId, t.scope, sql`lower(${t.name})`),
    index("tags_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("tags_gallery_name_idx").on(t.galleryId, t.name, t.id),
  ],
);

/**
 * The artwork as the API serves it by default: its committed (published-side) state. Pending editor edits live
 * in `artwork_drafts` and are overlaid only when a caller asks for the working copy.
 */
export const artworks = pgTable(
  "artworks",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** Primary artist, denormalised from artwork_artists so lists, search and sorting need no join. */
    artistId: text("artist_id"),
    artistName: text("artist_name"),
    inventoryNumber: text("inventory_number"),
    ownershipStatus: text("ownership_status").notNull().default("owned"),
    availabilityState: text("availability_state").notNull().default("available"),
    medium: text("medium"),
    year: integer("year"),
    endYear: integer("end_year"),
    datePrecision: text("date_precision").notNull().default("year"),
    dateDisplay: text("date_display"),
    description: text("description"),
    dimensionUnit: text("dimension_unit").notNull().default("in"),
    heightCm: doublePrecision("height_cm"),
    widthCm: doublePrecision("width_cm"),
    depthCm: doublePrecision("depth_cm"),
    framedHeightCm: doublePrecision("framed_height_cm"),
    framedWidthCm: doublePrecision("framed_width_cm"),
    framedDepthCm: doublePrecision("framed_depth_cm"),
    dimensionsText: text("dimensions_text"),
    locationId: text("location_id"),
    priceCents: cents("price_cents"),
    currency: text("currency").notNull().default("USD"),
    isEdition: boolean("is_edition").notNull().default(false),
    editionNumber: integer("edition_number"),
    editionSize: integer("edition_size"),
    editionType: text("edition_type"),
    editionOverrides: text("edition_overrides").array().notNull().default(sql`'{}'::text[]`),
    parentArtworkId: text("parent_artwork_id"),
    coaStatus: text("coa_status").notNull().default("not_required"),
    coaTrackingNumber: text("coa_tracking_number"),
    conditionStatus: text("condition_status"),
    conditionNotes: text("condition_notes"),
    provenance: text("provenance"),
    exhibitionHistory: text("exhibition_history"),
    literature: text("literature"),
    catalogueRaisonne: text("catalogue_raisonne"),
    market: text("market").notNull().default("primary"),
    customStatusId: text("custom_status_id"),
    showPricePublicly: boolean("show_price_publicly").notNull().default(false),
    publishedAt: ts("published_at"),
    publishedVersion: integer("published_version"),
    saveState: text("save_state").notNull().default("new"),
    sourceSystem: text("source_system"),
    sourceExternalId: text("source_external_id"),
    metadata: stringMap("metadata"),
    /** Judged by the readiness engine: ready | thin | empty; null until judged. */
    readiness: text("readiness"),
    /** Judged by the disclosure engine from condition notes; null until judged. */
    disclosureRequired: boolean("disclosure_required"),
    judgedAt: ts("judged_at"),
    /**
     * The work's medium family as the matcher reads it (lib/engine/matcher.ts mediumWords, first family), kept by
     * the engine when it judges the work: the key of the matcher's candidate lookup by medium and price.
     */
    matchMedium: text("match_medium"),
    /** Number of images, kept by the writes that add or remove one, so `has_image` needs no join. */
    imageCount: integer("image_count").notNull().default(0),
    /** First image's URL, kept with image_count. */
    thumbnailUrl: text("thumbnail_url"),
    /** Lower-cased text for `q`, maintained by Postgres from the row itself. */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`lower(coalesce(title, '') || ' ' || coalesce(artist_name, '') || ' ' || coalesce(medium, '') || ' ' || coalesce(inventory_number, '') || ' ' || coalesce(date_display, ''))`,
      ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("artworks_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("artworks_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    // Unpriced and undated works sort below every priced/dated one: the same expressions are used by the
    // keyset pagination so the index serves both directions.
    index("artworks_gallery_price_idx").on(t.galleryId, sql`coalesce(${t.priceCents}, -1)`, t.id),
    index("artworks_gallery_year_idx").on(t.galleryId, sql`coalesce(${t.year}, -2147483648)`, t.id),
    index("artworks_gallery_artist_idx").on(t.galleryId, t.artistId, t.createdAt, t.id),
    index("artworks_gallery_availability_idx").on(t.galleryId, t.availabilityState, t.createdAt, t.id),
    index("artworks_gallery_medium_idx").on(t.galleryId, sql`lower(${t.medium})`),
    // The matcher's candidates: available, published works of a medium family within a price range.
    index("artworks_match_medium_idx")
      .on(t.galleryId, t.matchMedium, t.priceCents, t.id)
      .where(sql`${t.availabilityState} = 'available' and ${t.publishedAt} is not null`),
    // The matcher's contacts for a work, in reverse: who bought or asked about works of its medium family.
    index("artworks_gallery_match_medium_idx").on(t.galleryId, t.matchMedium, t.id),
    index("artworks_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    index("artworks_gallery_parent_idx")
      .on(t.galleryId, t.parentArtworkId)
      .where(sql`${t.parentArtworkId} is not null`),
    uniqueIndex("artworks_gallery_source_key")
      .on(t.galleryId, t.sourceSystem, t.sourceExternalId)
      .where(sql`${t.sourceSystem} is not null and ${t.sourceExternalId} is not null`),
  ],
);

export const artworkArtists = pgTable(
  "artwork_artists",
  {
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    artistId: text("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "restrict" }),
    role: text("role").notNull().default("primary"),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.artworkId, t.artistId, t.role] }),
    index("artwork_artists_artist_idx").on(t.galleryId, t.artistId),
  ],
);

export const artworkDimensions = pgTable(
  "artwork_dimensions",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    component: text("component").notNull().default("overall"),
    label: text("label"),
    heightCm: doublePrecision("height_cm"),
    widthCm: doublePrecision("width_cm"),
    depthCm: doublePrecision("depth_cm"),
    position: integer("position").notNull().default(0),
    note: text("note"),
  },
  (t) => [index("artwork_dimensions_artwork_idx").on(t.artworkId, t.position)],
);

/** Sellable variants (sizes, papers, framings); price is membership-gated when served. */
export const artworkFormats = pgTable(
  "artwork_formats",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    heightCm: doublePrecision("height_cm"),
    widthCm: doublePrecision("width_cm"),
    depthCm: doublePrecision("depth_cm"),
    dimensionUnit: text("dimension_unit").notNull().default("in"),
    medium: text("medium"),
    editionSize: integer("edition_size"),
    stockQuantity: integer("stock_quantity").notNull().default(0),
    availabilityState: text("availability_state").notNull().default("available"),
    priceCents: cents("price_cents"),
    currency: text("currency").notNull().default("USD"),
    position: integer("position").notNull().default(0),
    metadata: stringMap("metadata"),
    /**
     * A published work's formats change through its draft: `pending` holds field values not yet published,
     * `pending_action` marks a format added (`create`) or removed (`delete`) in the draft. Publishing applies
     * them; discarding drops them. Both are null on a format that has no pending change.
     */
    pending: jsonb("pending").$type<Record<string, unknown>>(),
    pendingAction: text("pending_action"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("artwork_formats_artwork_idx").on(t.artworkId, t.position, t.id)],
);

export const artworkImages = pgTable(
  "artwork_images",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    storagePath: text("storage_path").notNull(),
    url: text("url").notNull(),
    caption: text("caption"),
    width: integer("width"),
    height: integer("height"),
    contentType: text("content_type"),
    sizeBytes: integer("size_bytes"),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("artwork_images_artwork_idx").on(t.artworkId, t.position, t.id)],
);

export const artworkTags = pgTable(
  "artwork_tags",
  {
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.artworkId, t.tagId] }),
    index("artwork_tags_tag_idx").on(t.galleryId, t.tagId, t.artworkId),
  ],
);

/** The editor's pending edits: a patch of Artwork fields overlaid on the committed row for `draft=true`. */
export const artworkDrafts = pgTable("artwork_drafts", {
  artworkId: text("artwork_id")
    .primaryKey()
    .references(() => artworks.id, { onDelete: "cascade" }),
  galleryId: galleryId(),
  patch: anyMap("patch"),
  editedBy: text("edited_by").references(() => members.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The artwork as the API shows it to a holder of a write scope (committed state, prices shown), built once when
 * the work or anything it shows changes rather than on every read: the lists and the single read send `body` as
 * is. Kept by Postgres (migration 0023: deferred triggers run `artwork_document()`, the resource description's
 * own builder, at commit); a work without a row here is built on read. `refreshed_xact`/`refreshed_at` name the
 * transaction and statement that last built it, so a commit that changed the work several times builds it once.
 */
export const artworkDocuments = pgTable("artwork_documents", {
  artworkId: text("artwork_id")
    .primaryKey()
    .references(() => artworks.id, { onDelete: "cascade" }),
  body: json("body").notNull(),
  refreshedXact: bigint("refreshed_xact", { mode: "number" }).notNull(),
  // Microseconds, as statement_timestamp() gives them: two statements of one transaction never share one.
  refreshedAt: timestamp("refreshed_at", { withTimezone: true, mode: "string" }).notNull(),
});

/** Immutable snapshots taken at each publish; `published_version` on the artwork names the latest. */
export const artworkVersions = pgTable(
  "artwork_versions",
  {
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    snapshot: jsonb("snapshot").$type<Record<string, unknown>>().notNull(),
    publishedBy: text("published_by"),
    publishedAt: ts("published_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.artworkId, t.version] })],
);

export const auctionRecords = pgTable(
  "auction_records",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    auctionHouse: text("auction_house").notNull(),
    lotNumber: text("lot_number"),
    notes: text("notes"),
    saleDate: date("sale_date", { mode: "string" }).notNull(),
    hammerPriceCents: cents("hammer_price_cents"),
    /** The hammer price's currency: null when neither is known. */
    currency: text("currency"),
    result: text("result").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // artwork_id leads: the cascade of an artwork's delete finds its rows by artwork_id alone.
    index("auction_records_artwork_idx").on(t.artworkId, t.createdAt, t.id),
    index("auction_records_artwork_sale_idx").on(t.artworkId, t.saleDate, t.id),
  ],
);

/** The artwork's activity timeline; ids are UUIDs as the spec requires. */
export const artworkActivityEvents = pgTable(
  "artwork_activity_events",
  {
    id: uuid("id").primaryKey(),
    galleryId: galleryId(),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    actorId: text("actor_id"),
    contactId: text("contact_id"),
    refId: text("ref_id"),
    refTable: text("ref_table"),
    eventType: text("event_type").notNull(),
    summary: text("summary").notNull(),
    metadata: anyMap("metadata"),
    occurredAt: ts("occurred_at").notNull(),
    createdAt: createdAt(),
  },
  // artwork_id leads: the timeline reads one work's entries, and an artwork's delete cascades by artwork_id alone.
  (t) => [index("artwork_activity_artwork_idx").on(t.artworkId, t.occurredAt, t.id)],
);

export type ArtworkRow = typeof artworks.$inferSelect;
