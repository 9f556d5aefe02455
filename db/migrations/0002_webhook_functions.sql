-- Ids minted inside SQL (deliveries fanned out by the outbox statement), in the same shape as lib/ids.ts:
-- prefix, 10 Crockford base32 characters of milliseconds, 16 random ones. Delivery ids are not secrets.
CREATE OR REPLACE FUNCTION new_id(prefix text) RETURNS text
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  t bigint := floor(extract(epoch from clock_timestamp()) * 1000);
  result text := '';
BEGIN
  FOR i IN 1..10 LOOP
    result := substr(alphabet, (t % 32)::int + 1, 1) || result;
    t := t / 32;
  END LOOP;
  FOR i IN 1..16 LOOP
    result := result || substr(alphabet, floor(random() * 32)::int + 1, 1);
  END LOOP;
  RETURN prefix || '_' || result;
END
$$;
--> statement-breakpoint
-- An endpoint's event_types: exact types, `*` for every type, or `<resource>.*` for one resource's types.
CREATE OR REPLACE FUNCTION webhook_type_matches(patterns text[], event_type text) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  SELECT EXISTS (
    SELECT 1 FROM unnest(patterns) AS p
    WHERE p = '*' OR p = event_type
       OR (right(p, 2) = '.*' AND left(event_type, length(p) - 1) = left(p, length(p) - 1))
  )
$$;
