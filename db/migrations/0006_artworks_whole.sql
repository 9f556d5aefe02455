ALTER TABLE "auction_records" ALTER COLUMN "sale_date" SET DATA TYPE date USING "sale_date"::date;--> statement-breakpoint
ALTER TABLE "upload_tokens" ALTER COLUMN "member_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "artwork_formats" ADD COLUMN "pending" jsonb;--> statement-breakpoint
ALTER TABLE "artwork_formats" ADD COLUMN "pending_action" text;--> statement-breakpoint
ALTER TABLE "artwork_images" ADD COLUMN "content_type" text;--> statement-breakpoint
ALTER TABLE "artwork_images" ADD COLUMN "size_bytes" integer;--> statement-breakpoint
ALTER TABLE "artwork_images" ADD COLUMN "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_tokens" ADD COLUMN "actor_id" text;--> statement-breakpoint
-- A rule between a request and stored rows, checked inside the write's transaction: unless `ok`, the write
-- aborts with SQLSTATE GP400 (400 invalid_request) naming `field` (DETAIL) with `message` (HINT).
CREATE OR REPLACE FUNCTION expect_valid(ok boolean, field text, message text) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF ok IS FALSE THEN
    RAISE EXCEPTION 'Body field `%` %', field, message USING ERRCODE = 'GP400', DETAIL = field, HINT = message;
  END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION expect_references(found bigint, expected bigint, field text) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  -- $1, not the name: inside PL/pgSQL a bare `found` is the built-in FOUND boolean, which shadows the parameter.
  IF $1 <> expected THEN
    RAISE EXCEPTION '% names a resource that does not exist in this gallery', field
      USING ERRCODE = 'GP400', DETAIL = field, HINT = 'names a resource that does not exist in this gallery';
  END IF;
END
$$;
--> statement-breakpoint
ALTER TABLE "auction_records" ALTER COLUMN "sale_date" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "auction_records" ALTER COLUMN "currency" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "auction_records" ALTER COLUMN "currency" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "auction_records" ALTER COLUMN "result" DROP DEFAULT;--> statement-breakpoint
DROP INDEX "artwork_activity_artwork_idx";--> statement-breakpoint
DROP INDEX "auction_records_artwork_idx";--> statement-breakpoint
-- artwork_id leads these indexes: an artwork's delete cascades to its rows by artwork_id alone.
CREATE INDEX "artwork_activity_artwork_idx" ON "artwork_activity_events" USING btree ("artwork_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "auction_records_artwork_idx" ON "auction_records" USING btree ("artwork_id","created_at","id");--> statement-breakpoint
CREATE INDEX "auction_records_artwork_sale_idx" ON "auction_records" USING btree ("artwork_id","sale_date","id");
--> statement-breakpoint
CREATE INDEX "artworks_gallery_parent_idx" ON "artworks" USING btree ("gallery_id","parent_artwork_id") WHERE "artworks"."parent_artwork_id" is not null;--> statement-breakpoint
CREATE INDEX "tags_gallery_name_idx" ON "tags" USING btree ("gallery_id","name","id");--> statement-breakpoint
CREATE INDEX "locations_gallery_name_idx" ON "locations" USING btree ("gallery_id","name","id");--> statement-breakpoint
CREATE INDEX "custom_statuses_gallery_name_idx" ON "custom_statuses" USING btree ("gallery_id","name","id");--> statement-breakpoint
CREATE INDEX "custom_statuses_gallery_position_idx" ON "custom_statuses" USING btree ("gallery_id","position","id");--> statement-breakpoint
-- A conflict with stored rows found inside the write's transaction (a row still referenced, a duplicate name):
-- SQLSTATE GP409 maps to 409 conflict with `message`, and `details` (a JSON object) travels as the DETAIL.
CREATE OR REPLACE FUNCTION raise_conflict(message text, details jsonb) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION '%', message USING ERRCODE = 'GP409', DETAIL = details::text;
END
$$;
