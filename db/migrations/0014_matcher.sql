CREATE TABLE "match_models" (
	"gallery_id" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"bias" double precision NOT NULL,
	"weights" jsonb NOT NULL,
	"examples" integer DEFAULT 0 NOT NULL,
	"positives" integer DEFAULT 0 NOT NULL,
	"calibration" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fitted_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "match_feedback" DROP CONSTRAINT "match_feedback_match_id_recommendation_matches_id_fk";
--> statement-breakpoint
ALTER TABLE "match_feedback" DROP CONSTRAINT "match_feedback_member_id_members_id_fk";
--> statement-breakpoint
ALTER TABLE "match_feedback" ALTER COLUMN "match_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "match_feedback" ALTER COLUMN "member_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "match_feedback" ADD COLUMN "contact_id" text;--> statement-breakpoint
ALTER TABLE "match_feedback" ADD COLUMN "artwork_id" text;--> statement-breakpoint
-- Feedback recorded before this migration names its pair through its match.
UPDATE "match_feedback" f SET "contact_id" = m."contact_id", "artwork_id" = m."artwork_id"
  FROM "recommendation_matches" m WHERE m."id" = f."match_id";--> statement-breakpoint
DELETE FROM "match_feedback" WHERE "contact_id" IS NULL OR "artwork_id" IS NULL;--> statement-breakpoint
ALTER TABLE "match_feedback" ALTER COLUMN "contact_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "match_feedback" ALTER COLUMN "artwork_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "recommendation_matches" ADD COLUMN "input_hash" text;--> statement-breakpoint
ALTER TABLE "match_feedback" ADD CONSTRAINT "match_feedback_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_feedback" ADD CONSTRAINT "match_feedback_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_feedback" ADD CONSTRAINT "match_feedback_match_id_recommendation_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."recommendation_matches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_feedback" ADD CONSTRAINT "match_feedback_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "match_feedback_contact_idx" ON "match_feedback" USING btree ("gallery_id","contact_id","created_at","id");--> statement-breakpoint
CREATE INDEX "match_feedback_gallery_idx" ON "match_feedback" USING btree ("gallery_id","created_at","id");