import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { artworks, tags } from "./artworks";
import { anyMap, cents, createdAt, galleryId, stringMap, ts, updatedAt } from "./columns";
import { galleries, members } from "./galleries";
import { viewingRooms } from "./publications";

/**
 * The CRM roster. `archived_at` puts a contact on the reversible archive shelf: hidden from the default roster
 * and from dynamic segments, still resolvable by id.
 */
export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    company: text("company"),
    /** Stored normalised (trimmed, lower-case); unique per gallery among unarchived contacts. */
    email: text("email"),
    phone: text("phone"),
    notes: text("notes"),
    formOfAddress: text("form_of_address"),
    contactType: text("contact_type").notNull().default("other"),
    /** Denormalised from the newest row in `interactions`, kept by the writes that add one. */
    lastInteractionAt: ts("last_interaction_at"),
    lastInteractionType: text("last_interaction_type"),
    leadStatus: text("lead_status").notNull().default("new"),
    doNotEmail: boolean("do_not_email").notNull().default(false),
    /** Marketing consent state, filterable by dynamic segments (`email_consent`); not exposed on Contact. */
    emailConsent: text("email_consent").notNull().default("pending"),
    /**
     * Spend, kept by a trigger on `sales` (completed sales only, in the gallery's default currency): increments
     * under the contact's row lock, so concurrent sales never lose one another's amounts.
     */
    totalSpendCents: cents("total_spend_cents").notNull().default(0),
    worksAcquired: integer("works_acquired").notNull().default(0),
    /** Per work acquired, rounded half away from zero; null without purchases. */
    avgAcquisitionCents: cents("avg_acquisition_cents").generatedAlwaysAs(
      sql`case when works_acquired > 0 then round(total_spend_cents::numeric / works_acquired)::bigint end`,
    ),
    /** The band of the average work acquired: under_5k, 5k_25k, 25k_100k, over_100k; null without purchases. */
    priceBand: text("price_band").generatedAlwaysAs(
      sql`case when works_acquired > 0 then case
        when total_spend_cents::numeric / works_acquired < 500000 then 'under_5k'
        when total_spend_cents::numeric / works_acquired < 2500000 then '5k_25k'
        when total_spend_cents::numeric / works_acquired < 10000000 then '25k_100k'
        else 'over_100k' end end`,
    ),
    /** The newest engagement event of any kind, kept by a trigger on `engagement_events`. */
    lastEngagedAt: ts("last_engaged_at"),
    archivedAt: ts("archived_at"),
    saveState: text("save_state").notNull().default("new"),
    customFields: anyMap("custom_fields"),
    metadata: stringMap("metadata"),
    /** Lower-cased text for `q` (substring over name, email, company), maintained by Postgres. */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`lower(coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(company, ''))`,
      ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("contacts_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("contacts_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    index("contacts_gallery_name_idx").on(t.galleryId, t.name, t.id),
    index("contacts_gallery_type_idx").on(t.galleryId, t.contactType, t.createdAt, t.id),
    index("contacts_gallery_lead_status_idx").on(t.galleryId, t.leadStatus, t.createdAt, t.id),
    index("contacts_gallery_last_interaction_idx").on(t.galleryId, t.lastInteractionAt, t.id),
    index("contacts_gallery_archived_idx")
      .on(t.galleryId, t.archivedAt, t.id)
      .where(sql`${t.archivedAt} is not null`),
    uniqueIndex("contacts_gallery_email_key")
      .on(t.galleryId, t.email)
      .where(sql`${t.archivedAt} is null and ${t.email} is not null`),
    index("contacts_gallery_spend_idx").on(t.galleryId, t.totalSpendCents, t.id),
    index("contacts_gallery_price_band_idx").on(t.galleryId, t.priceBand, t.totalSpendCents, t.id),
    index("contacts_gallery_engaged_idx").on(t.galleryId, t.lastEngagedAt, t.id),
    index("contacts_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
  ],
);

export const collectorProfiles = pgTable("collector_profiles", {
  contactId: text("contact_id")
    .primaryKey()
    .references(() => contacts.id, { onDelete: "cascade" }),
  galleryId: galleryId(),
  collectingFocus: text("collecting_focus"),
  budgetBand: text("budget_band"),
  wishlistNotes: text("wishlist_notes"),
  preferredContactMethod: text("preferred_contact_method"),
  vip: boolean("vip").notNull().default(false),
  taxExempt: boolean("tax_exempt").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const institutionProfiles = pgTable("institution_profiles", {
  contactId: text("contact_id")
    .primaryKey()
    .references(() => contacts.id, { onDelete: "cascade" }),
  galleryId: galleryId(),
  institutionKind: text("institution_kind"),
  acquisitionProcess: text("acquisition_process"),
  primaryContactName: text("primary_contact_name"),
  taxExempt: boolean("tax_exempt").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Members responsible for a contact (`assignee_ids`, ordered by position). */
export const contactAssignees = pgTable(
  "contact_assignees",
  {
    galleryId: galleryId(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.memberId] }),
    index("contact_assignees_member_idx").on(t.galleryId, t.memberId, t.contactId),
  ],
);

/** Contact ↔ tag (tags with scope `contact`). */
export const contactTags = pgTable(
  "contact_tags",
  {
    galleryId: galleryId(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.tagId] }),
    index("contact_tags_tag_idx").on(t.galleryId, t.tagId, t.contactId),
  ],
);

