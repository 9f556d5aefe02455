import { sql } from "drizzle-orm";
import { date, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { artworks } from "./artworks";
import { createdAt, galleryId, updatedAt } from "./columns";
import { galleries } from "./galleries";

export const shows = pgTable(
  "shows",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    startsOn: date("starts_on", { mode: "string" }),
    endsOn: date("ends_on", { mode: "string" }),
    /** planned | open | closed | cancelled */
    status: text("status").notNull().default("planned"),
    venue: text("venue"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("shows_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("shows_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    index("shows_gallery_starts_idx").on(t.galleryId, t.startsOn, t.id),
  ],
);

/** Tags applied to a show, each recording whether a person or the engine (`ai_suggested`) added it. */
export const showTags = pgTable(
  "show_tags",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    showId: text("show_id")
      .notNull()
      .references(() => shows.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull().default("slate"),
    facet: text("facet").notNull(),
    /** manual | ai_suggested */
    origin: text("origin").notNull().default("manual"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("show_tags_show_name_key").on(t.showId, sql`lower(${t.name})`),
    index("show_tags_show_order_idx").on(t.showId, t.name, t.id),
  ],
);

export const showArtworks = pgTable(
  "show_artworks",
  {
    galleryId: galleryId(),
    showId: text("show_id")
      .notNull()
      .references(() => shows.id, { onDelete: "cascade" }),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.showId, t.artworkId] }),
    index("show_artworks_position_idx").on(t.showId, t.position, t.artworkId),
    index("show_artworks_artwork_idx").on(t.galleryId, t.artworkId),
  ],
);
