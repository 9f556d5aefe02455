import { sql } from "drizzle-orm";
import { bigint, jsonb, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Column helpers shared by every table family. Timestamps keep millisecond precision so that a value read
 * back, put in a cursor and compared again is exactly the stored one (JS dates carry milliseconds only).
 */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "string" });

export const createdAt = () => ts("created_at").notNull().default(sql`now()`);
export const updatedAt = () => ts("updated_at").notNull().default(sql`now()`);

/** Every row belongs to one gallery. */
export const galleryId = () => text("gallery_id").notNull();

/** Money in integer cents; bigint so amounts up to 2^53-1 survive. */
export const cents = (name: string) => bigint(name, { mode: "number" });

/** `map of string to string` fields. */
export const stringMap = (name: string) =>
  jsonb(name).$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`);

/** `map of string to any value` fields. */
export const anyMap = (name: string) =>
  jsonb(name).$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`);
