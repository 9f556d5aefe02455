-- Each gallery's triage adjustment (docs/decisions.md, "Each gallery's triage adjustment"): the offset to the shared
-- intent model fitted on the gallery's corrected intents, and the index its fit and the due check read them by.
CREATE TABLE "triage_adjustments" (
	"gallery_id" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"shared_model" text NOT NULL,
	"examples" integer DEFAULT 0 NOT NULL,
	"adjustment" jsonb NOT NULL,
	"corrected_through" timestamp(3) with time zone,
	"fitted_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "judgment_corrections_triage_idx" ON "judgment_corrections" USING btree ("gallery_id","created_at") WHERE "judgment_corrections"."aspect" = 'triage';