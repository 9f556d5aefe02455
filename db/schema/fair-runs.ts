import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, galleryId, updatedAt } from "./columns";
import { galleries, members } from "./galleries";

/** One step of a run's action log; `gated` tools need a member's approval before they run. */
export interface FairRunAction {
  tool: string;
  gated: boolean;
  approved: boolean;
  at: string;
}

/** An agent run submitting works to a fair portal; PATCH appends to `actions` and records progress. */
export const fairRuns = pgTable(
  "fair_runs",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    /** The member who started the run. */
    userId: text("user_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    portalDomain: text("portal_domain").notNull(),
    fairListId: text("fair_list_id"),
    status: text("status").notNull().default("running"),
    stepCount: integer("step_count").notNull().default(0),
    actions: jsonb("actions").$type<FairRunAction[]>().notNull().default(sql`'[]'::jsonb`),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("fair_runs_gallery_created_idx").on(t.galleryId, t.createdAt, t.id),
    index("fair_runs_gallery_updated_idx").on(t.galleryId, t.updatedAt, t.id),
    index("fair_runs_user_idx").on(t.galleryId, t.userId, t.createdAt, t.id),
  ],
);
