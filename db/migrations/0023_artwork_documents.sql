-- Artwork documents (docs/decisions.md, "PostgreSQL time per request"): the artwork as a holder of a write scope
-- reads it (committed, prices shown) is built once per commit that changes it, not on every read. Expand only: a
-- new table, functions and triggers; the Workers before it never read the table, and their writes keep it fresh
-- through the triggers like anyone's.
CREATE TABLE "artwork_documents" (
	"artwork_id" text PRIMARY KEY NOT NULL,
	"body" json NOT NULL,
	"refreshed_xact" bigint NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "artwork_documents" ADD CONSTRAINT "artwork_documents_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The document's builder, rendered from the resource description (scripts/artwork-document.ts; test/artworks/
-- documents.test.ts fails when the description has changed since): the same SQL a read of that view runs.
CREATE OR REPLACE FUNCTION artwork_document(text) RETURNS json
  LANGUAGE plpgsql STABLE
  AS $$
BEGIN
  RETURN (SELECT (select to_json(r) from (select a."id" as "id", a."title" as "title", a."artist_id" as "artist_id", a."artist_name" as "artist_name", a."thumbnail_url" as "thumbnail_url", a."inventory_number" as "inventory_number", coalesce((select json_agg((select to_json(r) from (select aa."artist_id" as "artist_id", aa."role" as "role", aa."position" as "position", ar.name as "artist_name") r) order by aa.position, aa.artist_id)
        from artwork_artists aa join artists ar on ar.id = aa.artist_id where aa.artwork_id = a.id), '[]'::json) as "artists", coalesce((select json_agg((select to_json(r) from (select dm."component" as "component", dm."label" as "label", dm."height_cm" as "height_cm", dm."width_cm" as "width_cm", dm."depth_cm" as "depth_cm", dm."position" as "position", dm."note" as "note") r) order by dm.position, dm.id)
        from artwork_dimensions dm where dm.artwork_id = a.id), '[]'::json) as "dimensions", a."ownership_status" as "ownership_status", a."availability_state" as "availability_state", a."medium" as "medium", a."year" as "year", a."end_year" as "end_year", a."date_precision" as "date_precision", a."date_display" as "date_display", a."description" as "description", a."dimension_unit" as "dimension_unit", a."height_cm" as "height_cm", a."width_cm" as "width_cm", a."depth_cm" as "depth_cm", a."framed_height_cm" as "framed_height_cm", a."framed_width_cm" as "framed_width_cm", a."framed_depth_cm" as "framed_depth_cm", a."dimensions_text" as "dimensions_text", a."location_id" as "location_id", a."price_cents" as "price_cents", a."currency" as "currency", a."is_edition" as "is_edition", a."edition_number" as "edition_number", a."edition_size" as "edition_size", a."edition_type" as "edition_type", a."edition_overrides" as "edition_overrides", a."parent_artwork_id" as "parent_artwork_id", a."coa_status" as "coa_status", a."coa_tracking_number" as "coa_tracking_number", a."condition_status" as "condition_status", a."condition_notes" as "condition_notes", a."provenance" as "provenance", a."exhibition_history" as "exhibition_history", a."literature" as "literature", a."catalogue_raisonne" as "catalogue_raisonne", a."market" as "market", a."custom_status_id" as "custom_status_id", a."show_price_publicly" as "show_price_publicly", to_char(a."published_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "published_at", a."published_version" as "published_version", a."save_state" as "save_state", a."source_system" as "source_system", a."source_external_id" as "source_external_id", coalesce((select json_agg((select to_json(r) from (select f."id" as "id", f."artwork_id" as "artwork_id", f."label" as "label", f."height_cm" as "height_cm", f."width_cm" as "width_cm", f."depth_cm" as "depth_cm", f."dimension_unit" as "dimension_unit", f."medium" as "medium", f."edition_size" as "edition_size", f."stock_quantity" as "stock_quantity", f."availability_state" as "availability_state", case when false then null else f."price_cents" end as "price_cents", f."currency" as "currency", f."position" as "position", f."metadata" as "metadata", to_char(f."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "created_at", to_char(f."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updated_at") r) order by f."position", f.id)
    from artwork_formats f where f.artwork_id = a.id and f.pending_action is distinct from 'create'), '[]'::json) as "formats", a."metadata" as "metadata", to_char(a."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "created_at", to_char(a."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updated_at") r) FROM artworks a WHERE a.id = $1);
END
$$;
--> statement-breakpoint
-- Builds and stores one work's document, or drops it when the work is gone. Deferred triggers call it at commit,
-- once per changed row; a work already built by this transaction in this statement (the COMMIT, or a SET
-- CONSTRAINTS that fired the deferred triggers early) is not built again, so a create that writes the work, its
-- credits and its dimensions builds it once. A later statement of the same transaction builds it afresh.
CREATE OR REPLACE FUNCTION refresh_artwork_document(work text) RETURNS void
  LANGUAGE plpgsql
  AS $$
DECLARE
  built json;
BEGIN
  IF work IS NULL OR EXISTS (SELECT 1 FROM artwork_documents d WHERE d.artwork_id = work
      AND d.refreshed_xact = txid_current() AND d.refreshed_at = statement_timestamp()) THEN
    RETURN;
  END IF;
  -- Two commits changing different parts of one work (a credit's artist renamed, the work's title edited) take
  -- turns here: the second waits for the first, then builds from a snapshot that includes it, so the document
  -- stored last holds both changes.
  PERFORM 1 FROM artworks a WHERE a.id = work FOR NO KEY UPDATE;
  built := artwork_document(work);
  IF built IS NULL THEN
    DELETE FROM artwork_documents WHERE artwork_id = work;
  ELSE
    INSERT INTO artwork_documents AS d (artwork_id, body, refreshed_xact, refreshed_at)
      VALUES (work, built, txid_current(), statement_timestamp())
      ON CONFLICT (artwork_id) DO UPDATE
        SET body = excluded.body, refreshed_xact = excluded.refreshed_xact, refreshed_at = excluded.refreshed_at;
  END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION artwork_document_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM refresh_artwork_document(NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A credit, dimension or format: the work it belongs to (both, should a row move from one work to another).
CREATE OR REPLACE FUNCTION artwork_part_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM refresh_artwork_document(OLD.artwork_id);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.artwork_id IS DISTINCT FROM OLD.artwork_id) THEN
    PERFORM refresh_artwork_document(NEW.artwork_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A credit shows its artist's name: a renamed artist's works are built again.
CREATE OR REPLACE FUNCTION artwork_artist_renamed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM refresh_artwork_document(aa.artwork_id) FROM artwork_artists aa WHERE aa.artist_id = NEW.id
    ORDER BY aa.artwork_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A deleted work's document goes with it (ON DELETE CASCADE), so deletions of works need no trigger.
CREATE CONSTRAINT TRIGGER artworks_document AFTER INSERT OR UPDATE ON artworks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION artwork_document_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER artwork_artists_document AFTER INSERT OR UPDATE OR DELETE ON artwork_artists
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION artwork_part_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER artwork_dimensions_document AFTER INSERT OR UPDATE OR DELETE ON artwork_dimensions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION artwork_part_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER artwork_formats_document AFTER INSERT OR UPDATE OR DELETE ON artwork_formats
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION artwork_part_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER artists_document AFTER UPDATE OF name ON artists
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION artwork_artist_renamed();
--> statement-breakpoint
-- The works there are: built now, in the migration's transaction.
INSERT INTO artwork_documents (artwork_id, body, refreshed_xact, refreshed_at)
  SELECT a.id, artwork_document(a.id), txid_current(), statement_timestamp() FROM artworks a
  ON CONFLICT (artwork_id) DO NOTHING;
