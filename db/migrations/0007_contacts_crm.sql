CREATE TABLE "contact_engagement" (
	"gallery_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"kind" text NOT NULL,
	"last_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "contact_engagement_contact_id_kind_pk" PRIMARY KEY("contact_id","kind")
);
--> statement-breakpoint
CREATE TABLE "sale_artworks" (
	"gallery_id" text NOT NULL,
	"sale_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_artworks_sale_id_artwork_id_pk" PRIMARY KEY("sale_id","artwork_id")
);
--> statement-breakpoint
DROP INDEX "contacts_gallery_email_idx";--> statement-breakpoint
DROP INDEX "sales_artwork_idx";--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "total_spend_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "works_acquired" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "avg_acquisition_cents" bigint GENERATED ALWAYS AS (case when works_acquired > 0 then round(total_spend_cents::numeric / works_acquired)::bigint end) STORED;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "price_band" text GENERATED ALWAYS AS (case when works_acquired > 0 then case
        when total_spend_cents::numeric / works_acquired < 500000 then 'under_5k'
        when total_spend_cents::numeric / works_acquired < 2500000 then '5k_25k'
        when total_spend_cents::numeric / works_acquired < 10000000 then '25k_100k'
        else 'over_100k' end end) STORED;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "last_engaged_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "base_amount_cents" bigint;--> statement-breakpoint
UPDATE "sales" SET "base_amount_cents" = "amount_cents";--> statement-breakpoint
ALTER TABLE "sales" ALTER COLUMN "base_amount_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "works_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_engagement" ADD CONSTRAINT "contact_engagement_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_artworks" ADD CONSTRAINT "sale_artworks_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_artworks" ADD CONSTRAINT "sale_artworks_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_engagement_kind_idx" ON "contact_engagement" USING btree ("gallery_id","kind","last_at","contact_id");--> statement-breakpoint
CREATE INDEX "sale_artworks_artwork_idx" ON "sale_artworks" USING btree ("artwork_id","sale_id");--> statement-breakpoint
UPDATE "contacts" SET "email" = nullif(lower(btrim("email")), '');--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_gallery_email_key" ON "contacts" USING btree ("gallery_id","email") WHERE "contacts"."archived_at" is null and "contacts"."email" is not null;--> statement-breakpoint
CREATE INDEX "contacts_gallery_spend_idx" ON "contacts" USING btree ("gallery_id","total_spend_cents","id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_price_band_idx" ON "contacts" USING btree ("gallery_id","price_band","total_spend_cents","id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_engaged_idx" ON "contacts" USING btree ("gallery_id","last_engaged_at","id");--> statement-breakpoint
INSERT INTO "sale_artworks" ("gallery_id", "sale_id", "artwork_id", "position")
  SELECT "gallery_id", "id", "artwork_id", 0 FROM "sales" WHERE "artwork_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" DROP CONSTRAINT "sales_artwork_id_artworks_id_fk";--> statement-breakpoint
ALTER TABLE "sales" DROP COLUMN "artwork_id";--> statement-breakpoint
-- Spend on the contact follows its completed sales: the old row's share out, the new row's in. Increments take
-- the contact's row lock, so concurrent sales of one contact serialise instead of losing an amount.
CREATE OR REPLACE FUNCTION sales_keep_contact_spend() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'completed' AND OLD.contact_id IS NOT NULL THEN
    UPDATE contacts SET total_spend_cents = total_spend_cents - OLD.base_amount_cents,
      works_acquired = works_acquired - OLD.works_count
    WHERE id = OLD.contact_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'completed' AND NEW.contact_id IS NOT NULL THEN
    UPDATE contacts SET total_spend_cents = total_spend_cents + NEW.base_amount_cents,
      works_acquired = works_acquired + NEW.works_count
    WHERE id = NEW.contact_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sales_keep_contact_spend AFTER INSERT OR UPDATE OR DELETE ON sales
  FOR EACH ROW EXECUTE FUNCTION sales_keep_contact_spend();--> statement-breakpoint
-- The contact's last interaction follows its newest interaction (ties: the later write wins).
CREATE OR REPLACE FUNCTION interactions_keep_contact_last() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE contacts SET last_interaction_at = NEW.occurred_at, last_interaction_type = NEW.type
  WHERE id = NEW.contact_id AND (last_interaction_at IS NULL OR last_interaction_at <= NEW.occurred_at);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER interactions_keep_contact_last AFTER INSERT ON interactions
  FOR EACH ROW EXECUTE FUNCTION interactions_keep_contact_last();--> statement-breakpoint
-- The newest engagement per (contact, kind) and of any kind, for engaged_event / engaged_since.
CREATE OR REPLACE FUNCTION engagement_keep_contact_last() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO contact_engagement (gallery_id, contact_id, kind, last_at)
  VALUES (NEW.gallery_id, NEW.contact_id, NEW.kind, NEW.occurred_at)
  ON CONFLICT (contact_id, kind) DO UPDATE SET last_at = greatest(contact_engagement.last_at, excluded.last_at);
  UPDATE contacts SET last_engaged_at = NEW.occurred_at
  WHERE id = NEW.contact_id AND (last_engaged_at IS NULL OR last_engaged_at < NEW.occurred_at);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER engagement_keep_contact_last AFTER INSERT ON engagement_events
  FOR EACH ROW EXECUTE FUNCTION engagement_keep_contact_last();--> statement-breakpoint
-- Recomputes every kept aggregate of a gallery's contacts from the rows they summarise: after a bulk load that
-- ran with triggers off (session_replication_role = replica), and for checking the triggers' work.
CREATE OR REPLACE FUNCTION refresh_contact_aggregates(gallery text) RETURNS void
  LANGUAGE sql
  AS $$
  DELETE FROM contact_engagement WHERE gallery_id = gallery;
  INSERT INTO contact_engagement (gallery_id, contact_id, kind, last_at)
    SELECT gallery_id, contact_id, kind, max(occurred_at) FROM engagement_events
    WHERE gallery_id = gallery GROUP BY gallery_id, contact_id, kind;
  UPDATE contacts c SET
    total_spend_cents = coalesce(s.total, 0),
    works_acquired = coalesce(s.works, 0),
    last_interaction_at = i.occurred_at,
    last_interaction_type = i.type,
    last_engaged_at = e.last_at
  FROM contacts c2
    LEFT JOIN (SELECT contact_id, sum(base_amount_cents) AS total, sum(works_count) AS works FROM sales
      WHERE gallery_id = gallery AND status = 'completed' GROUP BY contact_id) s ON s.contact_id = c2.id
    LEFT JOIN LATERAL (SELECT occurred_at, type FROM interactions
      WHERE gallery_id = gallery AND contact_id = c2.id ORDER BY occurred_at DESC, created_at DESC, id DESC LIMIT 1) i ON true
    LEFT JOIN (SELECT contact_id, max(last_at) AS last_at FROM contact_engagement
      WHERE gallery_id = gallery GROUP BY contact_id) e ON e.contact_id = c2.id
  WHERE c.id = c2.id AND c2.gallery_id = gallery;
$$;
--> statement-breakpoint
SELECT refresh_contact_aggregates(id) FROM galleries;