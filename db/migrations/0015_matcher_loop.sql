ALTER TABLE "artworks" ADD COLUMN "match_medium" text;--> statement-breakpoint
CREATE INDEX "artworks_match_medium_idx" ON "artworks" USING btree ("gallery_id","match_medium","price_cents","id") WHERE "artworks"."availability_state" = 'available' and "artworks"."published_at" is not null;--> statement-breakpoint
CREATE INDEX "artworks_gallery_match_medium_idx" ON "artworks" USING btree ("gallery_id","match_medium","id");--> statement-breakpoint
CREATE INDEX "engagement_events_artwork_idx" ON "engagement_events" USING btree ("gallery_id","artwork_id","occurred_at","contact_id") WHERE "engagement_events"."artwork_id" is not null;--> statement-breakpoint
-- The matcher in the loop (docs/decisions.md, "The matcher in the loop"): engine_subjects_of, as in 0013, also
-- marks the works of a sale (sale.* → each of data.object.artwork_ids, and the works a changed sale left), the
-- contact of a member's match feedback (match.feedback_recorded), and an archived contact (its matches go
-- inactive). The engine's own match.created / match.updated / match.deleted map to nothing, so judging matches
-- never marks what it wrote.
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
      WHERE event_type IN ('contact.created', 'contact.updated', 'contact.archived', 'contact.restored',
        'contact.deleted')
    UNION ALL
    SELECT 'contact', data->'object'->>'contact_id'
      WHERE event_type IN ('interaction.created', 'engagement_event.recorded', 'private_note.created',
        'sale.created', 'sale.updated', 'sale.deleted')
    UNION ALL
    SELECT 'contact', data->'previous_attributes'->>'contact_id'
      WHERE event_type = 'sale.updated'
    UNION ALL
    -- A member's feedback on a match is a label and a filter of the contact's matches.
    SELECT 'contact', data->'object'->>'contact_id'
      WHERE event_type = 'match.feedback_recorded'
    UNION ALL
    -- A sale makes its works unavailable (and a cancelled or deleted one available again): the works' matches
    -- are judged again. A sale whose works changed marks the works it left as well.
    SELECT 'artwork', w.artwork_id
      FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(data->'object'->'artwork_ids') = 'array'
        THEN data->'object'->'artwork_ids' ELSE '[]'::jsonb END) AS w(artwork_id)
      WHERE event_type IN ('sale.created', 'sale.updated', 'sale.deleted')
    UNION ALL
    SELECT 'artwork', w.artwork_id
      FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(data->'previous_attributes'->'artwork_ids') = 'array'
        THEN data->'previous_attributes'->'artwork_ids' ELSE '[]'::jsonb END) AS w(artwork_id)
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
