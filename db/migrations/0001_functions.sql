-- Output timestamps: UTC ISO 8601 with milliseconds, as the API serves them.
CREATE OR REPLACE FUNCTION iso_ms(value timestamptz) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;
--> statement-breakpoint
-- Guarded writes: aborts the transaction unless the guarded UPDATE/DELETE touched exactly one row, i.e. the row
-- was unchanged since it was read. serialization_failure maps to 409 concurrent_modification.
CREATE OR REPLACE FUNCTION expect_one_row(touched bigint) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF touched <> 1 THEN
    RAISE EXCEPTION 'the row changed concurrently' USING ERRCODE = '40001';
  END IF;
END
$$;
--> statement-breakpoint
-- Reference checks inside a write's transaction: every id the caller named must exist in the caller's gallery.
-- SQLSTATE GP400 maps to 400 invalid_request with this message.
CREATE OR REPLACE FUNCTION expect_references(found bigint, expected bigint, field text) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  -- $1, not the name: inside PL/pgSQL a bare `found` is the built-in FOUND boolean, which shadows the parameter.
  IF $1 <> expected THEN
    RAISE EXCEPTION '% names a resource that does not exist in this gallery', field USING ERRCODE = 'GP400';
  END IF;
END
$$;
