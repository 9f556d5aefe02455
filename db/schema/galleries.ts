import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, galleryId, ts, updatedAt } from "./columns";

export const galleries = pgTable("galleries", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  livemode: boolean("livemode").notNull().default(false),
  defaultCurrency: text("default_currency").notNull().default("USD"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** People who sign in to the gallery's own tools; role decides what a session may do. */
export const members = pgTable(
  "members",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: ["editor", "viewer"] }).notNull(),
    passwordHash: text("password_hash").notNull(),
    disabledAt: ts("disabled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("members_email_key").on(sql`lower(${t.email})`),
    index("members_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
  ],
);

/** First-party sessions (`gss_` tokens); only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_member_idx").on(t.galleryId, t.memberId)],
);

/** Secret keys (`gpk_`) and publishable tokens (`gpub_`): hash plus a display prefix, never the secret. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["secret", "publishable"] }).notNull(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    scopes: text("scopes").array().notNull(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("api_keys_gallery_created_idx").on(t.galleryId, t.createdAt, t.id)],
);
