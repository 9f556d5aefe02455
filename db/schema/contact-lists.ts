import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";
import { createdAt, galleryId, ts, updatedAt } from "./columns";
import { contacts } from "./contacts";
import { galleries } from "./galleries";

/** The saved filter of a dynamic list, in the API's wire shape (the contact list filters), as parsed. */
export interface ContactListQuery {
  q?: string;
  type?: string;
  assigned_to?: string;
  lead_status?: string;
  /** Always an array once parsed (a single id is accepted on input). */
  tag_id?: string[];
  has_interaction_since?: string;
  min_total_spend_cents?: number;
  min_works_acquired?: number;
  price_band?: string;
  engaged_event?: string;
  engaged_since?: string;
  email_consent?: string;
  described_as?: string;
}

/** Pipelines, segments and mailings. Static lists keep members in `contact_list_memberships`. */
export const contactLists = pgTable(
  "contact_lists",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    kind: text("kind").notNull().default("pipeline"),
    isDynamic: boolean("is_dynamic").notNull().default(false),
    /** Null for static lists. */
    dynamicQuery: jsonb("dynamic_query").$type<ContactListQuery>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("contact_lists_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("contact_lists_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    index("contact_lists_gallery_kind_idx").on(t.galleryId, t.kind, t.createdAt, t.id),
  ],
);

export const contactListMemberships = pgTable(
  "contact_list_memberships",
  {
    galleryId: galleryId(),
    listId: text("list_id")
      .notNull()
      .references(() => contactLists.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    addedAt: ts("added_at").notNull().default(sql`now()`),
  },
  (t) => [
    // The primary key serves `list_id` filtering (membership test per contact).
    primaryKey({ columns: [t.listId, t.contactId] }),
    index("contact_list_memberships_position_idx").on(t.listId, t.position, t.contactId),
    index("contact_list_memberships_contact_idx").on(t.galleryId, t.contactId),
  ],
);

/**
 * The engine's verdicts on a contact against a rubric, keyed by text such as `segment:<list id>` (the
 * `described_as` of a dynamic list) and read by the `judged_rubric` filter. One current judgment per
 * (gallery, key, contact); a re-judgment overwrites it.
 */
export const rubricJudgments = pgTable(
  "rubric_judgments",
  {
    galleryId: galleryId(),
    rubricKey: text("rubric_key").notNull(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    verdict: boolean("verdict").notNull(),
    probability: doublePrecision("probability").notNull(),
    model: text("model").notNull(),
    reasons: jsonb("reasons").$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    judgedAt: ts("judged_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.galleryId, t.rubricKey, t.contactId] }),
    // "Contacts judged true at or above a floor for key K": one range scan, contact ids from the index alone.
    index("rubric_judgments_true_idx")
      .on(t.galleryId, t.rubricKey, t.probability, t.contactId)
      .where(sql`${t.verdict}`),
    index("rubric_judgments_contact_idx").on(t.galleryId, t.contactId),
  ],
);
