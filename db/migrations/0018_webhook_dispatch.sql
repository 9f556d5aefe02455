DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
-- The instant of a write's events: the clock when its first event is recorded, kept for the rest of the
-- transaction. A write records its events after its change, which holds the resource's row lock, so the events of
-- one resource are in the order their writes committed; and the events of one write share one instant.
CREATE OR REPLACE FUNCTION event_clock() RETURNS timestamptz
  LANGUAGE sql VOLATILE
  AS $$
  SELECT coalesce(
    nullif(current_setting('gallery.event_clock', true), ''),
    set_config('gallery.event_clock', clock_timestamp()::text, true)
  )::timestamptz
$$;
--> statement-breakpoint
ALTER TABLE "domain_events" ALTER COLUMN "created_at" SET DEFAULT event_clock();--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "dispatch_token" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "dispatch_expires_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "backoff_until" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "backoff_streak" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "domain_events_created_idx" ON "domain_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at","event_id") WHERE status = 'pending';--> statement-breakpoint
-- A delivery is first due when its event was written: an endpoint's first attempts are claimed in the order of
-- its events (domain_events.created_at is now the insertion instant, see the schema).
CREATE OR REPLACE FUNCTION fan_out_domain_event() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF NEW.type <> 'webhook_endpoint.test' THEN
    INSERT INTO webhook_deliveries (id, gallery_id, endpoint_id, event_id, next_attempt_at)
    SELECT new_id('wd'), NEW.gallery_id, w.id, NEW.id, NEW.created_at
    FROM webhook_endpoints w
    WHERE w.gallery_id = NEW.gallery_id AND w.enabled AND webhook_type_matches(w.event_types, NEW.type);
  END IF;
  RETURN NULL;
END
$$;
