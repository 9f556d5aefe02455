-- Offers, shows and their tags, publications and viewing rooms: hand-written SQL (functions, checks,
-- expression indexes) and the columns these groups add.
SELECT 1;
--> statement-breakpoint
-- The public edge cache's invalidation pass (services/edge-cache/invalidate.ts) reads the last minutes of the events
-- that change a public viewing room; its predicate is lib/public-surface.ts PUBLIC_SURFACE_EVENT_CONDITION, word for
-- word, so the planner matches the query to it.
CREATE INDEX "domain_events_public_surface_idx" ON "domain_events" ("created_at") INCLUDE ("gallery_id", "id") WHERE (type like 'viewing_room.%' or type in ('artwork.updated', 'artwork.price_changed', 'artwork.deleted', 'artwork.published', 'artwork_image.created', 'artwork_image.updated', 'artwork_image.deleted', 'artwork_format.created', 'artwork_format.updated', 'artwork_format.deleted', 'artist.updated', 'artist.deleted'));
--> statement-breakpoint
-- Shows: their states, and dates that run forwards.
ALTER TABLE "shows" ADD CONSTRAINT "shows_status_check"
  CHECK (status IN ('planned', 'open', 'closed', 'cancelled'));
--> statement-breakpoint
ALTER TABLE "shows" ADD CONSTRAINT "shows_dates_check"
  CHECK (starts_on IS NULL OR ends_on IS NULL OR ends_on >= starts_on);
--> statement-breakpoint
-- sort=starts: undated shows sort as if they started on 0001-01-01 (last, newest first).
CREATE INDEX "shows_gallery_starts_key_idx" ON "shows" USING btree ("gallery_id", coalesce("starts_on", '0001-01-01'::date), "id");
--> statement-breakpoint
ALTER TABLE "show_tags" ADD CONSTRAINT "show_tags_color_check"
  CHECK (color IN ('slate', 'gray', 'red', 'orange', 'amber', 'yellow', 'lime', 'green', 'emerald', 'teal', 'cyan',
    'sky', 'blue', 'indigo', 'violet', 'purple', 'fuchsia', 'pink', 'rose'));
--> statement-breakpoint
ALTER TABLE "show_tags" ADD CONSTRAINT "show_tags_facet_check"
  CHECK (facet IN ('medium', 'material', 'technique', 'subject', 'theme', 'style', 'movement', 'period', 'region',
    'format'));
--> statement-breakpoint
ALTER TABLE "show_tags" ADD CONSTRAINT "show_tags_origin_check" CHECK (origin IN ('manual', 'ai_suggested'));
--> statement-breakpoint
-- Publications: the cover's public URL beside its storage path; published_at set exactly while published.
ALTER TABLE "publications" ADD COLUMN "cover_image_url" text;
--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_kind_check"
  CHECK (kind IN ('catalogue', 'monograph', 'article', 'essay', 'interview', 'press_release', 'newsletter'));
--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_visibility_check"
  CHECK (visibility IN ('public', 'unlisted', 'private'));
--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_published_check"
  CHECK (published = (published_at IS NOT NULL));
--> statement-breakpoint
ALTER TABLE "publication_pricing" ADD CONSTRAINT "publication_pricing_visibility_check"
  CHECK (price_visibility IN ('public', 'members', 'private'));
--> statement-breakpoint
CREATE INDEX "upload_tokens_gallery_path_idx" ON "upload_tokens" USING btree ("gallery_id", "storage_path");
--> statement-breakpoint
-- Viewing rooms: the visibility set, the slug's shape (lib/schemas/viewing-rooms.ts SLUG_SHAPE) and a room that
-- closes after it opens. The API checks each first with a 400 naming the field; these keep every writer honest.
ALTER TABLE "viewing_rooms" ADD CONSTRAINT "viewing_rooms_visibility_check"
  CHECK (visibility IN ('public', 'unlisted', 'private'));
--> statement-breakpoint
ALTER TABLE "viewing_rooms" ADD CONSTRAINT "viewing_rooms_slug_check"
  CHECK (slug ~ '^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$' AND length(slug) <= 80);
--> statement-breakpoint
ALTER TABLE "viewing_rooms" ADD CONSTRAINT "viewing_rooms_window_check"
  CHECK (opens_at IS NULL OR closes_at IS NULL OR closes_at > opens_at);
