CREATE TABLE "invoice_sequences" (
	"gallery_id" text PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD COLUMN "counterpart_address" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "contact_id" text;--> statement-breakpoint
ALTER TABLE "invoice_sequences" ADD CONSTRAINT "invoice_sequences_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_contact_idx" ON "invoices" USING btree ("gallery_id","contact_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_gallery_issued_idx" ON "invoices" USING btree ("gallery_id","issued_date","id");--> statement-breakpoint
-- Fair runs: the status set the API documents, a step count that cannot go negative, and a log that is an array.
-- Runs seeded before the set was fixed called a successful run `completed`.
UPDATE "fair_runs" SET "status" = 'succeeded' WHERE "status" = 'completed';
--> statement-breakpoint
ALTER TABLE "fair_runs" ADD CONSTRAINT "fair_runs_status_check"
  CHECK ("status" IN ('running', 'awaiting_approval', 'succeeded', 'failed', 'cancelled'));
--> statement-breakpoint
ALTER TABLE "fair_runs" ADD CONSTRAINT "fair_runs_step_count_check" CHECK ("step_count" >= 0);
--> statement-breakpoint
ALTER TABLE "fair_runs" ADD CONSTRAINT "fair_runs_actions_check" CHECK (jsonb_typeof("actions") = 'array');
--> statement-breakpoint
-- Invoice money, defined once here: the API's writes, the generated columns below, the checks and the seed all
-- read these functions. A discount in basis points is round half up of subtotal × bps / 10000 (numeric, so
-- exact); otherwise the discount is the cents given.
CREATE OR REPLACE FUNCTION invoice_discount_cents(subtotal_cents bigint, discount_cents bigint, discount_bps integer) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN discount_bps > 0 THEN round(subtotal_cents::numeric * discount_bps / 10000)::bigint ELSE discount_cents END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION invoice_total_cents(subtotal_cents bigint, discount_cents bigint, tax_cents bigint, shipping_cents bigint, shipping_tax_cents bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT subtotal_cents - discount_cents + tax_cents + shipping_cents + shipping_tax_cents $$;
--> statement-breakpoint
-- The total in the base currency: the total itself in the same currency; otherwise total × usd_per_unit /
-- base_usd_per_unit in numeric (each rate as its 15 significant digits), rounded half away from zero. Null when
-- a rate is missing or the amount would pass 2^53 - 1 (the API refuses such a write, naming the rate).
CREATE OR REPLACE FUNCTION invoice_base_amount_cents(total_cents bigint, currency text, base_currency text, usd_per_unit double precision, base_usd_per_unit double precision) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE
    WHEN base_currency IS NULL OR currency = base_currency THEN total_cents
    WHEN usd_per_unit > 0 AND base_usd_per_unit > 0
      AND abs(round(total_cents::numeric * usd_per_unit::numeric / base_usd_per_unit::numeric)) <= 9007199254740991
      THEN round(total_cents::numeric * usd_per_unit::numeric / base_usd_per_unit::numeric)::bigint
  END $$;
--> statement-breakpoint
-- Seeded before the status set was fixed: an overdue invoice is an unpaid one past its due date.
UPDATE "invoices" SET "status" = 'unpaid' WHERE "status" = 'overdue';
--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "total_cents";
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "total_cents" bigint GENERATED ALWAYS AS (invoice_total_cents(subtotal_cents, discount_cents, tax_cents, shipping_cents, shipping_tax_cents)) STORED NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "base_amount_cents";
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "base_amount_cents" bigint GENERATED ALWAYS AS (invoice_base_amount_cents(invoice_total_cents(subtotal_cents, discount_cents, tax_cents, shipping_cents, shipping_tax_cents), currency, fx_base_currency, fx_usd_per_unit, fx_base_usd_per_unit)) STORED;
--> statement-breakpoint
-- A discount in basis points shows as the cents it comes to.
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_discount_check" CHECK (discount_bps BETWEEN 0 AND 10000
  AND discount_cents >= 0
  AND discount_cents = invoice_discount_cents(subtotal_cents, discount_cents, discount_bps));
--> statement-breakpoint
-- The status follows the money: nothing paid before issue or on a void invoice, part of the total while
-- partially paid, all of it once paid.
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_status_check" CHECK (CASE status
  WHEN 'draft' THEN amount_paid_cents = 0
  WHEN 'unpaid' THEN amount_paid_cents = 0
  WHEN 'void' THEN amount_paid_cents = 0
  WHEN 'partially_paid' THEN amount_paid_cents > 0 AND amount_paid_cents < total_cents
  WHEN 'paid' THEN amount_paid_cents = total_cents
  ELSE false END);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_taxability_override_check"
  CHECK (taxability_override IN ('none', 'exempt', 'reverse_charge'));
--> statement-breakpoint
-- A phone number in E.164, or null when the text is not an international number: `+` or `00`, then digits with
-- the separators people type (spaces, dots, hyphens, slashes, parentheses), a trunk zero written `(0)` dropped,
-- 8 to 15 digits not starting with 0. The twin of e164() in lib/addresses.ts; the inbox matches contacts'
-- phones to a thread's counterpart by it.
CREATE OR REPLACE FUNCTION e164(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT CASE WHEN digits ~ '^[1-9][0-9]{7,14}$' THEN '+' || digits END
    FROM (SELECT CASE WHEN written ~ '^ *(\+|00)[0-9 .()/-]*$'
        THEN regexp_replace(regexp_replace(written, '^ *(\+|00)', ''), '[^0-9]', '', 'g') END AS digits
      FROM (SELECT replace(value, '(0)', '') AS written) w) d
  $$;
--> statement-breakpoint
CREATE INDEX "contacts_gallery_phone_e164_idx" ON "contacts" USING btree ("gallery_id", e164("phone")) WHERE "phone" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "inbox_messages_provider_message_idx" ON "inbox_messages" USING btree ("gallery_id","provider_message_id") WHERE "inbox_messages"."provider_message_id" is not null;
--> statement-breakpoint
ALTER TABLE "inbox_connections" ADD CONSTRAINT "inbox_connections_channel_check"
  CHECK (channel IN ('email', 'whatsapp', 'sms'));
--> statement-breakpoint
-- A thread is snoozed exactly when it has a snooze_until.
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_state_check"
  CHECK (state IN ('open', 'snoozed', 'done') AND (state = 'snoozed') = (snooze_until IS NOT NULL));
--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_channel_check"
  CHECK (channel IN ('email', 'whatsapp', 'sms'));
--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_direction_check"
  CHECK (direction IN ('inbound', 'outbound'));
--> statement-breakpoint
-- The priority order is asked of every state (and `state=open` takes expired snoozes too), so the index that
-- serves it is not led by state.
DROP INDEX "inbox_threads_priority_idx";--> statement-breakpoint
CREATE INDEX "inbox_threads_priority_idx" ON "inbox_threads" USING btree ("gallery_id","member_id","triage_expects_reply" DESC NULLS LAST,"triage_urgency_rank","triage_intent_probability" DESC NULLS LAST,"last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
