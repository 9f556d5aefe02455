-- The outbox fan-out: every domain event, whoever writes it (an API write, the cron Worker disabling an
-- endpoint), queues one pending delivery per enabled endpoint of its gallery subscribed to its type, in the
-- same transaction as the event. A delivery can therefore be neither lost nor doubled, and writers need no
-- extra statement. `webhook_endpoint.test` goes only to the endpoint it tests, which inserts its own delivery.
CREATE OR REPLACE FUNCTION fan_out_domain_event() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF NEW.type <> 'webhook_endpoint.test' THEN
    INSERT INTO webhook_deliveries (id, gallery_id, endpoint_id, event_id, next_attempt_at)
    SELECT new_id('wd'), NEW.gallery_id, w.id, NEW.id, now()
    FROM webhook_endpoints w
    WHERE w.gallery_id = NEW.gallery_id AND w.enabled AND webhook_type_matches(w.event_types, NEW.type);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER domain_events_fan_out AFTER INSERT ON domain_events
  FOR EACH ROW EXECUTE FUNCTION fan_out_domain_event();