--> statement-breakpoint
-- Offers: the status set; a scheduled offer has its send time and a draft none; sent_at is set exactly when sent.
ALTER TABLE "offers" ADD CONSTRAINT "offers_status_check"
  CHECK (status IN ('draft', 'scheduled', 'sent', 'cancelled'));
--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_schedule_check"
  CHECK (CASE status WHEN 'scheduled' THEN scheduled_at IS NOT NULL WHEN 'draft' THEN scheduled_at IS NULL ELSE true END);
--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_sent_check" CHECK ((status = 'sent') = (sent_at IS NOT NULL));
--> statement-breakpoint
ALTER TABLE "offer_items" ADD CONSTRAINT "offer_items_price_check"
  CHECK (price_shown_cents IS NULL OR price_shown_cents >= 0);
--> statement-breakpoint
ALTER TABLE "offer_items" ADD CONSTRAINT "offer_items_position_check" CHECK (position >= 0);
--> statement-breakpoint
ALTER TABLE "offer_recipients" ADD CONSTRAINT "offer_recipients_status_check"
  CHECK (status IN ('pending', 'sent', 'opened', 'replied', 'bounced'));
--> statement-breakpoint
-- An offer's recipients in the order they were added (keyset on added_at, contact_id).
CREATE INDEX "offer_recipients_offer_added_idx" ON "offer_recipients" USING btree ("offer_id", "added_at", "contact_id");--> statement-breakpoint
-- Foreign-key lookups. Deleting an artwork, a contact, a sale, a tag, an artist, a webhook endpoint, a viewing room
-- or a publication makes Postgres find the rows that refer to it with `WHERE <column> = $1` alone (to cascade or
-- set null); the (gallery_id, <column>, ...) indexes cannot serve that, so each such delete read the whole
-- referring table (seconds at a million interactions). One index per referring column, partial where the
-- column is nullable.
CREATE INDEX IF NOT EXISTS "engagement_events_artwork_id_fk_idx" ON "engagement_events" USING btree ("artwork_id") WHERE "artwork_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "interactions_artwork_id_fk_idx" ON "interactions" USING btree ("artwork_id") WHERE "artwork_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_line_items_artwork_id_fk_idx" ON "invoice_line_items" USING btree ("artwork_id") WHERE "artwork_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "recommendation_matches_artwork_id_fk_idx" ON "recommendation_matches" USING btree ("artwork_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "offer_items_artwork_id_fk_idx" ON "offer_items" USING btree ("artwork_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "publication_artworks_artwork_id_fk_idx" ON "publication_artworks" USING btree ("artwork_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "viewing_room_artworks_artwork_id_fk_idx" ON "viewing_room_artworks" USING btree ("artwork_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "show_artworks_artwork_id_fk_idx" ON "show_artworks" USING btree ("artwork_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contact_list_memberships_contact_id_fk_idx" ON "contact_list_memberships" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rubric_judgments_contact_id_fk_idx" ON "rubric_judgments" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "engagement_events_contact_id_fk_idx" ON "engagement_events" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "interactions_contact_id_fk_idx" ON "interactions" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "private_notes_contact_id_fk_idx" ON "private_notes" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sales_contact_id_fk_idx" ON "sales" USING btree ("contact_id") WHERE "contact_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tasks_contact_id_fk_idx" ON "tasks" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "inbox_threads_contact_id_fk_idx" ON "inbox_threads" USING btree ("contact_id") WHERE "contact_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_contact_id_fk_idx" ON "invoices" USING btree ("contact_id") WHERE "contact_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "recommendation_matches_contact_id_fk_idx" ON "recommendation_matches" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "offer_recipients_contact_id_fk_idx" ON "offer_recipients" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_sale_id_fk_idx" ON "invoices" USING btree ("sale_id") WHERE "sale_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_deliveries_endpoint_id_fk_idx" ON "webhook_deliveries" USING btree ("endpoint_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "artwork_tags_tag_id_fk_idx" ON "artwork_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contact_tags_tag_id_fk_idx" ON "contact_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "artwork_artists_artist_id_fk_idx" ON "artwork_artists" USING btree ("artist_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "engagement_events_viewing_room_id_fk_idx" ON "engagement_events" USING btree ("viewing_room_id") WHERE "viewing_room_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "viewing_rooms_publication_id_fk_idx" ON "viewing_rooms" USING btree ("publication_id") WHERE "publication_id" IS NOT NULL;
