-- The engine's stale marking (docs/decisions.md, "The engine loop"): every write records its domain events in
-- the outbox, so one trigger on domain_events marks the subjects whose judged inputs the event changed, in the
-- write's own transaction. A failed write rolls its marks back with it; no writer needs a statement of its own.
--
-- engine_subjects_of: the subjects one event changes an input of. Kinds: artwork (readiness, disclosure),
-- inbox_thread (triage), contact (every described_as rubric of the gallery), contact_list (its described_as for
-- every contact), show (suggested tags). A deletion marks its subject too: the engine finds it gone and forgets
-- its judgments. Events the engine itself records (inbox_thread.updated for a triage
-- change, show_tag.created/deleted for suggestions) map to nothing, so write-back never marks its own subject.
CREATE OR REPLACE FUNCTION engine_subjects_of(gallery text, event_type text, resource_id text, data jsonb)
  RETURNS TABLE (kind text, subject_id text)
  LANGUAGE sql STABLE
  AS $$
  WITH direct(kind, subject_id) AS (
    SELECT 'artwork', resource_id
      WHERE event_type IN ('artwork.created', 'artwork.updated', 'artwork.published', 'artwork.draft_discarded',
        'artwork.deleted')
    UNION ALL
    SELECT 'artwork', data->'object'->>'artwork_id'
      WHERE event_type IN ('artwork_image.created', 'artwork_image.updated', 'artwork_image.deleted',
        'artwork_format.created', 'artwork_format.updated', 'artwork_format.deleted')
    UNION ALL
    SELECT 'inbox_thread', data->'object'->>'thread_id'
      WHERE event_type IN ('inbox_message.received', 'inbox_message.sent')
    UNION ALL
    SELECT 'contact', resource_id
      WHERE event_type IN ('contact.created', 'contact.updated', 'contact.restored', 'contact.deleted')
    UNION ALL
    SELECT 'contact', data->'object'->>'contact_id'
      WHERE event_type IN ('interaction.created', 'engagement_event.recorded', 'private_note.created',
        'sale.created', 'sale.updated', 'sale.deleted')
    UNION ALL
    SELECT 'contact', data->'previous_attributes'->>'contact_id'
      WHERE event_type = 'sale.updated'
    UNION ALL
    -- A list is judged when it gets a described_as or that text changes (a removed one drops its judgments).
    SELECT 'contact_list', resource_id
      WHERE (event_type = 'contact_list.created'
          AND data->'object'->'dynamic_query'->>'described_as' IS NOT NULL)
        OR (event_type = 'contact_list.updated'
          AND data->'object'->'dynamic_query'->>'described_as' IS NOT NULL
          AND data->'previous_attributes' ? 'dynamic_query'
          AND (data->'previous_attributes'->'dynamic_query'->>'described_as')
            IS DISTINCT FROM (data->'object'->'dynamic_query'->>'described_as'))
        OR event_type = 'contact_list.deleted'
    UNION ALL
    SELECT 'show', resource_id WHERE event_type IN ('show.created', 'show.updated', 'show.deleted')
  )
  SELECT DISTINCT d.kind, d.subject_id FROM direct d WHERE d.subject_id IS NOT NULL
  UNION
  -- The shows holding a work whose facts (artist, medium, date, size, formats) changed.
  SELECT DISTINCT 'show', sa.show_id
    FROM show_artworks sa
    WHERE event_type IN ('artwork.updated', 'artwork.published', 'artwork.draft_discarded',
        'artwork_format.created', 'artwork_format.updated', 'artwork_format.deleted')
      AND sa.gallery_id = gallery
      AND sa.artwork_id = CASE WHEN event_type LIKE 'artwork.%' THEN resource_id
                               ELSE data->'object'->>'artwork_id' END
$$;
--> statement-breakpoint
-- Marks each subject stale: its version moves on; stale_since keeps the moment it first went stale (the sweep's
-- clock), and marked_xact names this transaction so the write can read back, in its own batch, what it marked.
CREATE OR REPLACE FUNCTION engine_mark_stale() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO judgment_subjects AS s (gallery_id, kind, subject_id, version, judged_version, stale_since, marked_xact)
  SELECT NEW.gallery_id, m.kind, m.subject_id, 1, 0, now(), txid_current()
    FROM engine_subjects_of(NEW.gallery_id, NEW.type, NEW.resource_id, NEW.data) m
  ON CONFLICT (gallery_id, kind, subject_id) DO UPDATE
    SET version = s.version + 1,
        stale_since = CASE WHEN s.judged_version < s.version THEN s.stale_since ELSE now() END,
        marked_xact = txid_current();
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER domain_events_engine_stale AFTER INSERT ON domain_events
  FOR EACH ROW EXECUTE FUNCTION engine_mark_stale();
