-- Contacts' `q` of one or two characters: trigrams need three, so the trigram index cannot narrow such a term
-- and a term few contacts have read the gallery's whole roster. Every character and every pair of adjacent
-- characters of search_text, indexed, answer "has these one or two characters" (db/queries/contact-filters.ts);
-- the fields themselves still decide. Duplicates are left in: GIN keeps each key once per row, and containment
-- ignores them. COST 10 (a tenth of a SQL function's default) still puts the call after the LIKEs of the fields
-- in a filter, so a row pays for it only once those passed, and keeps the planner from costing a walk along the
-- roster as if every row paid for it (which sent mid-frequent terms to parallel workers).
CREATE FUNCTION contact_search_grams(t text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 10 AS $$
    SELECT array(SELECT substr(t, i, w) FROM generate_series(1, length(t)) i CROSS JOIN (VALUES (1), (2)) v(w))
  $$;
--> statement-breakpoint
CREATE INDEX "contacts_search_grams_idx" ON "contacts" USING gin (contact_search_grams("search_text"));
