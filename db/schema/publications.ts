import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { artworks } from "./artworks";
import { cents, createdAt, galleryId, ts, updatedAt } from "./columns";
import { galleries, members } from "./galleries";

/** Catalogues, articles, press releases. Creating with `published: true` sets published_at. */
export const publications = pgTable(
  "publications",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    kind: text("kind").notNull().default("catalogue"),
    body: text("body"),
    /** Gallery-scoped object key in R2, set after a signed upload. */
    coverImagePath: text("cover_image_path"),
    /** Where the cover is served (`<base>/v1/assets/<cover_image_path>`), stored when the cover is set. */
    coverImageUrl: text("cover_image_url"),
    published: boolean("published").notNull().default(false),
    publishedAt: ts("published_at"),
    /** public | unlisted | private */
    visibility: text("visibility").notNull().default("private"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("publications_gallery_slug_key").on(t.galleryId, t.slug),
    index("publications_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("publications_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    index("publications_gallery_published_idx")
      .on(t.galleryId, t.publishedAt, t.id)
      .where(sql`${t.published}`),
  ],
);

/**
 * The gated pricing sibling of a publication: kept apart so that reads which may not see prices never select
 * it. Written when a publication is created or updated with a price.
 */
export const publicationPricing = pgTable("publication_pricing", {
  publicationId: text("publication_id")
    .primaryKey()
    .references(() => publications.id, { onDelete: "cascade" }),
  galleryId: galleryId(),
  priceCents: cents("price_cents").notNull(),
  currency: text("currency").notNull().default("USD"),
  /** public | members | private */
  priceVisibility: text("price_visibility").notNull().default("private"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const publicationArtworks = pgTable(
  "publication_artworks",
  {
    galleryId: galleryId(),
    publicationId: text("publication_id")
      .notNull()
      .references(() => publications.id, { onDelete: "cascade" }),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.publicationId, t.artworkId] }),
    index("publication_artworks_position_idx").on(t.publicationId, t.position, t.artworkId),
    index("publication_artworks_artwork_idx").on(t.galleryId, t.artworkId),
  ],
);

/** Online viewing rooms. Only `public` rooms are served on the publishable-token surface. */
export const viewingRooms = pgTable(
  "viewing_rooms",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    description: text("description"),
    /** public | unlisted | private */
    visibility: text("visibility").notNull().default("private"),
    publicationId: text("publication_id").references(() => publications.id, { onDelete: "set null" }),
    opensAt: ts("opens_at"),
    closesAt: ts("closes_at"),
    publishedAt: ts("published_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("viewing_rooms_gallery_slug_key").on(t.galleryId, t.slug),
    index("viewing_rooms_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("viewing_rooms_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    // The public listing: public rooms only, newest first.
    index("viewing_rooms_public_idx")
      .on(t.galleryId, t.createdAt, t.id)
      .where(sql`${t.visibility} = 'public'`),
  ],
);

export const viewingRoomArtworks = pgTable(
  "viewing_room_artworks",
  {
    galleryId: galleryId(),
    viewingRoomId: text("viewing_room_id")
      .notNull()
      .references(() => viewingRooms.id, { onDelete: "cascade" }),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    showPrice: boolean("show_price").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.viewingRoomId, t.artworkId] }),
    index("viewing_room_artworks_position_idx").on(t.viewingRoomId, t.position, t.artworkId),
    index("viewing_room_artworks_artwork_idx").on(t.galleryId, t.artworkId),
  ],
);

/**
 * One-time signed upload targets. Only the SHA-256 of the token is stored; `used_at` is set when the PUT
 * consumes it, and a used or expired token is refused.
 */
export const uploadTokens = pgTable(
  "upload_tokens",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    storagePath: text("storage_path").notNull(),
    /** What the upload is for, e.g. publication_cover. */
    purpose: text("purpose").notNull(),
    /** The resource the upload belongs to (e.g. the publication id). */
    resourceId: text("resource_id"),
    /** The member who minted it, when a member session did (cover uploads require one). */
    memberId: text("member_id").references(() => members.id, { onDelete: "cascade" }),
    /** The credential (key or session) that minted it. */
    actorId: text("actor_id"),
    contentType: text("content_type"),
    maxBytes: integer("max_bytes"),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("upload_tokens_expires_idx").on(t.expiresAt),
    // A write that attaches an upload looks it up by its storage path.
    index("upload_tokens_gallery_path_idx").on(t.galleryId, t.storagePath),
  ],
);
