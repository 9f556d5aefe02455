-- The engine retries a failed subject after a change to its input (docs/decisions.md, "The engine loop survives
-- its failures"): marking a subject stale starts its attempts over, so a subject the sweep gave up on (MAX_ATTEMPTS
-- failed attempts in a row) is judged again once a write changes what it reads. last_error and failed_at stay
-- until it is judged, so the operator's read still shows why it failed.
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
        marked_xact = txid_current(),
        attempts = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The write-back's first statement: every subject it finishes, fails or releases must still be leased by the
-- claim that judged it. A lease that lapsed and was claimed again (a slow consumer, a killed one that comes
-- back) aborts the whole write-back, so the same input is never written, nor its events recorded, twice.
CREATE OR REPLACE FUNCTION engine_expect_leases(held bigint, expected bigint) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF held <> expected THEN
    RAISE EXCEPTION 'the engine''s lease on % of % subjects lapsed', expected - held, expected
      USING ERRCODE = '40001';
  END IF;
END
$$;