/** The CRM timeline: notes, emails, calls, meetings, visits. Each write also refreshes `contacts.last_interaction_*`. */
export const interactions = pgTable(
  "interactions",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    type: text("type").notNull().default("note"),
    /** inbound | outbound; null where it has no direction (a note). */
    direction: text("direction"),
    summary: text("summary").notNull(),
    occurredAt: ts("occurred_at").notNull(),
    artworkId: text("artwork_id").references(() => artworks.id, { onDelete: "set null" }),
    memberId: text("member_id").references(() => members.id, { onDelete: "set null" }),
    metadata: anyMap("metadata"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("interactions_contact_idx").on(t.galleryId, t.contactId, t.occurredAt, t.id),
    index("interactions_artwork_idx")
      .on(t.galleryId, t.artworkId, t.occurredAt, t.id)
      .where(sql`${t.artworkId} is not null`),
  ],
);

/** Behavioural signals (room opened, artwork viewed, email opened, …): kinds are the spec's `engaged_event` values. */
export const engagementEvents = pgTable(
  "engagement_events",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    occurredAt: ts("occurred_at").notNull(),
    artworkId: text("artwork_id").references(() => artworks.id, { onDelete: "set null" }),
    viewingRoomId: text("viewing_room_id").references(() => viewingRooms.id, { onDelete: "set null" }),
    metadata: anyMap("metadata"),
    createdAt: createdAt(),
  },
  (t) => [
    // engaged_event + engaged_since: a range scan that yields the matching contact ids from the index alone.
    index("engagement_events_kind_idx").on(t.galleryId, t.kind, t.occurredAt, t.contactId),
    index("engagement_events_contact_idx").on(t.galleryId, t.contactId, t.occurredAt, t.id),
    // Who engaged with a work (the matcher's candidate contacts for a work, in reverse).
    index("engagement_events_artwork_idx")
      .on(t.galleryId, t.artworkId, t.occurredAt, t.contactId)
      .where(sql`${t.artworkId} is not null`),
  ],
);

/**
 * The newest engagement of each kind per contact, kept by a trigger on `engagement_events`: `engaged_event` +
 * `engaged_since` is one primary-key probe per contact instead of a search through its event history.
 */
export const contactEngagement = pgTable(
  "contact_engagement",
  {
    galleryId: galleryId(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    lastAt: ts("last_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.kind] }),
    index("contact_engagement_kind_idx").on(t.galleryId, t.kind, t.lastAt, t.contactId),
  ],
);

/** Editor-only confidential notes on a contact; viewers receive an empty set. */
export const privateNotes = pgTable(
  "private_notes",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => members.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("private_notes_contact_idx").on(t.galleryId, t.contactId, t.createdAt, t.id)],
);

/** Follow-ups; open while `completed_at` is null. The recap reads the open count and the next one due. */
export const tasks = pgTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    notes: text("notes"),
    dueAt: ts("due_at"),
    completedAt: ts("completed_at"),
    assigneeId: text("assignee_id").references(() => members.id, { onDelete: "set null" }),
    createdBy: text("created_by").references(() => members.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("tasks_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("tasks_contact_open_idx")
      .on(t.galleryId, t.contactId, t.dueAt, t.id)
      .where(sql`${t.completedAt} is null`),
    index("tasks_assignee_open_idx")
      .on(t.galleryId, t.assigneeId, t.dueAt, t.id)
      .where(sql`${t.completedAt} is null`),
  ],
);

/**
 * Sales of works to contacts. Spend figures (the contact's `total_spend_cents`, `works_acquired`, price band,
 * the recap) aggregate the rows with status `completed`, by `base_amount_cents` (the gallery's default currency)
 * and `works_count`; a trigger keeps them on the contact.
 */
export const sales = pgTable(
  "sales",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    amountCents: cents("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    /** The amount in the gallery's default currency (equal to amount_cents when the sale is in it). */
    baseAmountCents: cents("base_amount_cents").notNull(),
    /** How many works the sale transferred (its artworks; kept when a catalogued work is later deleted). */
    worksCount: integer("works_count").notNull().default(1),
    soldAt: ts("sold_at").notNull(),
    /** pending | completed | cancelled | refunded */
    status: text("status").notNull().default("completed"),
    metadata: stringMap("metadata"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("sales_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("sales_gallery_sold_idx").on(t.galleryId, t.soldAt, t.id),
    index("sales_contact_idx").on(t.galleryId, t.contactId, t.soldAt, t.id),
  ],
);

/** The catalogued works of a sale, in order. */
export const saleArtworks = pgTable(
  "sale_artworks",
  {
    galleryId: galleryId(),
    saleId: text("sale_id")
      .notNull()
      .references(() => sales.id, { onDelete: "cascade" }),
    artworkId: text("artwork_id")
      .notNull()
      .references(() => artworks.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.saleId, t.artworkId] }),
    index("sale_artworks_artwork_idx").on(t.artworkId, t.saleId),
  ],
);

export type ContactRow = typeof contacts.$inferSelect;
