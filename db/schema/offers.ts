import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { artworks } from "./artworks";
import { cents, createdAt, galleryId, ts, updatedAt } from "./columns";
import { contacts } from "./contacts";
import { galleries, members } from "./galleries";

/** A curated selection of works sent to contacts. Items can be replaced while draft or scheduled. */
export const offers = pgTable(
  "offers",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    message: text("message"),
    /** draft | scheduled | sent | cancelled */
    status: text("status").notNull().default("draft"),
    scheduledAt: ts("scheduled_at"),
    sentAt: ts("sent_at"),
    currency: text("currency").notNull().default("USD"),
    createdBy: text("created_by").references(() => members.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("offers_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("offers_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    index("offers_gallery_status_idx").on(t.galleryId, t.status, t.createdAt, t.id),
    // The dispatcher's due scan.
    index("offers_scheduled_due_idx")
      .on(t.scheduledAt)
      .where(sql`${t.status} = 'scheduled'`),
  ],
);

export const offerItems = pgTable(
  "offer_items",
  {
    galleryId: galleryId(),
    offerId: text("offer_id")
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    captionOverride: text("caption_override"),
    position: integer("position").notNull().default(0),
    priceShownCents: cents("price_shown_cents"),
    currency: text("currency").notNull().default("USD"),
    priceVisible: boolean("price_visible").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.offerId, t.artworkId] }),
    index("offer_items_position_idx").on(t.offerId, t.position, t.artworkId),
    index("offer_items_artwork_idx").on(t.galleryId, t.artworkId),
  ],
);

export const offerRecipients = pgTable(
  "offer_recipients",
  {
    galleryId: galleryId(),
    offerId: text("offer_id")
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    /** pending | sent | opened | replied | bounced */
    status: text("status").notNull().default("pending"),
    addedAt: ts("added_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.offerId, t.contactId] }),
    index("offer_recipients_contact_idx").on(t.galleryId, t.contactId),
    // An offer's recipients in the order they were added (keyset on added_at, contact_id).
    index("offer_recipients_offer_added_idx").on(t.offerId, t.addedAt, t.contactId),
  ],
);
